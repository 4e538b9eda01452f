"""Verify's long-term view on memos sealed against the loopback PKI: the ETSI indication, the
PAdES level and the time each signature is proven to have existed at, now and ten years ahead
with no network at all."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from io import BytesIO

import pytest
from asn1crypto import pem
from asn1crypto import x509 as asn1_x509
from pyhanko.pdf_utils.reader import PdfFileReader

from clusterbid.core.memo.long_term import long_term_reports
from clusterbid.core.memo.verification import verify_memo

pytestmark = pytest.mark.timeout(300)
TEN_YEARS = timedelta(days=3653)


def _root(loopback) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(pem.unarmor(loopback.root_pem.read_bytes())[2])


def _reports(pdf: bytes, roots, when=None):
    reader = PdfFileReader(BytesIO(pdf), strict=False)
    return reader, long_term_reports(reader, list(reader.embedded_regular_signatures), roots, when)


def _gen_time(signed_data) -> datetime:
    return signed_data["encap_content_info"]["content"].parsed["gen_time"].native


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection fails the test: the validation must use the file alone."""

    def refuse(*args, **kwargs):
        raise AssertionError("the long-term validation tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_a_memo_signed_offline_is_b_b_dated_by_the_signer_s_clock_only(
    loopback, signed_memo, no_network
):
    _, reports = _reports(signed_memo, [_root(loopback)])
    assert [r.level for r in reports] == ["B-B", "B-B"]
    assert all(r.proven_at is None for r in reports)
    assert all(r.indication == "INDETERMINATE" for r in reports)  # no revocation status in the file
    assert "signer's clock only" in reports[0].words()


def test_the_sealed_memo_is_b_lta_proven_at_the_seal_s_timestamp(loopback, sealed_memo, no_network):
    reader, reports = _reports(sealed_memo, [_root(loopback)])
    stamp = _gen_time(reader.embedded_timestamp_signatures[0].signed_data)
    assert [(r.field, r.level, r.indication, r.sub_indication) for r in reports] == [
        ("approver-1", "B-LTA", "TOTAL-PASSED", ""),
        ("approver-2", "B-LTA", "TOTAL-PASSED", ""),
    ]
    assert all(r.proven_at == stamp for r in reports)
    for sig in reader.embedded_regular_signatures:  # proven after it was signed, by the TSA's clock
        assert sig.self_reported_timestamp - timedelta(minutes=5) <= stamp


def test_ten_years_ahead_with_no_network_the_sealed_memo_still_passes(
    loopback, sealed_memo, no_network
):
    reader, _ = _reports(sealed_memo, [])
    tsa = reader.embedded_timestamp_signatures[0].signer_cert
    later = datetime.now(UTC) + TEN_YEARS
    for (
        sig
    ) in reader.embedded_regular_signatures:  # the approvers' certificates have expired by then
        assert sig.signer_cert["tbs_certificate"]["validity"]["not_after"].native < later
    # the organisation trusts its timestamp authority directly, as trusted lists do
    _, reports = _reports(sealed_memo, [_root(loopback), tsa], later)
    assert [(r.indication, r.level) for r in reports] == [("TOTAL-PASSED", "B-LTA")] * 2
    assert all(r.validated_at == later for r in reports)


def test_ten_years_ahead_the_unsealed_memo_does_not_pass(loopback, signed_memo, no_network):
    reader, _ = _reports(signed_memo, [])
    later = datetime.now(UTC) + TEN_YEARS
    _, reports = _reports(signed_memo, [_root(loopback)], later)
    assert all(r.indication != "TOTAL-PASSED" for r in reports)


def test_without_trusting_the_tsa_ten_years_ahead_the_seal_needs_renewing(
    loopback, sealed_memo, no_network
):
    # the TSA's revocation status in the file is a CRL valid 90 days: by then it says nothing
    _, reports = _reports(sealed_memo, [_root(loopback)], datetime.now(UTC) + TEN_YEARS)
    # Which of two words pyHanko gives for "the revocation data is too old" depends on the order
    # it tries the TSA's certificate paths in (a set's order, so it varies from run to run): the
    # CRL found stale directly (TRY_LATER) or the CRL issuer's path failing on its own stale CRL
    # (CERTIFICATE_CHAIN_GENERAL_FAILURE). Either way the seal needs renewing, never PASSED.
    stale = {"TRY_LATER", "CERTIFICATE_CHAIN_GENERAL_FAILURE"}
    assert [r.indication for r in reports] == ["INDETERMINATE"] * 2
    assert all(r.sub_indication in stale for r in reports), [r.sub_indication for r in reports]


def test_a_signature_timestamped_at_signing_is_b_t_then_b_lta_once_sealed(loopback):
    from tests.core.memo_signing.memo_factory import demo_memo

    from clusterbid.core.memo.credentials import load_credentials
    from clusterbid.core.memo.sealing import seal_memo
    from clusterbid.core.memo.signing import sign_memo

    credentials = load_credentials(loopback.p12["ada"], loopback.passphrase)
    one = sign_memo(demo_memo(), "approver-1", credentials, tsa_url=loopback.tsa_url).pdf
    two = sign_memo(
        one,
        "approver-2",
        load_credentials(loopback.p12["grace"], loopback.passphrase),
        tsa_url=loopback.tsa_url,
    ).pdf
    reader, reports = _reports(two, [_root(loopback)])
    token = reader.embedded_regular_signatures[0].signer_info["unsigned_attrs"][0]["values"][0][
        "content"
    ]
    assert reports[0].level == "B-T" and reports[0].proven_at == _gen_time(token)
    sealed = seal_memo(two, loopback.tsa_url).pdf
    reader, _ = _reports(sealed, [])
    tsa = reader.embedded_timestamp_signatures[0].signer_cert
    _, reports = _reports(sealed, [_root(loopback), tsa], datetime.now(UTC) + TEN_YEARS)
    # pyHanko's own ETSI past-signature validation, the signature timestamp proving existence
    assert [(r.level, r.indication) for r in reports] == [("B-LTA", "TOTAL-PASSED")] * 2
    assert reports[0].proven_at == _gen_time(token)


def test_every_check_of_verify_still_holds_on_a_sealed_memo(loopback, sealed_memo):
    result = verify_memo(sealed_memo, [_root(loopback)])
    assert result.problems == () and result.unproven == ()
    assert result.verdict == "VALID" and result.pages_proven
    assert [r.level for r in result.long_term] == ["B-LTA", "B-LTA"]
    assert any("document timestamp of the archive seal" in r.added for r in result.revisions)


def test_a_change_after_the_seal_that_is_no_seal_is_refused(loopback, sealed_memo):
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    writer = IncrementalPdfFileWriter(BytesIO(sealed_memo), strict=False)
    page = writer.root["/Pages"]["/Kids"][0].get_object()
    note = writer.add_object(
        generic.DictionaryObject(
            {
                generic.NameObject("/Type"): generic.NameObject("/Annot"),
                generic.NameObject("/Subtype"): generic.NameObject("/FreeText"),
                generic.NameObject("/Rect"): generic.ArrayObject(
                    [generic.FloatObject(v) for v in (50, 50, 300, 90)]
                ),
                generic.NameObject("/Contents"): generic.TextStringObject("approved amount: $1"),
                generic.NameObject("/DA"): generic.TextStringObject("/Helv 12 Tf 0 g"),
            }
        )
    )
    page.setdefault(generic.NameObject("/Annots"), generic.ArrayObject()).append(note)
    writer.update_container(page)
    out = BytesIO()
    writer.write(out)
    result = verify_memo(out.getvalue(), [_root(loopback)])
    assert result.verdict == "INVALID"
    assert any("FreeText annotation" in p and "added after" in p for p in result.problems)
