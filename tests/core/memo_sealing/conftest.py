"""Fixtures for the sealing tests: the loopback PKI (started once, stopped at the end), a memo
signed by both approvers with its certificates, and that memo sealed."""

from __future__ import annotations

import pytest
from tests.core.memo_sealing import loopback_pki
from tests.core.memo_signing.memo_factory import demo_memo

from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo


@pytest.fixture(scope="session")
def loopback(tmp_path_factory):
    pki = loopback_pki.start(tmp_path_factory.mktemp("loopback-pki"))
    yield pki
    pki.stop()


@pytest.fixture(scope="session")
def signed_memo(loopback) -> bytes:
    first = sign_memo(
        demo_memo(), "approver-1", load_credentials(loopback.p12["ada"], loopback.passphrase)
    )
    return sign_memo(
        first.pdf, "approver-2", load_credentials(loopback.p12["grace"], loopback.passphrase)
    ).pdf


@pytest.fixture(scope="session")
def sealed_memo(loopback, signed_memo) -> bytes:
    from clusterbid.core.memo.sealing import seal_memo

    return seal_memo(signed_memo, loopback.tsa_url).pdf
