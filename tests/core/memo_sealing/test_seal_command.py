"""`clusterbid seal` end to end: the file sealed in place, the words printed, the file left byte
for byte as it was when the timestamp authority cannot be reached; and poppler's pdfsig reading
the sealed memo."""

from __future__ import annotations

import shutil
import socket
import subprocess

import pytest

from clusterbid.cli import main

pytestmark = pytest.mark.timeout(300)


def _dead_url() -> str:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/tsa"


def test_seal_writes_the_memo_in_place_and_says_what_it_added(
    loopback, signed_memo, tmp_path, capsys
):
    memo = tmp_path / "memo.pdf"
    memo.write_bytes(signed_memo)
    assert main(["seal", str(memo), "--tsa", loopback.tsa_url]) == 0
    out = capsys.readouterr().out
    assert "validation data for 2 signature(s)" in out
    assert "Test Time-Stamping Authority" in out and "Seal it again before" in out
    sealed = memo.read_bytes()
    assert sealed.startswith(signed_memo) and len(sealed) > len(signed_memo)


def test_offline_seal_exits_2_names_what_is_missing_and_leaves_the_file(
    signed_memo, tmp_path, capsys
):
    memo = tmp_path / "memo.pdf"
    memo.write_bytes(signed_memo)
    url = _dead_url()
    assert main(["seal", str(memo), "--tsa", url]) == 2
    err = capsys.readouterr().err
    assert f"no RFC 3161 timestamp from {url}" in err and "the file is unchanged" in err
    assert "Traceback" not in err
    assert memo.read_bytes() == signed_memo
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memo.pdf"]  # no temporary file left


def test_seal_without_a_timestamp_authority_says_how_to_give_one(
    signed_memo, tmp_path, capsys, monkeypatch
):
    monkeypatch.delenv("CLUSTERBID_TSA", raising=False)
    memo = tmp_path / "memo.pdf"
    memo.write_bytes(signed_memo)
    assert main(["seal", str(memo)]) == 2
    assert "give --tsa URL" in capsys.readouterr().err
    assert memo.read_bytes() == signed_memo


@pytest.mark.skipif(shutil.which("pdfsig") is None, reason="poppler's pdfsig is not installed")
def test_pdfsig_reads_both_signatures_valid_and_the_seal_s_timestamp(sealed_memo, tmp_path):
    memo = tmp_path / "sealed.pdf"
    memo.write_bytes(sealed_memo)
    report = subprocess.run(
        ["pdfsig", str(memo)], capture_output=True, text=True, timeout=60
    ).stdout
    blocks = report.split("Signature #")[1:]
    assert len(blocks) == 3  # two approvers and the seal's document timestamp
    for block, name in zip(blocks, ("approver-1", "approver-2")):
        assert f"Signature Field Name: {name}" in block
        assert "Signature Validation: Signature is Valid." in block
    assert "Test Time-Stamping Authority" in blocks[2]
