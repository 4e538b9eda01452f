"""One place that finds bundled resources, from a source checkout or a frozen bundle."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def resources_root() -> Path:
    """The `resources/` folder: beside the executable when frozen; installed with the package as
    `clusterbid._resources` (setup.py maps it, wheel and editable installs alike); at the repo top
    when the source runs from `desktop/` on the path without an install."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root) / "resources"
    # A folder without __init__.py is a namespace package: its spec names the folder.
    spec = importlib.util.find_spec("clusterbid._resources")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if Path(folder, "catalog").is_dir():
            return Path(folder)
    # desktop/clusterbid/resources.py -> repo top is two folders above the package.
    return Path(__file__).resolve().parent.parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """Path of a bundled resource, e.g. resource_path("catalog", "gpus.toml")."""
    path = resources_root().joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(
            f"bundled resource {'/'.join(parts)} is missing from {resources_root()}; "
            "reinstall ClusterBid from a complete checkout"
        )
    return path
