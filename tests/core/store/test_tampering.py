"""Out-of-band changes: artefacts swapped, removed or renamed, bid rows edited in SQLite, invalid
UTF-8. Each is found by the audit, and no ordinary edit can write over it and launder it."""

from __future__ import annotations

import io
import sqlite3

import pytest
from builders import make_bid, make_evaluation
from pyhanko.pdf_utils.reader import PdfFileReader

from clusterbid.cli import main
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.inputs import parse_memo_inputs
from clusterbid.core.store import (
    CorruptDocumentError,
    DocumentWriteError,
    EvaluationDocument,
    verify_audit_chain,
)

LOG_A, LOG_B = b"# nccl-tests log A\n" * 50, b"# nccl-tests log B\n" * 50


def _document(path):
    with EvaluationDocument.create(path, make_evaluation(2), user="ann") as doc:
        doc.attach_artefact("a.log", LOG_A, bid_id="bid-0", media_type="text/plain")
        doc.attach_artefact("b.log", LOG_B, bid_id="bid-1", media_type="text/plain")
    assert verify_audit_chain(path).ok
    return path


def _sql(path, statement, *params):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(statement, params)
    conn.close()


@pytest.mark.parametrize(
    ("statement", "params", "expected"),
    [
        (
            "UPDATE artefact SET content = ? WHERE name = 'a.log'",
            (LOG_B,),
            "bytes of artefact 'a.log'",
        ),
        # Swapping bytes and recorded hashes together still disagrees with the hash kept in the chain.
        (
            "UPDATE artefact SET content = ?, sha256 = (SELECT sha256 FROM artefact WHERE name = "
            "'b.log')"
            " WHERE name = 'a.log'",
            (LOG_B,),
            "its sha256 no longer match",
        ),
        (
            "DELETE FROM artefact WHERE name = 'b.log'",
            (),
            "records 2 attached artefacts but the document holds 1",
        ),
        (
            "UPDATE artefact SET name = 'renamed.log' WHERE name = 'b.log'",
            (),
            "its name no longer match",
        ),
        (
            "UPDATE artefact SET bid_id = 'bid-0' WHERE name = 'b.log'",
            (),
            "its bid_id no longer match",
        ),
    ],
)
def test_artefacts_changed_outside_clusterbid_fail_the_audit(tmp_path, statement, params, expected):
    path = _document(tmp_path / "e.clusterbid")
    _sql(path, statement, *params)
    report = verify_audit_chain(path)
    assert not report.ok and expected in report.reason
    assert main(["audit", str(path)]) == 1


def test_a_bid_edited_in_sqlite_cannot_be_laundered_by_the_next_edit(tmp_path):
    path = _document(tmp_path / "e.clusterbid")
    with EvaluationDocument.open(path) as doc:
        tampered_json = (
            doc.evaluation.bids[0].model_dump_json(round_trip=True).replace('"2.00"', '"0.50"')
        )
    assert '"0.50"' in tampered_json
    _sql(path, "UPDATE bid SET bid_json = ? WHERE bid_id = 'bid-0'", tampered_json)
    with EvaluationDocument.open(path) as doc:
        assert not doc.audit_report.ok and "edited outside ClusterBid" in doc.audit_report.reason
        assert "bid 'bid-0' at position 1 differs" in doc.audit_report.reason
        head = doc.head
        with pytest.raises(DocumentWriteError, match="fails its audit"):
            doc.replace_bid("bid-0", make_bid("bid-0", price="0.49", provider="Provider 0"))
        with pytest.raises(DocumentWriteError, match="fails its audit"):
            doc.record_decision("bid-1", "cheapest")
        assert doc.head == head
    assert not verify_audit_chain(path).ok  # still detected: nothing was written over it


def test_a_row_edited_while_the_document_is_open_stops_the_next_write(tmp_path):
    path = _document(tmp_path / "e.clusterbid")
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.ok
        _sql(
            path,
            "UPDATE bid SET bid_json = replace(bid_json, '\"2.01\"', '\"0.10\"') WHERE bid_id = "
            "'bid-1'",
        )
        with pytest.raises(
            DocumentWriteError, match="changed outside ClusterBid since it was opened"
        ):
            doc.replace_bid("bid-1", make_bid("bid-1", price="1.00", provider="Provider 1"))
    report = verify_audit_chain(path)
    assert not report.ok and "edited outside ClusterBid" in report.reason


def test_an_override_of_a_failed_audit_is_recorded_with_its_reason(tmp_path):
    path = _document(tmp_path / "e.clusterbid")
    _sql(path, "DELETE FROM artefact WHERE name = 'b.log'")
    with EvaluationDocument.open(path) as doc:
        row = doc.accept_failed_audit("log b was removed by IT by mistake; a copy is on file")
    assert row.action == "record_audit_override" and "removed by IT" in row.new_json
    assert "attached artefacts" in row.new_json  # the failure it accepted is kept beside the reason


def test_invalid_utf8_in_a_document_is_a_message_not_a_crash(tmp_path, capsys):
    path = _document(tmp_path / "e.clusterbid")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "UPDATE bid SET bid_json = CAST(? AS TEXT) WHERE bid_id = 'bid-0'", (b'{"id": "\xff\xfe"}',)
    )
    assert (
        conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    )  # SQLite itself sees nothing wrong
    conn.close()
    with pytest.raises(CorruptDocumentError, match="cannot be read"):
        EvaluationDocument.open(path)
    assert not verify_audit_chain(path).ok
    assert main(["audit", str(path)]) == 1
    assert main(["score", str(path)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_warns_on_a_tampered_document_and_the_memo_needs_a_recorded_reason(tmp_path, capsys):
    path = tmp_path / "demo.clusterbid"
    assert main(["demo", str(path)]) == 0
    _sql(
        path,
        "UPDATE bid SET bid_json = replace(bid_json, '\"Northwind', '\"Nothwind') WHERE position = "
        "1",
    )
    capsys.readouterr()
    assert main(["score", str(path)]) == 0
    assert "fails its audit" in capsys.readouterr().err
    memo = tmp_path / "memo.pdf"
    assert main(["memo", str(path), "-o", str(memo), "--samples", "0"]) == 2
    assert "--accept-failed-audit" in capsys.readouterr().err and not memo.exists()
    assert (
        main(
            [
                "memo",
                str(path),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "0",
                "--accept-failed-audit",
                "typo fixed by hand; checked against the signed quote",
            ]
        )
        == 0
    )
    rows = verify_audit_chain(path).rows
    assert [r.action for r in rows[-2:]] == ["record_audit_override", "record_memo_exported"]
    assert "typo fixed by hand" in rows[-2].new_json
    inputs = parse_memo_inputs(
        read_attached_inputs(PdfFileReader(io.BytesIO(memo.read_bytes()))).raw
    )
    assert "failed its audit" in inputs["notes"] and "typo fixed by hand" in inputs["notes"]
