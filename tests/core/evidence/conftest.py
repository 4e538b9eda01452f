"""Paths to the nccl-tests fixtures and to the real public log kept in the shared folder."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "data" / "nccl-tests"
# The shared folder sits beside the repo (worktree), not inside it.
REAL_LOG = (REPO / ".." / "shared" / "data" / "nccl-tests" / "all_reduce_2x8xH100_tcpxo.log").resolve()


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def real_log_bytes() -> bytes:
    if not REAL_LOG.is_file():
        pytest.skip(f"real nccl-tests log not found at {REAL_LOG} (shared/ folder is not beside the repo)")
    return REAL_LOG.read_bytes()
