"""`clusterbid verify --at DATE`: the memo validated as at another date from the file alone.

Ten years ahead a sealed memo passes (its document timestamp proves the signatures existed while
the approvers' certificates were valid) and a memo only signed does not; a date before the
signatures, or no date at all, is refused in words (exit 2)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from io import BytesIO

import pytest
from asn1crypto import pem
from pyhanko.pdf_utils.reader import PdfFileReader

from clusterbid.cli import main
from clusterbid.core.errors import InputError
from clusterbid.core.memo.validation_date import parse_validation_date

pytestmark = pytest.mark.timeout(300)
IN_TEN_YEARS = (datetime.now(UTC) + timedelta(days=3653)).date().isoformat()


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("verify --at tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _files(tmp_path, pdf: bytes, loopback):
    memo = tmp_path / "memo.pdf"
    memo.write_bytes(pdf)
    stamps = PdfFileReader(BytesIO(pdf), strict=False).embedded_timestamp_signatures
    tsa = tmp_path / "tsa.pem"
    if stamps:  # the organisation trusts its timestamp authority directly, as trusted lists do
        tsa.write_bytes(pem.armor("CERTIFICATE", stamps[0].signer_cert.dump()))
    return memo, tsa


def test_a_date_alone_is_the_end_of_that_day_utc_and_an_offset_is_kept():
    assert parse_validation_date("2036-03-01") == datetime(2036, 3, 1, 23, 59, 59, tzinfo=UTC)
    moment = parse_validation_date("2036-03-01T08:00+02:00")
    assert moment.astimezone(UTC) == datetime(2036, 3, 1, 6, 0, tzinfo=UTC)
    assert parse_validation_date("2036-03-01T08:00") == datetime(2036, 3, 1, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "text", ["2036-13-01", "next year", "2036-02-30", "2036-01-01T25:00", "20360101", ""]
)
def test_a_bad_date_names_the_option_and_the_forms(text):
    with pytest.raises(InputError, match=r"--at .*: not a date or time; give YYYY-MM-DD"):
        parse_validation_date(text)


def test_ten_years_ahead_the_sealed_memo_is_valid_from_the_file_alone(
    loopback, sealed_memo, tmp_path, capsys, no_network
):
    memo, tsa = _files(tmp_path, sealed_memo, loopback)
    code = main(
        ["verify", str(memo), "--trust", str(loopback.root_pem), str(tsa), "--at", IN_TEN_YEARS]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(f"TOTAL-PASSED at {IN_TEN_YEARS} 23:59 UTC") == 2
    assert out.count("level B-LTA") == 2


def test_ten_years_ahead_without_trusting_the_tsa_it_is_not_proven(
    loopback, sealed_memo, tmp_path, capsys, no_network
):
    memo, _ = _files(tmp_path, sealed_memo, loopback)
    code = main(["verify", str(memo), "--trust", str(loopback.root_pem), "--at", IN_TEN_YEARS])
    out = capsys.readouterr().out
    assert code == 3  # INDETERMINATE: the TSA's CRL in the file is valid 90 days (methodology 16)
    assert (
        f"approver 1: at {IN_TEN_YEARS} 23:59 UTC the file alone does not prove its signature"
        in out
    )
    assert "Seal the memo (clusterbid seal)" in out


def test_ten_years_ahead_a_memo_only_signed_is_not_proven(
    loopback, signed_memo, tmp_path, capsys, no_network
):
    memo, _ = _files(tmp_path, signed_memo, loopback)
    code = main(["verify", str(memo), "--trust", str(loopback.root_pem), "--at", IN_TEN_YEARS])
    out = capsys.readouterr().out
    assert code == 3
    assert out.count("the file alone does not prove its signature") == 2 and "level B-B" in out


def test_a_past_moment_after_the_seal_passes(loopback, sealed_memo, tmp_path, capsys, no_network):
    memo, tsa = _files(tmp_path, sealed_memo, loopback)
    stamp = PdfFileReader(BytesIO(sealed_memo), strict=False).embedded_timestamp_signatures[0]
    sealed_at = stamp.signed_data["encap_content_info"]["content"].parsed["gen_time"].native
    moment = (sealed_at + timedelta(seconds=1)).isoformat()
    code = main(["verify", str(memo), "--trust", str(loopback.root_pem), str(tsa), "--at", moment])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(f"TOTAL-PASSED at {sealed_at + timedelta(seconds=1):%Y-%m-%d %H:%M} UTC") == 2


def test_a_date_before_the_memo_was_signed_is_refused(loopback, sealed_memo, tmp_path, capsys):
    memo, _ = _files(tmp_path, sealed_memo, loopback)
    assert main(["verify", str(memo), "--trust", str(loopback.root_pem), "--at", "2001-09-01"]) == 2
    err = capsys.readouterr().err
    assert "--at 2001-09-01 23:59:59 UTC is before approver 1 was signed" in err
    assert "Traceback" not in err


def test_a_bad_date_is_refused_before_the_memo_is_read(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "no-such-memo.pdf"), "--at", "2036-02-30"]) == 2
    err = capsys.readouterr().err
    assert "--at '2036-02-30': not a date or time" in err and "no-such-memo" not in err
