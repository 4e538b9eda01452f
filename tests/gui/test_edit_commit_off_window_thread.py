"""Issue 32: an edit's document commit runs on the commit lane, not the window's thread; the
edits reach the audit trail in the order made, none is lost on close, and a refused one (with
any queued on top of it) rolls the window back. A weight edit moves the table's rows instead of
resetting its model, so the selection stays on its bid. Counts and threads, never timings."""

from __future__ import annotations

import json
import threading

from tests.gui.conftest import wait_for_scoring
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.scoring import score_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import session as session_module
from clusterbid.gui.comparison.scorecard_table_model import PROVIDER, RANK


def _record_commit_threads(monkeypatch) -> list[bool]:
    on_window_thread: list[bool] = []
    real = session_module.apply_snapshot

    def recorded(*args, **kwargs):
        on_window_thread.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(session_module, "apply_snapshot", recorded)
    return on_window_thread


def _weights_with(window, **changed: float) -> dict:
    weights = window.weights.current_weights()
    weights.update(changed)
    return weights


def _policy_rows(document: EvaluationDocument) -> list[dict]:
    """The weights each policy row of the trail set, oldest first."""
    rows = [row for row in document.audit_rows() if row.action == "set_policy"]
    return [json.loads(row.new_json)["weights"] for row in rows]


def test_weight_edits_commit_off_the_window_thread_in_the_order_made(qtbot, monkeypatch, window):
    on_window_thread = _record_commit_threads(monkeypatch)
    made = [12.0, 30.0, 21.0]  # not monotonic: an order mix-up would show
    for number, sla in enumerate(made):
        window.apply_weights(_weights_with(window, sla=sla), ("test", number))
    assert window.session.evaluation.policy.weights.sla == 21.0  # shown at once
    assert window.session.undo_stack.count() == 3
    document = window.session.document  # waits for every edit made to be written
    assert on_window_thread == [False, False, False]
    assert [weights["sla"] for weights in _policy_rows(document)] == made
    assert document.evaluation.policy.weights.sla == 21.0
    wait_for_scoring(qtbot, window)


def test_an_edit_made_just_before_closing_is_in_the_file(qtbot, tmp_path, window):
    path = window.session.file_name
    window.apply_weights(_weights_with(window, support=17.0), ("test", "close"))
    window.close()  # at once, the commit perhaps still on its way
    with EvaluationDocument.open(tmp_path / path) as reopened:
        assert reopened.evaluation.policy.weights.support == 17.0


def test_a_refused_edit_and_the_one_queued_on_it_roll_the_window_back(
    qtbot, tmp_path, window, dialog_log
):
    undo_before = window.session.undo_stack.count()
    # Another ClusterBid window commits to the same file before this one has looked: this
    # window's next commit is refused (its head is stale), and nothing of it is written.
    with EvaluationDocument.open(tmp_path / window.session.file_name) as other:
        other.apply(other.evaluation.model_copy(update={"title": "Renamed elsewhere"}), "Rename")
        rows_after_other = len(other.audit_rows())
    window.follower.poll.stop()  # so that the window does not catch up before it commits
    window.follower.settle.stop()
    window.apply_weights(_weights_with(window, sla=33.0), ("test", "refused"))
    window.apply_weights(_weights_with(window, sla=34.0), ("test", "dropped"))
    assert window.session.evaluation.policy.weights.sla == 34.0  # shown while it is committed
    qtbot.waitUntil(lambda: not window.session.lane.unfinished(), timeout=HANG_GUARD_MS)
    window.session.lane.deliver()
    refusals = [text for kind, title, text in dialog_log.shown if kind == "problem"]
    assert len(refusals) == 1 and "another ClusterBid window" in refusals[0]
    assert window.session.evaluation.policy.weights.sla == 8  # the demo's: rolled back
    assert window.weights.current_weights()["sla"] == 8
    assert window.session.undo_stack.count() == undo_before  # neither edit can be undone
    with EvaluationDocument.open(tmp_path / window.session.file_name) as reread:
        assert len(reread.audit_rows()) == rows_after_other  # nothing written for either
        assert reread.evaluation.policy.weights.sla == 8
    wait_for_scoring(qtbot, window)


def test_a_weight_edit_moves_rows_without_a_model_reset_and_keeps_the_selection(qtbot, window):
    wait_for_scoring(qtbot, window)
    resets, moves = [], []
    for model in (window.model, window.score_matrix.matrix_model):
        model.modelReset.connect(lambda m=model: resets.append(m))
    window.model.layoutChanged.connect(lambda *_args: moves.append(True))
    before = [score.bid.id for score in window.model.scorecard.scores]
    chosen = before[1]  # the second-ranked bid, which the edit moves
    window.comparison.select_bid(chosen)
    weights = {name: 0.0 for name in window.weights.current_weights()}
    weights["datacenter_tier"] = 100.0  # rank on the data-centre tier alone
    window.apply_weights(weights, ("test", "tier"))
    wait_for_scoring(qtbot, window)
    expected = score_evaluation(window.session.evaluation)  # the ranking, scored here again
    after = [score.bid.id for score in window.model.scorecard.scores]
    assert after == [score.bid.id for score in expected.scores] and after != before
    assert resets == [] and moves  # rows moved, nothing reset
    assert window.comparison.selected_bid_id() == chosen
    shown_model = window.comparison.model()
    shown = [
        (shown_model.index(row, RANK).data(), shown_model.index(row, PROVIDER).data())
        for row in range(4)
    ]
    providers = {score.bid.id: score.bid.quote.provider for score in expected.scores}
    ranked = [s for s in expected.scores if s.rank is not None]
    assert [provider for _rank, provider in shown[: len(ranked)]] == [
        providers[s.bid.id] for s in sorted(ranked, key=lambda s: s.rank)
    ]
