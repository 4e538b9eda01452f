"""constraints.txt pins one tested version of everything pyproject.toml asks for, inside its
ranges, including the renderer the memo's byte-for-byte check relies on; the bundled fonts are
pinned by their SHA-256 (resources/fonts/SHA256SUMS)."""

from __future__ import annotations

import hashlib
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from tests.conftest import REPO

from clusterbid.core.memo.render import RENDERING_LIBRARIES


def _pins() -> dict[str, Version]:
    pins = {}
    for number, line in enumerate(
        (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines(), start=1
    ):
        line = line.split("#")[0].strip()
        if line:
            name, equals, version = line.partition("==")
            assert equals, f"constraints.txt line {number}: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = Version(version)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [
        Requirement(text)
        for text in (*project["dependencies"], *project["optional-dependencies"]["test"])
    ]


def test_every_requirement_is_pinned_inside_its_range():
    pins = _pins()
    for requirement in _requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"constraints.txt does not pin {requirement.name}"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {requirement.name} {pins[name]}, outside pyproject's "
            f"{requirement.specifier}"
        )


def test_the_renderer_of_the_memo_is_pinned():
    pins = _pins()
    for library in (*RENDERING_LIBRARIES, "rl_accel", "pypdfium2"):
        assert canonicalize_name(library) in pins, (
            f"constraints.txt does not pin the renderer library {library}"
        )


def test_the_bundled_fonts_match_their_pinned_hashes():
    fonts = REPO / "resources" / "fonts"
    listed = {}
    for line in (fonts / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    assert set(listed) == {path.name for path in fonts.glob("*.ttf")}, (
        "SHA256SUMS must list every bundled font"
    )
    for name, digest in listed.items():
        assert hashlib.sha256((fonts / name).read_bytes()).hexdigest() == digest, (
            f"resources/fonts/{name} changed: memos drawn with it differ byte for byte; if that is "
            "meant, "
            "update SHA256SUMS (cd resources/fonts && sha256sum *.ttf > SHA256SUMS)"
        )
