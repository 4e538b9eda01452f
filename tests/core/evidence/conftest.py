"""Paths to the nccl-tests fixtures and to the real public log (a byte-for-byte copy in tests/data)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "data" / "nccl-tests"
REAL_LOG = FIXTURES / "public" / "all_reduce_2x8xH100_tcpxo.log"  # source: public/SOURCES.md


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def real_log_bytes() -> bytes:
    return REAL_LOG.read_bytes()
