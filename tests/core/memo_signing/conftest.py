"""Fixtures for sign-off tests: a throw-away CA, approvers' PKCS#12 files, memos unsigned and signed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.core.memo_signing.memo_factory import demo_memo
from tests.core.memo_signing.pki import Authority

from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo

ADA, GRACE = ("Ada Lovelace", "ada-passphrase"), ("Grace Hopper", "grace-passphrase")


@dataclass(frozen=True)
class Pki:
    authority: Authority
    folder: Path
    ada_p12: Path
    grace_p12: Path
    ca_pem: Path


@pytest.fixture(scope="session")
def pki(tmp_path_factory) -> Pki:
    folder = tmp_path_factory.mktemp("pki")
    authority = Authority.create()
    return Pki(
        authority,
        folder,
        authority.write_p12(folder, *ADA),
        authority.write_p12(folder, *GRACE),
        authority.write_pem(folder / "ca.pem"),
    )


@pytest.fixture(scope="session")
def unsigned_memo() -> bytes:
    return demo_memo()


@pytest.fixture(scope="session")
def signed_once(pki, unsigned_memo) -> bytes:
    return sign_memo(unsigned_memo, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf


@pytest.fixture(scope="session")
def signed_twice(pki, signed_once) -> bytes:
    return sign_memo(signed_once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf


@pytest.fixture
def memo_file(tmp_path):
    """Write memo bytes to a file for the CLI."""

    def write(data: bytes, name: str = "memo.pdf") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path

    return write


@pytest.fixture(scope="module")
def signed_by(tmp_path_factory, unsigned_memo):
    """sign(name): the demo memo signed in field 1 by a certificate issued to `name` (a stamp's
    text in that name's script)."""
    folder, authority = tmp_path_factory.mktemp("signers"), Authority.create()

    def sign(name: str) -> bytes:
        p12 = authority.write_p12(folder, name, "pw")
        return sign_memo(unsigned_memo, "approver-1", load_credentials(p12, "pw")).pdf

    return sign
