"""Run one CLI command in a fresh interpreter and report which top-level packages it imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import REPO

# Run in the child: the command through cli.main, then the imported top-level package names.
_CHILD = """
import json, sys
from clusterbid.cli import main
try:
    code = main(json.loads(sys.argv[1]))
except SystemExit as done:  # --help exits through argparse
    code = done.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

# What a quick verb must not pay for: the charts, the PDF renderer and the window toolkit.
HEAVY = ("matplotlib", "PySide6", "shiboken6", "reportlab")


def imported_by(argv: list[str]) -> tuple[int, set[str]]:
    """(exit code, top-level packages in sys.modules) after `clusterbid ARGV` in a new process."""
    code, modules = modules_imported_by(argv)
    return code, {name.split(".")[0] for name in modules}


def modules_imported_by(argv: list[str]) -> tuple[int, set[str]]:
    """(exit code, every module name in sys.modules) after `clusterbid ARGV` in a new process
    (the environment as it is, so a test's monkeypatched variables reach the child)."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "desktop")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(argv)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["code"], set(report["modules"])
