"""The audit trail: replay reproduces the evaluation; any edited, deleted or cut row is detected."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import tempfile
from pathlib import Path

from builders import make_bid, make_evaluation, make_policy, make_workload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument, format_audit, replay_audit, verify_audit_chain
from clusterbid.core.store.schema import MIGRATIONS

GUARD_SQL = [sql for sql in MIGRATIONS[0].statements if sql.startswith("CREATE TRIGGER")]
AUDIT_COLUMNS = ("seq", "at", "who", "action", "target", "old_json", "new_json", "hash")
PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def apply_random_edits(data, doc: EvaluationDocument) -> Evaluation:
    """Draw and apply edits; return the evaluation expected from a plain model of the same edits."""
    title, workload, policy = doc.evaluation.title, doc.evaluation.workload, doc.evaluation.policy
    bids = list(doc.evaluation.bids)
    for step in range(data.draw(st.integers(0, 12), label="edits")):
        ids = [bid.id for bid in bids]
        kinds = ["add", "policy", "workload", "artefact"] + (
            ["replace", "remove", "decision"] if bids else []
        )
        kind = data.draw(st.sampled_from(kinds), label="kind")
        if kind == "add":
            bid = make_bid(f"b{step}", price=f"{data.draw(st.integers(100, 900)) / 100:.2f}")
            doc.add_bid(bid)
            bids.append(bid)
        elif kind == "replace":
            index = data.draw(st.integers(0, len(bids) - 1))
            new_id = data.draw(st.sampled_from([ids[index], f"renamed{step}"]))
            bid = make_bid(
                new_id, price=f"{data.draw(st.integers(100, 900)) / 100:.2f}", provider=f"P{step}"
            )
            doc.replace_bid(ids[index], bid)
            bids[index] = bid
        elif kind == "remove":
            index = data.draw(st.integers(0, len(bids) - 1))
            doc.remove_bid(ids[index])
            del bids[index]
        elif kind == "policy":
            policy = make_policy(data.draw(st.floats(1, 100, allow_nan=False)))
            doc.set_policy(policy)
        elif kind == "workload":
            workload = make_workload(
                f"w{step}", job_gpus=data.draw(st.sampled_from([512, 1024, 2048]))
            )
            doc.set_workload(workload)
        elif kind == "artefact":
            doc.attach_artefact(f"log{step}.txt", data.draw(st.binary(max_size=64)), bid_id=None)
        else:
            doc.record_decision(data.draw(st.sampled_from(ids)), "best value")
    return Evaluation(title=title, workload=workload, bids=tuple(bids), policy=policy)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_replaying_the_trail_from_the_empty_document_gives_the_current_evaluation(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.clusterbid"
        with EvaluationDocument.create(
            path, make_evaluation(data.draw(st.integers(0, 3))), user="p"
        ) as doc:
            expected = apply_random_edits(data, doc)
            assert doc.evaluation == expected
        with EvaluationDocument.open(path) as reopened:
            assert reopened.evaluation == expected
            assert replay_audit(reopened.audit_rows()) == expected
        assert verify_audit_chain(path).ok


def tampered_value(column: str, value, data):
    if column == "seq":
        return value + 1000
    if column == "hash":
        return hashlib.sha256(b"forged").hexdigest()
    if value is None:
        return "{}"
    return data.draw(
        st.sampled_from(
            [value + " ", value[:-1], "x" + value[1:] if value[0] != "x" else "y" + value[1:]]
        )
    )


@PROPERTY_SETTINGS
@given(data=st.data())
def test_editing_any_single_audit_row_is_detected(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.clusterbid"
        with EvaluationDocument.create(path, make_evaluation(1), user="p") as doc:
            apply_random_edits(data, doc)
            count = len(doc.audit_rows())
        seq = data.draw(st.integers(1, count), label="row")
        column = data.draw(st.sampled_from(AUDIT_COLUMNS), label="column")
        conn = sqlite3.connect(path, isolation_level=None)
        value = conn.execute(f"SELECT {column} FROM audit WHERE seq = ?", (seq,)).fetchone()[0]
        new_value = tampered_value(column, value, data)
        conn.execute("DROP TRIGGER audit_append_only_update")
        conn.execute(f"UPDATE audit SET {column} = ? WHERE seq = ?", (new_value, seq))
        if data.draw(st.booleans(), label="restore guard"):  # a careful forger puts the guard back
            conn.execute(GUARD_SQL[0])
        conn.close()
        report = verify_audit_chain(path)
        assert not report.ok
        if column != "seq":
            assert report.first_broken == seq
        elif seq < count:  # the renumbered row moved to the end, so its old place reads as a gap
            assert report.first_broken == seq + 1 and f"row #{seq} is missing" in report.reason
        assert "CHAIN BROKEN" in format_audit(report)


def test_deleting_a_row_in_the_middle_or_at_the_end_is_detected(tmp_path):
    for where in ("middle", "end"):
        path = tmp_path / f"{where}.clusterbid"
        with EvaluationDocument.create(path, make_evaluation(1), user="a") as doc:
            doc.add_bid(make_bid("x1"))
            doc.record_decision("x1", "only one")
            doc.record_signature("Bea", "ab" * 32)
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("DROP TRIGGER audit_append_only_delete")
        conn.execute("DELETE FROM audit WHERE seq = ?", (2 if where == "middle" else 4,))
        conn.execute(GUARD_SQL[1])
        conn.close()
        report = verify_audit_chain(path)
        assert not report.ok
        if where == "middle":
            assert report.first_broken == 3 and "row #2 is missing" in report.reason
        else:
            assert "removed from the end" in report.reason


def test_data_edited_outside_the_app_is_detected_even_with_an_intact_chain(document, doc_path):
    bid = json.loads(document.evaluation.bids[0].model_dump_json(round_trip=True))
    bid["terms"]["price_per_gpu_hour"] = "0.01"
    conn = sqlite3.connect(doc_path)
    conn.execute("UPDATE bid SET bid_json = ? WHERE bid_id = 'bid-0'", (json.dumps(bid),))
    conn.commit()
    conn.close()
    report = verify_audit_chain(doc_path)
    assert not report.ok and "differs from the one the trail replays to" in report.reason


def test_removed_guard_is_reported(document, doc_path):
    conn = sqlite3.connect(doc_path)
    conn.execute("DROP TRIGGER audit_append_only_update")
    conn.close()
    report = verify_audit_chain(doc_path)
    assert (
        not report.ok
        and "append-only guard was removed (audit_append_only_update)" in report.reason
    )


def test_format_audit_shows_each_change_and_the_verdict(document, doc_path):
    document.replace_bid("bid-0", make_bid("bid-0", price="1.75", provider="Provider 0"))
    document.record_decision("bid-0", "cheapest")
    text = format_audit(verify_audit_chain(doc_path))
    lines = text.splitlines()
    assert lines[0] == "Audit trail of round.clusterbid: 3 recorded changes"
    assert any(line.startswith("#1 ") and "alice  create" in line for line in lines)
    assert "         terms.price_per_gpu_hour: 2.00 -> 1.75" in lines
    assert "         rationale: cheapest" in lines
    assert (
        "Chain verified: all 3 rows intact; the trail accounts for the current evaluation." in lines
    )
    head = verify_audit_chain(doc_path).rows[-1]
    assert lines[-1].startswith(
        f"Head: row #3, hash {head.hash}. A memo made now records this head"
    )
