"""Issue 32 item 5: a checkpoint row records the SHA-256 of each stored text as it was spelled, so
opening compares a bid the rows since left alone by that digest instead of parsing the stored
and the kept JSON (counted, never timed); any stored text spelled otherwise is still parsed and
compared, so a row changed outside ClusterBid is refused as before."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest
from builders import make_bid, make_evaluation

from clusterbid.core.store import EvaluationDocument, audit, checkpoint
from clusterbid.core.store import verify as verify_module

EVERY = 5


@pytest.fixture(autouse=True)
def short_interval(monkeypatch):
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVERY", EVERY)


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Each JSON text the open's state comparison parses."""
    seen: list[str] = []
    original = verify_module.json.loads

    class CountingJson:
        @staticmethod
        def loads(text, *args, **kwargs):
            seen.append(text)
            return original(text, *args, **kwargs)

    monkeypatch.setattr(verify_module, "json", CountingJson)
    return seen


def _document(path, corrections: int):
    """Three bids; corrections to bid-0 and bid-1 only, so bid-2 is never edited."""
    with EvaluationDocument.create(path, make_evaluation(3), user="ann") as doc:
        for k in range(corrections):
            doc.replace_bid(f"bid-{k % 2}", make_bid(f"bid-{k % 2}", price=f"{3 + k / 100:.2f}"))
    return path


def _last_checkpoint(conn) -> audit.AuditRow:
    found = conn.execute(
        "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit "
        "WHERE action = ? ORDER BY seq DESC LIMIT 1",
        (audit.CHECKPOINT,),
    ).fetchone()
    return audit.AuditRow(*found)


def test_the_checkpoint_row_records_each_stored_text_as_spelled(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 4)  # rows 1-5, checkpoint #6 is the last row
    conn = sqlite3.connect(path)
    stored = dict(conn.execute("SELECT bid_id, bid_json FROM bid"))
    header = conn.execute("SELECT header_json FROM evaluation").fetchone()[0]
    record = json.loads(_last_checkpoint(conn).new_json)["stored_spelling_sha256"]
    conn.close()
    assert record["header"] == hashlib.sha256(header.encode("utf-8")).hexdigest()
    assert record["bids"] == {
        bid_id: hashlib.sha256(text.encode("utf-8")).hexdigest() for bid_id, text in stored.items()
    }


def test_open_right_after_a_checkpoint_parses_no_stored_text(tmp_path, parses):
    path = _document(tmp_path / "e.clusterbid", 4)
    parses.clear()
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.ok and doc.audit_report.checked_from == 6
    # The checkpoint row's own record is read (once to find the state digest's row, once for the
    # spellings); no header or bid text is parsed.
    assert all("stored_spelling_sha256" in text for text in parses), parses


def test_open_parses_no_bid_the_rows_since_left_alone(tmp_path, parses, monkeypatch):
    path = _document(tmp_path / "e.clusterbid", 6)  # checkpoint #6, then rows 7-8 edit bid-0, 1
    parses.clear()
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.ok and doc.audit_report.replayed == 2
    # bid-0 and bid-1 replay to the very text their edit rows stored; bid-2 and the header are
    # still as the checkpoint recorded their spelling.
    assert not [text for text in parses if '"quote"' in text or '"workload"' in text]
    # Without the record (a checkpoint written before it existed) they are parsed, as before.
    monkeypatch.setattr(checkpoint, "recorded_spellings", lambda row: None)
    parses.clear()
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.ok
    parsed = [json.loads(text) for text in parses]
    assert [bid["id"] for bid in parsed if "quote" in bid] == ["bid-2", "bid-2"]
    assert sum("workload" in part for part in parsed) == 2


def test_a_bid_changed_outside_clusterbid_after_the_checkpoint_is_still_refused(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 4)
    conn = sqlite3.connect(path, isolation_level=None)
    text = conn.execute("SELECT bid_json FROM bid WHERE bid_id = 'bid-2'").fetchone()[0]
    bid = json.loads(text)
    bid["terms"]["price_per_gpu_hour"] = "0.10"
    conn.execute("UPDATE bid SET bid_json = ? WHERE bid_id = 'bid-2'", (json.dumps(bid),))
    conn.close()
    with EvaluationDocument.open(path) as doc:  # opens, as any tampered document does, flagged
        assert not doc.audit_report.ok
        assert "edited outside ClusterBid" in doc.audit_report.reason
        assert "bid 'bid-2'" in doc.audit_report.reason


def test_a_bid_spelled_otherwise_but_equal_in_value_still_opens(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 4)
    conn = sqlite3.connect(path, isolation_level=None)
    text = conn.execute("SELECT bid_json FROM bid WHERE bid_id = 'bid-2'").fetchone()[0]
    respelled = json.dumps(json.loads(text), indent=1)  # the same value, another digest
    conn.execute("UPDATE bid SET bid_json = ? WHERE bid_id = 'bid-2'", (respelled,))
    conn.close()
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.ok, doc.audit_report.reason
