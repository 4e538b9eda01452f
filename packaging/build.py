"""Build the one-folder app: python packaging/build.py  ->  dist/ClusterBid/ (size printed).

Needs PyInstaller from the `package` extra: pip install -e '.[package]'. The spec imports the
package from desktop/ itself, so the build does not depend on how clusterbid was installed.
`--dist DIR --work DIR` put the output elsewhere (for example outside the checkout).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "pyinstaller" / "clusterbid.spec"


def folder_size_mb(folder: Path) -> float:
    # lstat and skip links: Qt's versioned .so links would otherwise count twice.
    return (
        sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
        / 1e6
    )


def build(dist: Path = ROOT / "dist", work: Path = ROOT / "build") -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level",
            "WARN",
            "--distpath",
            str(dist),
            "--workpath",
            str(work),
            str(SPEC),
        ],
        check=True,
    )
    bundle = dist / "ClusterBid"
    print(f"built {bundle}: {folder_size_mb(bundle):.0f} MB")
    return bundle


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dist", type=Path, default=ROOT / "dist", help="where ClusterBid/ goes (default: dist/)"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=ROOT / "build",
        help="PyInstaller's work folder (default: build/)",
    )
    args = parser.parse_args()
    build(args.dist, args.work)
