"""The sign operation decides which document's audit trail may take a signature row (issue 33):
only the document the memo was made from, whichever door signs, and nothing after a cancel."""

from __future__ import annotations

import hashlib
import json

import pytest
from tests.core.memo_signing.conftest import ADA
from tests.core.memo_signing.memo_factory import APPROVERS

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.store import EvaluationDocument
from clusterbid.operations import signing
from clusterbid.operations.progress import NEVER_CANCELLED, CancelFlag, Cancelled, no_progress


def _two_documents_and_a_memo_of_the_first(tmp_path):
    """a.clusterbid and b.clusterbid hold the same evaluation; only their histories differ."""
    first, second = tmp_path / "a.clusterbid", tmp_path / "b.clusterbid"
    for path in (first, second):
        EvaluationDocument.create(path, demo_evaluation()).close()
    memo = tmp_path / "a-memo.pdf"
    approvers = [arg for who in APPROVERS for arg in ("--approver", ", ".join(who))]
    assert main(["memo", str(first), "-o", str(memo), *approvers, "--samples", "200"]) == 0
    return first, second, memo


def _rows(path):
    with EvaluationDocument.open(path) as document:
        return document.audit_rows()


def test_a_signature_goes_only_into_the_trail_of_the_memos_own_document(pki, tmp_path):
    first, second, memo = _two_documents_and_a_memo_of_the_first(tmp_path)
    second_rows = _rows(second)
    credentials = lambda: load_credentials(pki.ada_p12, ADA[1])  # noqa: E731

    # Read against B: the operation finds the memo is not B's and names no document to record in.
    read_for_b = signing.read_memo_to_sign(memo, second)
    assert read_for_b.record_into is None
    assert "b.clusterbid is not the evaluation this memo was made from" in read_for_b.refusal
    # Read against A, signed, then offered to B (a window that switched documents): refused.
    read_for_a = signing.read_memo_to_sign(memo, first)
    assert read_for_a.record_into == first and read_for_a.refusal is None
    signed = signing.sign_memo_file(read_for_a, 1, credentials, no_progress, NEVER_CANCELLED)
    with EvaluationDocument.open(second) as document:
        with pytest.raises(
            InputError, match="b.clusterbid is not the evaluation this memo was made from"
        ):
            signing.write_signature_row(document, signed)
        assert "not recorded" in signing.record_signature(document, signed)
    assert _rows(second) == second_rows

    with EvaluationDocument.open(first) as document:
        assert signing.record_signature(document, signed) is None
    row = _rows(first)[-1]
    assert row.action == "record_signature"
    assert json.loads(row.new_json) == {
        "signer": ADA[0],
        "role": APPROVERS[0][1],
        "memo_sha256": hashlib.sha256(memo.read_bytes()).hexdigest(),
    }


def test_sign_from_the_command_line_refuses_a_foreign_document_before_asking_the_passphrase(
    capsys, monkeypatch, pki, tmp_path
):
    _, second, memo = _two_documents_and_a_memo_of_the_first(tmp_path)
    unsigned, rows = memo.read_bytes(), _rows(second)
    monkeypatch.delenv("CLUSTERBID_P12_PASSPHRASE", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)  # a prompt would be refused, by name
    code = main(
        ["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12), "--evaluation", str(second)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "b.clusterbid is not the evaluation this memo was made from" in err
    assert "CLUSTERBID_P12_PASSPHRASE" not in err  # refused before the credentials were read
    assert memo.read_bytes() == unsigned and _rows(second) == rows


def test_a_sign_cancelled_before_the_write_leaves_the_memo_as_it_was(pki, tmp_path):
    first, _, memo = _two_documents_and_a_memo_of_the_first(tmp_path)
    unsigned, rows = memo.read_bytes(), _rows(first)
    token, heard = CancelFlag(), []

    def progress(fraction: float, message: str = "") -> None:
        heard.append(message)
        if message == "writing":  # the officer cancels while the signature is being made
            token.cancel()

    with pytest.raises(Cancelled):
        signing.sign_memo_file(
            signing.read_memo_to_sign(memo, first),
            1,
            lambda: load_credentials(pki.ada_p12, ADA[1]),
            progress,
            token,
        )
    assert heard == ["signing", "writing"]
    assert memo.read_bytes() == unsigned and _rows(first) == rows
