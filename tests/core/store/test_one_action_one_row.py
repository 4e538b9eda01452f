"""One user action is one transaction and one audit row, however many parts it touches."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from builders import make_bid, make_evaluation, make_policy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusterbid.core.store import (
    EditRejectedError,
    EvaluationDocument,
    format_audit,
    replay_audit,
    verify_audit_chain,
)


def _renamed(evaluation, old_id: str, new_id: str, price: str):
    bids = tuple(
        make_bid(new_id, price=price, provider=b.quote.provider) if b.id == old_id else b
        for b in evaluation.bids
    )
    return evaluation.model_copy(update={"bids": bids})


def test_a_wizard_edit_that_renames_a_bid_is_one_row_and_keeps_its_place(tmp_path):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(3), user="ann") as doc:
        target = _renamed(doc.evaluation, "bid-1", "bid-1-rev", "1.75")
        doc.apply(target, "Edit bid bid-1-rev")
        rows = doc.audit_rows()
    assert [r.action for r in rows] == ["create", "edit"]  # not remove_bid + add_bid
    steps = json.loads(rows[-1].new_json)["steps"]
    assert [(s["action"], s["target"]) for s in steps] == [
        ("remove_bid", "bid-1"),
        ("add_bid", "bid-1-rev"),
        ("reorder", None),
    ]
    with EvaluationDocument.open(path) as reopened:
        assert [b.id for b in reopened.evaluation.bids] == ["bid-0", "bid-1-rev", "bid-2"]
        assert reopened.evaluation == target
        assert replay_audit(reopened.audit_rows()) == target
    assert verify_audit_chain(path).ok


def test_import_undo_and_redo_are_one_row_each(tmp_path):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(2), user="ann") as doc:
        before = doc.evaluation
        doc.add_bids([make_bid(f"sheet-{i}") for i in range(5)], label="Import bids.xlsx")
        after = doc.evaluation
        doc.apply(before, "Undo Import bids.xlsx")
        assert doc.evaluation == before
        doc.apply(after, "Redo Import bids.xlsx")
        rows = doc.audit_rows()
    assert [r.action for r in rows] == ["create", "edit", "edit", "edit"]
    labels = [json.loads(r.new_json)["label"] for r in rows[1:]]
    assert labels == ["Import bids.xlsx", "Undo Import bids.xlsx", "Redo Import bids.xlsx"]
    assert len(json.loads(rows[2].new_json)["steps"]) == 5  # five removals, one row
    report = verify_audit_chain(path)
    assert report.ok and "5 parts in one change" in format_audit(report)


def test_undoing_a_delete_puts_the_bid_back_in_its_place(tmp_path):
    with EvaluationDocument.create(tmp_path / "e.clusterbid", make_evaluation(4)) as doc:
        before = doc.evaluation
        doc.remove_bid("bid-1")
        doc.apply(before, "Undo Delete bid bid-1")
        assert [b.id for b in doc.evaluation.bids] == ["bid-0", "bid-1", "bid-2", "bid-3"]
        assert replay_audit(doc.audit_rows()) == before


def test_a_change_of_several_parts_is_refused_whole(tmp_path):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(2)) as doc:
        before, head = doc.evaluation, doc.head
        # A valid policy change plus a bid in a currency with no exchange rate: nothing is applied.
        target = before.model_copy(
            update={
                "policy": make_policy(0.5),
                "bids": (*before.bids, make_bid("x", currency="GBP")),
            }
        )
        with pytest.raises(EditRejectedError, match="GBP"):
            doc.apply(target, "Paste")
        assert doc.evaluation == before and doc.head == head
    with EvaluationDocument.open(path) as reopened:
        assert reopened.evaluation == before and len(reopened.audit_rows()) == 1


def test_a_single_part_change_keeps_its_plain_row(tmp_path):
    with EvaluationDocument.create(tmp_path / "e.clusterbid", make_evaluation(2)) as doc:
        doc.apply(doc.evaluation.model_copy(update={"policy": make_policy(0.5)}), "Change weights")
        assert doc.audit_rows()[-1].action == "set_policy"


def test_a_new_title_is_one_row_and_replays(tmp_path):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(2)) as doc:
        target = doc.evaluation.model_copy(update={"title": "Q4 training cluster"})
        doc.apply(target, "Rename the evaluation")
        assert doc.audit_rows()[-1].action == "edit"
    with EvaluationDocument.open(path) as reopened:
        assert reopened.evaluation.title == "Q4 training cluster" and reopened.audit_report.ok


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_sequence_of_user_actions_is_one_row_each_and_replays(data):
    with (
        tempfile.TemporaryDirectory() as folder,
        EvaluationDocument.create(Path(folder) / "p.clusterbid", make_evaluation(3)) as doc,
    ):
        actions = data.draw(st.integers(1, 6), label="actions")
        for step in range(actions):
            bids = list(doc.evaluation.bids)
            keep = data.draw(
                st.lists(st.booleans(), min_size=len(bids), max_size=len(bids)), label="keep"
            )
            kept = [b for b, k in zip(bids, keep) if k]
            if kept and data.draw(st.booleans(), label="rename"):
                kept[0] = make_bid(f"{kept[0].id[:40]}-r{step}", price="1.23", provider="Renamed")
            added = [
                make_bid(f"n{step}-{i}") for i in range(data.draw(st.integers(0, 3), label="added"))
            ]
            order = data.draw(st.permutations(kept + added), label="order")
            policy = make_policy(data.draw(st.sampled_from([0.3, 0.5, 0.7]), label="cost weight"))
            target = doc.evaluation.model_copy(update={"bids": tuple(order), "policy": policy})
            rows_before = len(doc.audit_rows())
            changed = target != doc.evaluation
            doc.apply(target, f"action {step}")
            assert doc.evaluation == target
            assert (
                len(doc.audit_rows()) == rows_before + changed
            )  # one row per action, none for no change
        assert replay_audit(doc.audit_rows()) == doc.evaluation
        assert verify_audit_chain(doc.path).ok
