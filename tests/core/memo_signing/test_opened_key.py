"""Signing uses the key as the PKCS#12 file was opened (core/memo/signing.py OpenedKeySigner):
pyHanko's own signer opened it again from its DER bytes at every signature, and cryptography
checked the RSA key again, a tenth of `clusterbid sign` (issue 32 item 7). The signatures made
must be the ones pyHanko would make: validated by pyHanko against the test root, for RSA and
ECDSA keys, and with credentials that carry no opened key (pyHanko's own path)."""

from __future__ import annotations

import dataclasses
from io import BytesIO

import pytest
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.signers import pdf_cms
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext
from tests.core.memo_signing.conftest import ADA
from tests.core.memo_signing.pki import write_p12

from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import OpenedKeySigner, _signer, sign_memo


@pytest.fixture
def key_loads(monkeypatch):
    """How many times pyHanko's signer opens a private key from its bytes."""
    calls = []
    real = pdf_cms.serialization.load_der_private_key

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pdf_cms.serialization, "load_der_private_key", counted)
    return calls


def _validated(pki, pdf: bytes):
    """pyHanko's validation of the memo's one signature against the test root."""
    root = asn1_x509.Certificate.load(pki.authority.certificate.public_bytes(Encoding.DER))
    signature = PdfFileReader(BytesIO(pdf)).embedded_signatures[0]
    return validate_pdf_signature(signature, ValidationContext(trust_roots=[root]))


def test_an_rsa_key_is_opened_once_and_its_signature_validates(pki, unsigned_memo, key_loads):
    credentials = load_credentials(pki.ada_p12, ADA[1])
    assert isinstance(_signer(credentials), OpenedKeySigner)
    signed = sign_memo(unsigned_memo, "approver-1", credentials)
    status = _validated(pki, signed.pdf)
    assert status.intact and status.valid and status.trusted
    assert key_loads == []  # pyHanko never opened the key again


def test_an_ecdsa_key_is_signed_with_as_opened(pki, unsigned_memo, key_loads, tmp_path):
    key, certificate = pki.authority.issue(
        "Ada Lovelace", key=ec.generate_private_key(ec.SECP256R1())
    )
    p12 = write_p12(tmp_path, "ada-ec.p12", key, certificate, pki.authority, "pw")
    credentials = load_credentials(p12, "pw")
    status = _validated(pki, sign_memo(unsigned_memo, "approver-1", credentials).pdf)
    assert status.intact and status.valid and status.trusted
    assert status.signing_cert.public_key.algorithm == "ec" and key_loads == []


def test_credentials_without_an_opened_key_sign_as_pyhanko_does(pki, unsigned_memo, key_loads):
    credentials = dataclasses.replace(load_credentials(pki.ada_p12, ADA[1]), opened_key=None)
    assert not isinstance(_signer(credentials), OpenedKeySigner)
    status = _validated(pki, sign_memo(unsigned_memo, "approver-1", credentials).pdf)
    assert status.intact and status.valid and status.trusted
    assert key_loads == [1]  # pyHanko's own signer opened it from its bytes


def test_an_opened_key_that_is_not_the_certificates_is_never_signed_with(pki):
    # A copy of the credentials with another key opened beside them (nothing makes one today):
    # the signer falls back to pyHanko's own, which signs with the certificate's key.
    credentials = load_credentials(pki.ada_p12, ADA[1])
    stale = dataclasses.replace(credentials, opened_key=ec.generate_private_key(ec.SECP256R1()))
    assert not isinstance(_signer(stale), OpenedKeySigner)
    assert isinstance(_signer(credentials), OpenedKeySigner)
