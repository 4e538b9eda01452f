"""Every package under desktop/ is in the wheel: pyproject lists them by hand, and a package
left out installs a wheel whose commands fail at import (the operations layer once did)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_source_tree_is_listed_for_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    source = ROOT / "desktop"
    found = {".".join(init.parent.relative_to(source).parts) for init in source.rglob("__init__.py")
             if "__pycache__" not in init.parts}
    assert found - listed == set(), f"add to [tool.setuptools] packages in pyproject.toml: {sorted(found - listed)}"
