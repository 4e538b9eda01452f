"""EvaluationDocument: create, reopen, every edit committed with its audit row, copies, refusals."""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

import pytest
from builders import make_bid, make_evaluation, make_policy, make_workload

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import (
    APPLICATION_ID,
    CURRENT_VERSION,
    DocumentError,
    DocumentWriteError,
    EditRejectedError,
    EvaluationDocument,
    default_user,
)


def raw(path, sql, params=()):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def test_create_writes_identity_version_and_the_evaluation(doc_path, evaluation):
    EvaluationDocument.create(doc_path, evaluation, user="alice").close()
    assert raw(doc_path, "PRAGMA application_id") == [(0x43424944,)] == [(APPLICATION_ID,)]
    assert raw(doc_path, "PRAGMA user_version") == [(CURRENT_VERSION,)]
    assert raw(doc_path, "PRAGMA journal_mode") == [("delete",)]
    assert [row[0] for row in raw(doc_path, "SELECT bid_id FROM bid ORDER BY position")] == [
        "bid-0",
        "bid-1",
    ]
    with EvaluationDocument.open(doc_path) as reopened:
        assert reopened.evaluation == evaluation


def test_create_refuses_an_existing_file_and_a_wrong_extension(doc_path, evaluation, tmp_path):
    doc_path.write_bytes(b"keep me")
    with pytest.raises(DocumentError, match="already exists"):
        EvaluationDocument.create(doc_path, evaluation)
    assert doc_path.read_bytes() == b"keep me"
    with pytest.raises(DocumentError, match="must end in .clusterbid"):
        EvaluationDocument.create(tmp_path / "round.sqlite", evaluation)
    assert not (tmp_path / "round.sqlite").exists()


def test_every_edit_is_on_disk_as_soon_as_it_returns(document, doc_path):
    document.add_bid(make_bid("late-1", price="2.10"))
    document.replace_bid("bid-0", make_bid("bid-0", price="1.95", provider="Provider 0"))
    document.remove_bid("bid-1")
    document.set_policy(make_policy(55))
    document.set_workload(make_workload("Dense 70B, bigger job", job_gpus=2048))
    # A second, independent connection sees every edit without any save step.
    with EvaluationDocument.open(doc_path) as other:
        bids = other.evaluation.bids
        assert [bid.id for bid in bids] == ["bid-0", "late-1"]
        assert bids[0].terms.price_per_gpu_hour == Decimal("1.95")
        assert other.evaluation.policy.weights.cost_to_finish == 55
        assert other.evaluation.workload.job_gpus == 2048
        assert other.evaluation == document.evaluation


def test_each_edit_records_who_what_old_and_new(document):
    original = document.evaluation.bids[0]
    corrected = make_bid("bid-0", price="1.95", provider="Provider 0")
    document.replace_bid("bid-0", corrected)
    document.remove_bid("bid-1")
    rows = document.audit_rows()
    assert [(r.seq, r.action, r.target, r.who) for r in rows] == [
        (1, "create", None, "alice"),
        (2, "replace_bid", "bid-0", "alice"),
        (3, "remove_bid", "bid-1", "alice"),
    ]
    # The original value and the correction stay as separate records.
    assert json.loads(rows[1].old_json)["terms"]["price_per_gpu_hour"] == str(
        original.terms.price_per_gpu_hour
    )
    assert json.loads(rows[1].new_json)["terms"]["price_per_gpu_hour"] == "1.95"
    assert json.loads(rows[2].old_json)["id"] == "bid-1" and rows[2].new_json is None
    assert Evaluation.model_validate_json(rows[0].new_json) == make_evaluation(2)
    assert all(r.at.endswith("+00:00") for r in rows)


def test_records_of_decision_memo_and_signature(document):
    digest = "ab" * 32
    document.record_decision("bid-1", "lowest cost to finish with SOC2")
    document.record_memo_exported("memo-2026-03.pdf", digest)
    document.record_signature("Bea Officer", digest, role="Head of procurement")
    rows = document.audit_rows()[1:]
    assert [r.action for r in rows] == [
        "record_decision",
        "record_memo_exported",
        "record_signature",
    ]
    assert json.loads(rows[0].new_json) == {
        "bid_id": "bid-1",
        "rationale": "lowest cost to finish with SOC2",
    }
    assert json.loads(rows[1].new_json) == {"file_name": "memo-2026-03.pdf", "sha256": digest}
    assert json.loads(rows[2].new_json)["signer"] == "Bea Officer"
    with pytest.raises(EditRejectedError, match="no bid 'nope'"):
        document.record_decision("nope", "x")
    with pytest.raises(EditRejectedError, match="SHA-256"):
        document.record_memo_exported("memo.pdf", "not-a-hash")
    assert len(document.audit_rows()) == 4


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.add_bid(make_bid("bid-0")), "bid id 'bid-0' is used twice"),
        (lambda d: d.add_bid(make_bid("gbp-1", currency="GBP")), "exchange_rates.GBP"),
        (lambda d: d.replace_bid("bid-0", make_bid("bid-1")), "used twice"),
        (lambda d: d.remove_bid("ghost"), "no bid 'ghost'"),
        (lambda d: d.add_bid({"id": "half"}), "the new bid was refused"),
    ],
)
def test_invalid_edits_are_refused_and_change_nothing(document, doc_path, edit, message):
    before = document.evaluation
    with pytest.raises(EditRejectedError, match=message) as caught:
        edit(document)
    assert isinstance(caught.value, InputError) and str(caught.value).startswith(
        "round.clusterbid: "
    )
    assert document.evaluation == before
    with EvaluationDocument.open(doc_path) as reopened:
        assert reopened.evaluation == before and len(reopened.audit_rows()) == 1


def test_policy_that_drops_a_needed_exchange_rate_is_refused(document):
    document.add_bid(make_bid("eur-1", currency="EUR"))
    with pytest.raises(EditRejectedError, match="exchange_rates.EUR"):
        document.set_policy(make_policy(70).model_validate({"exchange_rates": {}}))
    assert document.evaluation.policy.exchange_rates == {"EUR": Decimal("1.08")}


def test_audit_trigger_refuses_update_and_delete_inside_sqlite(document, doc_path):
    conn = sqlite3.connect(doc_path)
    for sql in ("UPDATE audit SET who = 'mallory'", "DELETE FROM audit"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(sql)
    conn.close()
    assert [r.who for r in document.audit_rows()] == ["alice"]


def test_edit_made_through_another_window_is_not_overwritten(document, doc_path):
    with EvaluationDocument.open(doc_path, user="bob") as other:
        other.add_bid(make_bid("from-bob"))
    with pytest.raises(DocumentWriteError, match="changed by another ClusterBid window"):
        document.add_bid(make_bid("from-alice"))
    with EvaluationDocument.open(doc_path) as reopened:
        assert [b.id for b in reopened.evaluation.bids] == ["bid-0", "bid-1", "from-bob"]
        assert [r.who for r in reopened.audit_rows()] == ["alice", "bob"]


def test_write_failure_gives_a_clear_message_and_keeps_the_document(
    document, doc_path, monkeypatch
):
    before = document.evaluation

    def full_disk(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr("clusterbid.core.store.audit.append", full_disk)
    with pytest.raises(
        DocumentWriteError,
        match=r"could not save add bid \(database or disk is full\); the document",
    ):
        document.add_bid(make_bid("late-1"))
    monkeypatch.undo()
    assert document.evaluation == before
    document.add_bid(make_bid("late-2"))  # the connection is usable again after the rollback
    with EvaluationDocument.open(doc_path) as reopened:
        assert [b.id for b in reopened.evaluation.bids] == ["bid-0", "bid-1", "late-2"]


def test_save_copy_uses_a_consistent_snapshot_and_leaves_no_temporary_file(document, tmp_path):
    document.add_bid(make_bid("late-1"))
    info = document.attach_artefact("log.txt", b"busbw 389.2\n", bid_id="late-1")
    (tmp_path / "copies").mkdir()
    copy = document.save_copy(tmp_path / "copies" / "round copy.clusterbid")
    assert sorted(p.name for p in (tmp_path / "copies").iterdir()) == ["round copy.clusterbid"]
    with EvaluationDocument.open(copy) as copied:
        assert copied.evaluation == document.evaluation
        assert copied.audit_rows() == document.audit_rows()
        assert copied.artefact_bytes(info.id) == b"busbw 389.2\n"
    with pytest.raises(DocumentError, match="is the open document itself"):
        document.save_copy(document.path)
    with pytest.raises(DocumentWriteError, match="nothing was written"):
        document.save_copy(tmp_path / "no such folder" / "x.clusterbid")


def test_default_user_falls_back_when_the_os_has_no_name(monkeypatch, doc_path, evaluation):
    def no_user():
        raise OSError("no login name")

    monkeypatch.setattr("getpass.getuser", no_user)
    assert default_user() == "unknown user"
    monkeypatch.setattr("getpass.getuser", lambda: "officer7")
    with EvaluationDocument.create(doc_path, evaluation) as doc:
        assert doc.audit_rows()[0].who == "officer7"
