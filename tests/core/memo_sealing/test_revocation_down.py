"""Sealing when the timestamp authority answers but revocation status cannot be had.

The choice (core/memo/sealing.py): a seal is whole or not made. Without a certificate's status
there is no B-LT, and a document timestamp alone over incomplete validation data would be a file
that looks sealed to an officer scanning the archive while it will not validate once the CAs'
services are gone; the next seal would have to fetch the same status anyway. So the memo is left
byte for byte as it was and the message names the certificate without status and the addresses
asked. When one kind of service is down but the other covers every certificate (OCSP down, CRLs
up), the seal is complete, on CRLs, and verify says B-LTA from the file alone."""

from __future__ import annotations

from datetime import UTC, datetime
from io import BytesIO

import pytest
from asn1crypto import pem
from asn1crypto import x509 as asn1_x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation.dss import DocumentSecurityStore

from clusterbid.cli import main
from clusterbid.core.memo.long_term import long_term_reports

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def services_down(loopback):
    """Switch services of the loopback PKI off for one test; they are back on after it."""

    def switch(*names: str) -> None:
        loopback.down.update(names)
        loopback.asked.clear()

    yield switch
    loopback.down.clear()


def _memo(tmp_path, pdf: bytes):
    memo = tmp_path / "memo.pdf"
    memo.write_bytes(pdf)
    return memo


def test_tsa_up_revocation_down_names_what_is_missing_and_leaves_the_file(
    loopback, signed_memo, services_down, tmp_path, capsys
):
    services_down("ocsp", "crls")
    memo = _memo(tmp_path, signed_memo)
    assert main(["seal", str(memo), "--tsa", loopback.tsa_url]) == 2
    err = capsys.readouterr().err
    assert "tsa" in loopback.asked  # the timestamp authority was reached and answered
    assert "crls" in loopback.asked  # the intermediate CA's status was asked (its only service)
    assert "not sealed, the file is unchanged" in err
    assert "no revocation status (OCSP response or CRL)" in err
    assert "Test Intermediate CA" in err  # the certificate without status, by name
    for address in ("/crls/root/latest.crl", "/ocsp/interm", "/crls/interm/latest.crl"):
        assert (
            f"{loopback.url}/clusterbid-test{address}" in err
        )  # each address the certificates name
    assert "no RFC 3161 timestamp" not in err and "Traceback" not in err
    assert memo.read_bytes() == signed_memo
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memo.pdf"]


def test_crls_down_alone_is_refused_too_the_intermediate_ca_has_no_ocsp(
    loopback, signed_memo, services_down, tmp_path, capsys
):
    # the intermediate CA's certificate names only its issuer's CRL (loopback_pki.config)
    services_down("crls")
    memo = _memo(tmp_path, signed_memo)
    assert main(["seal", str(memo), "--tsa", loopback.tsa_url]) == 2
    err = capsys.readouterr().err
    assert "Test Intermediate CA" in err and "no revocation status" in err
    assert memo.read_bytes() == signed_memo


def test_ocsp_down_alone_seals_on_crls_and_verify_says_so(
    loopback, signed_memo, services_down, tmp_path
):
    services_down("ocsp")
    memo = _memo(tmp_path, signed_memo)
    assert main(["seal", str(memo), "--tsa", loopback.tsa_url]) == 0
    assert "ocsp" in loopback.asked  # OCSP was asked and refused; the CRLs answered
    sealed = memo.read_bytes()
    assert sealed.startswith(signed_memo)
    reader = PdfFileReader(BytesIO(sealed), strict=False)
    dss = DocumentSecurityStore.read_dss(reader)
    # the approvers' intermediate CA's CRL and the root's: two, and no OCSP response at all
    assert len(dss.crls) == 2 and len(dss.ocsps) == 0
    root = asn1_x509.Certificate.load(pem.unarmor(loopback.root_pem.read_bytes())[2])
    reports = long_term_reports(
        reader, list(reader.embedded_regular_signatures), [root], datetime.now(UTC)
    )
    assert [(r.level, r.indication) for r in reports] == [("B-LTA", "TOTAL-PASSED")] * 2
