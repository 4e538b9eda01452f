"""Checkpoints: opening replays only the rows since the last one (counted, never timed), the full
audit still replays every row and catches a forged checkpoint, and a checkpoint state that does
not hash to what its row recorded is never trusted."""

from __future__ import annotations

import json
import sqlite3

import pytest
from builders import make_bid, make_evaluation

from clusterbid.core.store import EvaluationDocument, audit, checkpoint, verify_audit_chain

EVERY = 5  # a short interval, so a few edits make several checkpoints


@pytest.fixture(autouse=True)
def short_interval(monkeypatch):
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVERY", EVERY)


def _document(path, corrections: int):
    with EvaluationDocument.create(path, make_evaluation(3), user="ann") as doc:
        for k in range(corrections):
            doc.replace_bid(f"bid-{k % 3}", make_bid(f"bid-{k % 3}", price=f"{3 + k / 100:.2f}"))
    return path


def _lower_price(bid_text: str) -> str:
    bid = json.loads(bid_text)
    bid["terms"]["price_per_gpu_hour"] = "0.10"
    return checkpoint.canonical(json.dumps(bid))


GUARD = (
    "CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit"
    " BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END"
)


def _checkpoint_seqs(path) -> list[int]:
    return [row.seq for row in verify_audit_chain(path).rows if row.action == audit.CHECKPOINT]


def test_a_checkpoint_row_follows_every_five_rows(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 12)
    # Row 1 creates, rows 2-5 correct: at head 5, five rows since none -> checkpoint #6. Rows 7-11
    # correct: head 11, five since #6 -> checkpoint #12. Rows 13-15 hold the last three (4 + 5 + 3 = 12).
    assert _checkpoint_seqs(path) == [6, 12]
    assert verify_audit_chain(path).rows[-1].seq == 15


@pytest.mark.parametrize("corrections", [12, 40])
def test_open_replays_only_the_rows_since_the_last_checkpoint(tmp_path, corrections):
    path = _document(tmp_path / "e.clusterbid", corrections)
    full = verify_audit_chain(path)
    last = _checkpoint_seqs(path)[-1]
    with EvaluationDocument.open(path) as doc:
        report = doc.audit_report
        assert report.ok and report.checked_from == last
        # The rows after the checkpoint, however long the history: at most EVERY - 1 of them.
        assert report.replayed == full.rows[-1].seq - last <= EVERY - 1
    assert full.ok and full.checked_from == 1 and full.replayed == len(full.rows)


def test_a_kept_state_that_does_not_match_its_row_is_not_trusted(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 12)
    conn = sqlite3.connect(path, isolation_level=None)
    bids = json.loads(conn.execute("SELECT bids_json FROM checkpoint").fetchone()[0])
    bids[0] = _lower_price(bids[0])
    conn.execute("UPDATE checkpoint SET bids_json = ?", (json.dumps(bids),))
    conn.close()
    with EvaluationDocument.open(path) as doc:  # replays from the first row instead, and passes
        assert doc.audit_report.ok and doc.audit_report.checked_from == 1
        assert doc.audit_report.replayed == 15


def test_a_checkpoint_row_changed_in_place_breaks_the_chain_at_open(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 12)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER audit_append_only_update")
    conn.execute(
        "UPDATE audit SET new_json = replace(new_json, '\"bids\": 3', '\"bids\": 4') WHERE seq = 12"
    )
    conn.execute(GUARD)
    conn.close()
    with EvaluationDocument.open(path, user="ann") as doc:
        assert not doc.audit_report.ok and doc.audit_report.first_broken == 12
        assert "row #12 does not match its hash" in doc.audit_report.reason


def _rehash_from(conn, seq: int) -> None:
    """What a forger with the file does: recompute every hash from `seq` on and the head."""
    rows = [
        audit.AuditRow(*r)
        for r in conn.execute(
            "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit ORDER BY seq"
        )
    ]
    previous = rows[seq - 2].hash
    for row in rows[seq - 1 :]:
        new_hash = audit.row_hash(previous, row.content())
        conn.execute("UPDATE audit SET hash = ? WHERE seq = ?", (new_hash, row.seq))
        previous = new_hash
    conn.execute(
        "UPDATE meta SET value = ? WHERE key = ?", (f"{rows[-1].seq} {previous}", audit.HEAD_KEY)
    )


def test_a_forged_checkpoint_with_a_recomputed_chain_is_caught_by_the_full_audit(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 12)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER audit_append_only_update")
    # The forger lowers bid-0's price in the kept state and the checkpoint row's digest, then
    # recomputes every later hash and the head, so the file is consistent from the checkpoint on.
    header, bids, ids = conn.execute(
        "SELECT header_json, bids_json, ids_json FROM checkpoint"
    ).fetchone()
    bids = json.loads(bids)
    bids[0] = _lower_price(bids[0])
    digest = checkpoint.state_sha256(header, bids, json.loads(ids), already_canonical=True)
    conn.execute("UPDATE checkpoint SET bids_json = ?", (json.dumps(bids),))
    conn.execute(
        "UPDATE audit SET new_json = ? WHERE seq = 12",
        (json.dumps({"bids": 3, "state_sha256": digest}),),
    )
    _rehash_from(conn, 12)
    conn.execute(GUARD)
    conn.close()
    # Open trusts a checkpoint exactly as far as any row whose hashes a forger recomputed
    # (without a checkpoint the forger would rewrite an earlier row the same way)...
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.ok and doc.audit_report.checked_from == 12
    # ...and the full audit replays from the first row and finds the checkpoint false.
    report = verify_audit_chain(path)
    assert not report.ok
    assert "row #12 is a checkpoint of a state the rows before it do not replay to" in report.reason


def test_no_checkpoint_is_written_over_a_failed_audit(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 2)  # rows 1-3
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "UPDATE bid SET bid_json = replace(bid_json, '\"3.00\"', '\"0.10\"') WHERE bid_id = 'bid-0'"
    )
    conn.close()
    with EvaluationDocument.open(path, user="ann") as doc:
        assert not doc.audit_report.ok
        for n in range(
            3
        ):  # records still allowed after a failed audit: rows 4-6, past the interval
            doc.accept_failed_audit(f"reason {n}")
    assert _checkpoint_seqs(path) == []


def test_an_older_document_without_checkpoints_opens_and_gains_one_at_its_next_commit(tmp_path):
    from clusterbid.core.store import schema, snapshot

    path = tmp_path / "old.clusterbid"
    evaluation = make_evaluation(3)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    schema.build_schema(conn, 3)  # the format before checkpoints
    snapshot.write_evaluation(conn, evaluation)
    head = (0, audit.GENESIS_HASH)
    row = audit.append(
        conn,
        head,
        who="old-app",
        action=audit.CREATE,
        target=None,
        old_json=None,
        new_json=snapshot.to_json(evaluation),
    )
    for k in range(8):  # rows 2-9: more than one interval of history, and no checkpoint
        bid_json = snapshot.to_json(make_bid("bid-1", price=f"{4 + k / 100:.2f}"))
        conn.execute("UPDATE bid SET bid_json = ? WHERE bid_id = 'bid-1'", (bid_json,))
        row = audit.append(
            conn,
            (row.seq, row.hash),
            who="old-app",
            action=audit.REPLACE_BID,
            target="bid-1",
            old_json=None,
            new_json=bid_json,
        )
    conn.execute("COMMIT")
    conn.close()
    with EvaluationDocument.open(path, user="ann") as doc:  # upgraded, replayed from the first row
        assert (
            doc.audit_report.ok
            and doc.audit_report.checked_from == 1
            and doc.audit_report.replayed == 9
        )
        doc.replace_bid(
            "bid-2", make_bid("bid-2", price="1.00")
        )  # row 10; nine rows since none -> #11
    assert _checkpoint_seqs(path) == [11]
    with EvaluationDocument.open(path) as doc:
        assert doc.audit_report.checked_from == 11 and doc.audit_report.replayed == 0


def test_catching_up_past_a_checkpoint_returns_every_new_row(tmp_path):
    path = _document(tmp_path / "e.clusterbid", 1)  # rows 1-2
    with EvaluationDocument.open(path, user="ann") as watching:
        with EvaluationDocument.open(path, user="bob") as other:
            for k in range(6):  # rows 3-5, checkpoint #6 (five rows since none), rows 7-9
                other.replace_bid("bid-1", make_bid("bid-1", price=f"{5 + k / 100:.2f}"))
        new = watching.catch_up()
        assert [row.seq for row in new] == [3, 4, 5, 6, 7, 8, 9]
        assert new[3].action == audit.CHECKPOINT
        assert watching.audit_report.ok and watching.audit_report.checked_from == 6
        assert (
            watching.evaluation.bids[1].terms.price_per_gpu_hour
            == make_bid("bid-1", price="5.05").terms.price_per_gpu_hour
        )
