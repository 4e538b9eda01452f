"""`seal` against a real PKI on loopback: what it adds, what it leaves alone, and what it says
when a server cannot be reached."""

from __future__ import annotations

from io import BytesIO

import pytest
from asn1crypto import ocsp as asn1_ocsp
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation.dss import DocumentSecurityStore

from clusterbid.cli_signoff import _step_words
from clusterbid.core.memo.next_steps import render
from clusterbid.core.memo.sealing import SealError, seal_memo

pytestmark = pytest.mark.timeout(300)


def _reader(pdf: bytes) -> PdfFileReader:
    return PdfFileReader(BytesIO(pdf), strict=False)


def test_seal_appends_only_and_leaves_every_signed_byte_as_it_was(signed_memo, sealed_memo):
    assert len(sealed_memo) > len(signed_memo)
    assert sealed_memo[: len(signed_memo)] == signed_memo
    reader = _reader(sealed_memo)
    # two signatures, one document timestamp after both, in a later revision
    regular = reader.embedded_regular_signatures
    stamps = reader.embedded_timestamp_signatures
    assert [str(s.field_name) for s in regular] == ["approver-1", "approver-2"]
    assert len(stamps) == 1
    assert stamps[0].signed_revision > max(s.signed_revision for s in regular)


def test_seal_stores_the_revocation_status_of_each_signer_from_the_loopback_ocsp(
    loopback, sealed_memo
):
    reader = _reader(sealed_memo)
    dss = DocumentSecurityStore.read_dss(reader)
    certificates = {c.subject.native["common_name"] for c in dss.load_certs()}
    # the signers, their issuing CA and the timestamp authority: all a validator needs
    assert {
        "Ada Lovelace",
        "Grace Hopper",
        "Test Intermediate CA",
        "Test Time-Stamping Authority",
    } <= certificates
    answered = set()
    for ref in dss.ocsps:
        response = asn1_ocsp.OCSPResponse.load(ref.get_object().data)
        assert response["response_status"].native == "successful"
        for single in response.basic_ocsp_response["tbs_response_data"]["responses"]:
            assert single["cert_status"].name == "good"
            answered.add(single["cert_id"]["serial_number"].native)
    signers = {s.signer_cert.serial_number for s in reader.embedded_regular_signatures}
    assert signers <= answered
    assert len(dss.crls) >= 1  # the intermediate's status, from the root's CRL distribution point


def test_the_document_timestamp_is_the_loopback_tsa_s_answer_over_the_file(loopback, sealed_memo):
    import hashlib

    stamp = _reader(sealed_memo).embedded_timestamp_signatures[0]
    tst = stamp.signed_data["encap_content_info"]["content"].parsed
    imprint = tst["message_imprint"]
    start, length, second, length2 = stamp.byte_range
    covered = sealed_memo[start : start + length] + sealed_memo[second : second + length2]
    # the TSA certified the SHA-256 of the bytes the timestamp covers, computed here
    assert imprint["hashed_message"].native == hashlib.sha256(covered).digest()
    assert stamp.signer_cert.subject.native["common_name"] == "Test Time-Stamping Authority"


def test_reseal_adds_a_new_document_timestamp_after_the_first(loopback, sealed_memo):
    again = seal_memo(sealed_memo, loopback.tsa_url)
    assert again.pdf[: len(sealed_memo)] == sealed_memo
    assert again.earlier_timestamps == 1
    assert len(_reader(again.pdf).embedded_timestamp_signatures) == 2


def test_no_timestamp_server_says_what_is_missing_and_returns_nothing(signed_memo):
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SealError) as raised:
        seal_memo(signed_memo, f"http://127.0.0.1:{port}/tsa")
    message = str(raised.value)
    assert "not sealed, the file is unchanged" in message
    assert f"no RFC 3161 timestamp from http://127.0.0.1:{port}/tsa" in message


def test_an_unsigned_memo_is_refused_before_any_request():
    from tests.core.memo_signing.memo_factory import demo_memo

    with pytest.raises(SealError, match="no signatures yet"):
        seal_memo(demo_memo(), "http://127.0.0.1:9/never-asked")


def test_a_tsa_address_that_is_no_url_is_refused(signed_memo):
    """The refusal names the address given as a step each door words (next_steps.py)."""
    with pytest.raises(SealError) as refused:
        seal_memo(signed_memo, "tsa.example")
    assert render(str(refused.value), _step_words()) == (
        "--tsa 'tsa.example': give the timestamp authority's http:// or https:// address"
    )


def test_a_memo_an_approver_has_not_signed_is_not_sealed(loopback, signed_memo):
    from tests.core.memo_signing.memo_factory import demo_memo

    from clusterbid.core.memo.credentials import load_credentials
    from clusterbid.core.memo.signing import sign_memo

    half = sign_memo(
        demo_memo(), "approver-1", load_credentials(loopback.p12["ada"], loopback.passphrase)
    ).pdf
    with pytest.raises(
        SealError, match="approver-2 not signed yet: seal the memo once every approver"
    ):
        seal_memo(half, loopback.tsa_url)
