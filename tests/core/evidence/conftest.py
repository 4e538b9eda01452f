"""The real public nccl-tests log (a byte-for-byte copy in tests/data) as a session fixture."""

from __future__ import annotations

import pytest
from nccl_fixture_files import REAL_LOG


@pytest.fixture(scope="session")
def real_log_bytes() -> bytes:
    return REAL_LOG.read_bytes()
