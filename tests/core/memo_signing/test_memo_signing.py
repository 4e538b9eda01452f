"""Signing a memo: two approvers, validated by pyHanko against explicit roots; refusals in plain words."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from datetime import timedelta
from io import BytesIO

import pytest
import tzlocal
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives.serialization import Encoding
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.diff_analysis import ModificationLevel
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext
from tests.core.memo_signing.conftest import ADA
from tests.core.memo_signing.memo_factory import demo_inputs
from tests.core.memo_signing.pki import NOW, Authority

from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import approver_field, sign_memo


def _statuses(pdf: bytes, authority: Authority):
    root = asn1_x509.Certificate.load(authority.certificate.public_bytes(Encoding.DER))
    reader = PdfFileReader(BytesIO(pdf))
    return [
        (sig.field_name, validate_pdf_signature(sig, ValidationContext(trust_roots=[root])))
        for sig in reader.embedded_signatures
    ]


def test_two_approvers_sign_and_pyhanko_validates_both_against_the_test_root(pki, signed_twice):
    (first_field, first), (second_field, second) = _statuses(signed_twice, pki.authority)
    assert (first_field, second_field) == ("approver-1", "approver-2")
    for status in (first, second):
        assert status.intact and status.valid and status.trusted and status.bottom_line
    assert second.coverage == SignatureCoverageLevel.ENTIRE_FILE
    # The first signature is followed by the second approver's signature: an allowed incremental update.
    assert first.coverage == SignatureCoverageLevel.ENTIRE_REVISION
    assert first.modification_level == ModificationLevel.FORM_FILLING and first.docmdp_ok


def test_each_signature_is_an_incremental_update_keeping_earlier_bytes(
    unsigned_memo, signed_once, signed_twice
):
    assert signed_once.startswith(unsigned_memo) and signed_twice.startswith(signed_once)


def test_signature_carries_pades_subfilter_reason_and_signer_name(signed_once):
    sig = PdfFileReader(BytesIO(signed_once)).embedded_signatures[0]
    assert sig.sig_object["/SubFilter"] == "/ETSI.CAdES.detached"
    # What approver 1 approves: the demo's Northwind term (README: $3,195,648 committed), by hand.
    sha = demo_inputs().sha256
    assert sig.sig_object["/Reason"] == (
        "Approver 1 approves a total commitment of USD 3,195,648.00 to Northwind AI Cloud, "
        "H100-SXM; "
        f"memo CB-{sha[:8].upper()}, inputs SHA-256 {sha}"
    )
    assert sig.signer_cert.subject.native["common_name"] == ADA[0]


def test_location_is_recorded_when_given(pki, unsigned_memo):
    signed = sign_memo(
        unsigned_memo, "approver-1", load_credentials(pki.ada_p12, ADA[1]), location="Zurich"
    )
    assert (
        PdfFileReader(BytesIO(signed.pdf)).embedded_signatures[0].sig_object["/Location"]
        == "Zurich"
    )
    assert signed.sha256 == hashlib.sha256(signed.pdf).hexdigest()


@pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed"
)
def test_the_stamp_says_the_time_is_the_signers_clock(tmp_path, signed_once):
    (tmp_path / "m.pdf").write_bytes(signed_once)
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "m.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    claimed = PdfFileReader(BytesIO(signed_once)).embedded_signatures[0].self_reported_timestamp
    # The stamp shows the signer's local time with its zone; the signature stores the same instant.
    local = claimed.astimezone(tzlocal.get_localzone())
    assert f"signed {local:%Y-%m-%d %H:%M:%S %Z} (signer's clock)" in text.replace("’", "'")
    assert f"Signed by {ADA[0]}" in text


def test_wrong_passphrase_is_named(pki):
    with pytest.raises(InputError, match="wrong passphrase"):
        load_credentials(pki.ada_p12, "not the passphrase")


def test_expired_certificate_is_refused(pki, tmp_path):
    p12 = pki.authority.write_p12(
        tmp_path,
        "Old Signer",
        "pw",
        valid_from=NOW - timedelta(days=400),
        valid_until=NOW - timedelta(days=35),
    )
    with pytest.raises(InputError, match="expired on .*new one"):
        load_credentials(p12, "pw")


def test_not_yet_valid_certificate_is_refused(pki, tmp_path):
    p12 = pki.authority.write_p12(
        tmp_path, "Future Signer", "pw", valid_from=NOW + timedelta(days=2)
    )
    with pytest.raises(InputError, match="not valid until"):
        load_credentials(p12, "pw")


def test_certificate_without_non_repudiation_is_refused(pki, tmp_path):
    p12 = pki.authority.write_p12(tmp_path, "Plain Signer", "pw", commitment=False)
    with pytest.raises(InputError, match="non-repudiation"):
        load_credentials(p12, "pw")


def test_file_that_is_not_pkcs12_is_named(pki):
    with pytest.raises(InputError, match="not a PKCS#12"):
        load_credentials(pki.ca_pem, "pw")


def test_unknown_and_already_signed_fields_are_refused(pki, unsigned_memo, signed_once):
    ada = load_credentials(pki.ada_p12, ADA[1])
    with pytest.raises(InputError, match="no signature field 'approver-3'.*approver-1, approver-2"):
        sign_memo(unsigned_memo, approver_field(3), ada)
    with pytest.raises(InputError, match="'approver-1' is already signed"):
        sign_memo(signed_once, approver_field(1), ada)
    with pytest.raises(InputError, match="give the approver's number"):
        approver_field(0)


def test_a_file_that_is_not_a_pdf_is_refused(pki):
    with pytest.raises(InputError, match="not a PDF"):
        sign_memo(b"PK\x03\x04 a zip file", "approver-1", load_credentials(pki.ada_p12, ADA[1]))
