"""Where the nccl-tests fixtures live, importable by name from the tests in this folder.

The helpers sit here rather than in conftest.py: several folders have a conftest.py, and
`from conftest import ...` picks whichever was imported first, so the result depended on test order.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "data" / "nccl-tests"
REAL_LOG = FIXTURES / "public" / "all_reduce_2x8xH100_tcpxo.log"  # source: public/SOURCES.md


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")
