"""Types are part of the test run: mypy in strict mode over the whole package, with a list of
modules not yet strict (pyproject.toml) that only shrinks, and a check that the configuration can
fail.

One mypy run without the list's `ignore_errors` gives every module's errors: a module off the list
must have none (new code is strict from its first commit), and a module on the list must still
have some (once it passes, it comes off the list and stays strict).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

from tests.conftest import REPO

ERROR_LINE = re.compile(r"^desktop/(?P<file>[^:]+)\.py:\d+: error:", re.MULTILINE)


def _mypy(*args: str, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _not_yet_strict() -> list[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = config["tool"]["mypy"].get("overrides", [])
    return [
        module for entry in overrides if entry.get("ignore_errors") for module in entry["module"]
    ]


def _module_of(file: str) -> str:
    return re.sub(r"\.__init__$", "", file.replace("/", "."))


def _errors_by_module(tmp_path) -> dict[str, int]:
    """Every module's strict errors, the list's ignore_errors switched off for this run."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "strict-everywhere.toml").write_text(
        text.replace("ignore_errors = true", "ignore_errors = false")
    )
    done = _mypy("--config-file", str(tmp_path / "strict-everywhere.toml"))
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 2 would be a crash or bad config
    counts: dict[str, int] = {}
    for match in ERROR_LINE.finditer(done.stdout):
        module = _module_of(match["file"])
        counts[module] = counts.get(module, 0) + 1
    return counts


def test_every_module_is_strict_unless_listed_and_the_list_only_shrinks(tmp_path):
    listed = set(_not_yet_strict())
    errors = _errors_by_module(tmp_path)
    new_faults = {module: count for module, count in errors.items() if module not in listed}
    assert not new_faults, (
        f"modules with strict type errors that are not on the not-yet-strict list "
        f"(fix them; the list only shrinks): {new_faults}"
    )
    now_strict = sorted(listed - errors.keys())
    assert not now_strict, (
        f"these modules pass strict type checking now: take them off the list in "
        f"pyproject.toml [[tool.mypy.overrides]] so they stay strict: {now_strict}"
    )


def test_the_type_configuration_catches_an_untyped_function(tmp_path):
    config = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "bad.py").write_text("def half(x):\n    return x / 2\n\nhalf('a')\n")
    done = _mypy("bad.py", cwd=tmp_path)
    assert done.returncode == 1 and "Function is missing a type annotation" in done.stdout
