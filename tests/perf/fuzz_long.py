"""The fuzz targets of the test suite with a larger example budget: not part of the test run.

    .venv/bin/python tests/perf/fuzz_long.py [SCALE]

runs every fuzz test (tests/core/test_fuzz_every_reader.py, the importers', the evidence
readers') with SCALE times the examples the suite gives them (default 50) and prints pytest's
summary; 0 failures is the bar.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = [
    "tests/core/test_fuzz_every_reader.py",
    "tests/core/interchange/test_fuzz_readers.py",
    "tests/core/evidence/test_evidence_reading_fuzz.py",
]


def main() -> int:
    scale = sys.argv[1] if len(sys.argv) > 1 else "50"
    env = {
        **os.environ,
        "CLUSTERBID_FUZZ_SCALE": scale,
        "CLUSTERBID_HYPOTHESIS_PROFILE": "explore",
        "QT_QPA_PLATFORM": "offscreen",
    }
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "timeout=0",
        *TARGETS,
    ]
    print(f"fuzzing at {scale}x the suite's examples: {' '.join(TARGETS)}", flush=True)
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
