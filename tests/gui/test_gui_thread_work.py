"""Issue 32: after an edit the window's thread only lays out and paints. Scoring, the default
effects and the bands are computed on the background runner, the default effects once per
scorecard (the table and the Details pane read them from it), and a superseded run stops."""

from __future__ import annotations

import pytest
from tests.core.default_effects_reference import per_bid_default_effects
from tests.gui.thread_records import record_threads, two_bids_resting_on_spares
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.memo.provenance_lines import field_words
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.core.uncertainty import default_effects as effects_module
from clusterbid.core.uncertainty.model_inputs import model_inputs
from clusterbid.gui.background import Cancelled
from clusterbid.gui.comparison.scorecard_table_model import FINDINGS
from clusterbid.gui.main_window import MainWindow
from clusterbid.gui.rescoring import rests_derived, scored_and_derived


@pytest.fixture
def two_bid_window(qtbot, tmp_path, app_settings, dialog_log):
    win = MainWindow(
        EvaluationDocument.create(tmp_path / "two.clusterbid", two_bids_resting_on_spares()),
        app_settings,
    )
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(
        lambda: win.model.band_range() is not None and not win.tasks.is_busy(),
        timeout=HANG_GUARD_MS,
    )
    yield win
    assert win.tasks.wait_for_done(10_000)
    win.close()


def test_an_edit_is_scored_and_its_default_effects_derived_off_the_window_thread(
    qtbot, monkeypatch, two_bid_window
):
    win = two_bid_window
    scored = record_threads(monkeypatch, "score_evaluation", score_evaluation)
    derived = record_threads(monkeypatch, "default_effects", effects_module.default_effects)
    weights = win.weights.current_weights()
    weights["sla"] = weights["sla"] + 10.0
    win.apply_weights(weights, ("test", 1))
    target = win.session.evaluation
    qtbot.waitUntil(
        lambda: (
            win.model.scorecard.evaluation == target
            and win.model.band_range() is not None
            and not win.tasks.is_busy()
        ),
        timeout=HANG_GUARD_MS,
    )
    for bid_id in ("unsure", "rival"):  # the Details pane of each bid, as a click shows it
        win.comparison.select_bid(bid_id)
        # the pane names the bid as an officer does, by its provider (bid_dict's "Provider <id>")
        qtbot.waitUntil(
            lambda b=bid_id: f"Provider {b}" in win.details.toPlainText(), timeout=HANG_GUARD_MS
        )
    unsure_details = (win.comparison.select_bid("unsure"), win.details.toPlainText())[1]
    calls = (list(scored), list(derived))  # before the test's own reference computation below

    assert calls[0] and not any(calls[0]), f"scorer calls on the window's thread: {calls[0]}"
    # None at all: a weights edit leaves every bid's costs as they were, so the point scorecard
    # and the decided one reuse the effects from before the edit (issue 32 item 1); the table,
    # the Details pane and the kept first-paint table read them, and they are checked below.
    assert calls[1] == []
    shown = win.model.scorecard
    assert shown.decision_basis != "point"  # the decided scorecard, whose pass was the second
    reference = per_bid_default_effects(model_inputs(shown.evaluation, shown), shown.evaluation)
    assert effects_module.scorecard_default_effects(shown) == reference
    spares = field_words("capacity.spare_pool_gpus")
    assert win.model.resting == {"unsure": [spares]}
    row = win.model.row_of("unsure")
    assert win.model.data(win.model.index(row, FINDINGS)).endswith(f"rank rests on {spares}")
    # 0 spares: cost rank 2 (as scored); 16 spares: a node on hand at $2.40 < $2.50: rank 1.
    assert "its cost rank goes from 2 to 1" in unsure_details


def test_a_superseded_scoring_stops_before_its_default_effects(monkeypatch):
    derived = record_threads(monkeypatch, "default_effects", effects_module.default_effects)

    def cancelled(_fraction, _message=""):
        raise Cancelled  # what the runner's Progress does once a newer edit supersedes the run

    with pytest.raises(Cancelled):
        scored_and_derived(two_bids_resting_on_spares(), cancelled)
    assert derived == []
    scorecard = scored_and_derived(
        two_bids_resting_on_spares(), lambda _fraction, _message="": None
    )
    assert derived == []  # new bids: their effects follow the table, on a worker of their own
    rests_derived(scorecard, lambda _fraction, _message="": None)
    assert len(derived) == 1  # run once, and kept on the scorecard:
    assert scorecard.derived["rank_resting_on"] == {
        "unsure": [field_words("capacity.spare_pool_gpus")]
    }


def test_an_edit_leaves_cell_texts_and_bid_checks_to_the_worker(qtbot, monkeypatch, two_bid_window):
    """Issue 32 at 500 bids: every cell's text (the table's and the first-paint table the document
    keeps) is written by the worker; a weights edit checks no bid again on the window's thread."""
    from clusterbid.core import bid as bid_module
    from clusterbid.core import comparison_table

    win = two_bid_window
    formatted = record_threads(monkeypatch, "cell_text", comparison_table.cell_text)
    bid_checks: list[
        str
    ] = []  # the bids whose rules ran again (a bid's text check is the first of them)
    real_check = bid_module.check_model_text
    monkeypatch.setattr(
        bid_module,
        "check_model_text",
        lambda model, *a, **k: (bid_checks.append(model.id), real_check(model, *a, **k))[1],
    )
    weights = win.weights.current_weights()
    weights["support"] = weights["support"] + 10.0
    win.apply_weights(weights, ("test", 2))
    target = win.session.evaluation
    qtbot.waitUntil(
        lambda: (
            win.model.scorecard.evaluation == target
            and win.model.band_range() is not None
            and not win.tasks.is_busy()
        ),
        timeout=HANG_GUARD_MS,
    )
    qtbot.wait(50)  # the repaint after the bands
    shown = [
        win.model.index(row, column).data()
        for row in range(2)
        for column in range(len(comparison_table.COLUMNS))
    ]
    assert all(text is not None for text in shown)
    # 2 bids x 16 columns, once without the bands and once with them, all on workers.
    assert len(formatted) == 2 * 2 * len(comparison_table.COLUMNS) and not any(formatted), formatted
    assert bid_checks == []  # the two bids were checked when made; the new weights bring none
