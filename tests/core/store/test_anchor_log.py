"""History anchored outside the file (issue 35, item 6): memos, signatures and decisions append
their row to a log the document's holder does not edit, and `audit --against LOG` finds the
roll-back, the rewrite and the row under someone else's name that the file alone cannot show."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest
from builders import make_bid
from tests.core.store.test_audit_anchor import _rewrite_first_row

from clusterbid.cli import main
from clusterbid.core.store import EvaluationDocument
from clusterbid.core.store.audit import default_user


@pytest.fixture
def log(tmp_path, monkeypatch):
    path = tmp_path / "ann-anchors.jsonl"
    monkeypatch.setenv("CLUSTERBID_ANCHOR_LOG", str(path))
    return path


@pytest.fixture
def document(tmp_path, evaluation):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, evaluation, user="ann") as doc:
        doc.add_bid(make_bid("bid-9"))
    return path


def _memo(document, folder, name="m.pdf"):
    out = folder / name
    assert (
        main(
            [
                "memo",
                str(document),
                "-o",
                str(out),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "0",
            ]
        )
        == 0
    )
    return out


def _audit(capsys, document, log) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["audit", str(document), "--against", str(log)])
    return code, capsys.readouterr().out


def test_a_memo_export_is_logged_with_the_document_row_and_the_memo_hash(document, log, tmp_path):
    memo = _memo(document, tmp_path)
    with EvaluationDocument.open(document) as doc:
        rows = doc.audit_rows()
    (line,) = log.read_text(encoding="utf-8").splitlines()
    anchor = json.loads(line)
    assert anchor["document"] == rows[0].hash and anchor["file"] == "e.clusterbid"
    assert (anchor["seq"], anchor["hash"], anchor["action"]) == (
        rows[-1].seq,
        rows[-1].hash,
        "record_memo_exported",
    )
    assert anchor["memo_sha256"] == hashlib.sha256(memo.read_bytes()).hexdigest()


def test_the_honest_document_holds_every_logged_row(document, log, tmp_path, capsys):
    _memo(document, tmp_path)
    code, out = _audit(capsys, document, log)
    assert code == 0 and "every logged row is in the trail as logged" in out
    assert "1 anchored row(s) of this document" in out


def test_a_roll_back_to_an_older_copy_is_found(document, log, tmp_path, capsys):
    older = tmp_path / "older.clusterbid"
    shutil.copy(document, older)  # before the memo: the copy's trail ends at row #2
    _memo(document, tmp_path)
    shutil.copy(older, document)  # the file put back; its own chain still verifies
    assert main(["audit", str(document)]) == 0
    code, out = _audit(capsys, document, log)
    assert code == 1 and "NOT AS LOGGED: row #3 (record memo exported by" in out
    assert "the trail ends at #2: the document was rolled back to an older copy" in out


def test_a_rewrite_from_the_first_row_is_found(document, log, tmp_path, capsys):
    _memo(document, tmp_path)
    _rewrite_first_row(document, "mallory")
    assert main(["audit", str(document)]) == 0  # the file alone cannot show it
    code, out = _audit(capsys, document, log)
    assert (
        code == 1
        and "other document(s) named e.clusterbid whose first row is not this one's" in out
    )


def test_a_decision_under_the_officers_name_that_her_log_lacks_is_found(
    document, log, tmp_path, capsys, monkeypatch
):
    officer = default_user()  # who `clusterbid memo` records; her log now holds her memo
    _memo(document, tmp_path)
    monkeypatch.setenv("CLUSTERBID_ANCHOR_LOG", str(tmp_path / "mallory-anchors.jsonl"))
    with EvaluationDocument.open(document, user=officer) as doc:  # mallory types the officer's name
        row = doc.record_decision("bid-9", "forged award")
    code, out = _audit(capsys, document, log)
    assert code == 1
    assert (
        f"row #{row.seq} records a record decision by {officer}, whose anchor log "
        "ann-anchors.jsonl does "
        "not hold it"
    ) in out


def test_a_log_that_cannot_be_written_does_not_stop_the_memo_and_is_said(
    document, tmp_path, capsys, monkeypatch
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the log's folder should be", encoding="utf-8")
    monkeypatch.setenv("CLUSTERBID_ANCHOR_LOG", str(blocker / "anchors.jsonl"))
    capsys.readouterr()
    memo = _memo(document, tmp_path)
    err = capsys.readouterr().err
    assert (
        memo.exists()
        and "could not be added to the anchor log" in err
        and "the document keeps it" in err
    )


def test_a_damaged_log_is_refused_naming_the_line(document, log, capsys):
    log.write_text('{"document": "x"}\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["audit", str(document), "--against", str(log)]) == 2
    assert f"--against {log} line 1: not an anchor" in capsys.readouterr().err
