"""Issue 32 item 1: a bid edit brings its re-scored table back before the default effects (what
each rank rests on) are derived; a second update fills the findings and the Details pane, which
never derives them on the window's thread; and a score superseded while queued is never run."""

from __future__ import annotations

import threading

from tests.conftest import bid_dict, evaluation_dict
from tests.gui.thread_records import record_threads, two_bids_resting_on_spares
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.provenance_lines import field_words
from clusterbid.core.store import EvaluationDocument
from clusterbid.core.uncertainty import default_effects as effects_module
from clusterbid.gui import rescoring
from clusterbid.gui.background import BackgroundTasks
from clusterbid.gui.comparison.scorecard_table_model import FINDINGS, PRICE
from clusterbid.gui.details_panel import PENDING
from clusterbid.gui.edits import with_bid_replaced
from clusterbid.gui.main_window import MainWindow

SPARES = field_words("capacity.spare_pool_gpus")


def _open(qtbot, path, app_settings) -> MainWindow:
    win = MainWindow(EvaluationDocument.create(path, two_bids_resting_on_spares()), app_settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(  # its bands and what its ranks rest on, both started after the first paint
        lambda: (
            win.model.band_range() is not None
            and win.model.resting is not None
            and not win.tasks.is_busy()
        ),
        timeout=HANG_GUARD_MS,
    )
    return win


def _price_edit(win: MainWindow, price: str) -> Evaluation:
    """'unsure' repriced as the bid wizard commits an edited bid (gui/bid_commands.py)."""
    evaluation = win.session.evaluation
    data = evaluation.bids[0].model_dump()
    data["terms"]["price_per_gpu_hour"] = price
    bid = Bid.model_validate(data)
    assert win.bids.apply(lambda: with_bid_replaced(evaluation, "unsure", bid), "Edit bid unsure")
    return win.session.evaluation


def _cell(win: MainWindow, bid_id: str, column: int) -> str:
    return win.model.data(win.model.index(win.model.row_of(bid_id), column))


def test_the_table_shows_a_price_edit_before_what_its_rank_rests_on(
    qtbot, monkeypatch, tmp_path, app_settings, dialog_log
):
    win = _open(qtbot, tmp_path / "two.clusterbid", app_settings)
    assert _cell(win, "unsure", FINDINGS).endswith(f"rank rests on {SPARES}")
    release, blocked = threading.Event(), threading.Event()
    real = rescoring.rank_resting_on

    def held(scorecard):
        blocked.set()
        assert release.wait(HANG_GUARD_MS / 1000)
        return real(scorecard)

    monkeypatch.setattr(rescoring, "rank_resting_on", held)
    # The bands would bring a decided ranking with its own findings: this test waits for the
    # second update of the scored table, so the analysis is not started.
    monkeypatch.setattr(win.rescorer, "analyse", lambda _scorecard: None)
    try:
        target = _price_edit(win, "2.41")
        win.comparison.select_bid("unsure")
        qtbot.waitUntil(
            lambda: win.model.scorecard.evaluation == target and blocked.is_set(),
            timeout=HANG_GUARD_MS,
        )
        assert "2.41" in _cell(win, "unsure", PRICE)  # the new price, shown
        assert _cell(win, "unsure", FINDINGS).endswith("rank rests on: pending")
        assert PENDING in win.details.toPlainText()
        assert win.tasks.is_busy("default effects")
    finally:
        release.set()
    qtbot.waitUntil(lambda: not win.tasks.is_busy(), timeout=HANG_GUARD_MS)
    # $2.41 against $2.50: still second with no spares, first with 16 (both then have them).
    assert _cell(win, "unsure", FINDINGS).endswith(f"rank rests on {SPARES}")
    assert PENDING not in win.details.toPlainText()
    assert "its cost rank goes from 2 to 1" in win.details.toPlainText()
    assert win.tasks.wait_for_done(10_000)
    win.close()


def test_the_details_pane_never_derives_default_effects_on_the_window_thread(
    qtbot, monkeypatch, tmp_path, app_settings, dialog_log
):
    calls = record_threads(monkeypatch, "default_effects", effects_module.default_effects)
    asks = record_threads(
        monkeypatch, "scorecard_default_effects", effects_module.scorecard_default_effects
    )
    win = _open(qtbot, tmp_path / "two.clusterbid", app_settings)  # its first figures, too
    for price in ("2.41", "2.42"):
        target = _price_edit(win, price)
        for bid_id in ("unsure", "rival", "unsure"):  # selected while pending and after
            win.comparison.select_bid(bid_id)
            qtbot.wait(5)
        qtbot.waitUntil(
            lambda t=target: win.model.scorecard.evaluation == t and not win.tasks.is_busy(),
            timeout=HANG_GUARD_MS,
        )
    win.comparison.select_bid("rival")
    win.comparison.select_bid("unsure")
    assert "its cost rank goes from 2 to 1" in win.details.toPlainText()
    assert calls and not any(calls), calls  # derived, and only on workers
    assert asks and not any(asks), asks
    assert win.tasks.wait_for_done(10_000)
    win.close()


def test_a_score_superseded_while_queued_is_not_run(qtbot) -> None:
    tasks = BackgroundTasks(own_thread=("score",))
    release, started = threading.Event(), threading.Event()
    ran: list[str] = []
    shown: list[object] = []

    def first(_progress) -> str:
        started.set()
        release.wait(HANG_GUARD_MS / 1000)  # the thread busy with the edit before
        ran.append("first")
        return "first"

    def counted(name: str):
        return lambda _progress: (ran.append(name), name)[1]

    try:
        tasks.run("score", first, shown.append)
        assert started.wait(10)
        tasks.run("score", counted("second"), shown.append)  # queued behind `first`
        tasks.run("score", counted("third"), shown.append)  # supersedes `second` in the queue
        release.set()
        qtbot.waitUntil(lambda: shown == ["third"], timeout=HANG_GUARD_MS)
    finally:
        release.set()
        assert tasks.wait_for_done(HANG_GUARD_MS)
    assert ran == ["first", "third"]  # `first` was running when superseded: it ends, unshown


def test_a_weights_edit_shows_the_findings_at_once(qtbot, tmp_path, app_settings, dialog_log):
    """A weights edit leaves the default effects as they were: no second update is needed."""
    win = _open(qtbot, tmp_path / "two.clusterbid", app_settings)
    shown: list[str] = []
    win.rescorer.scored.connect(lambda _sc: shown.append(_cell(win, "unsure", FINDINGS)))
    weights = win.weights.current_weights()
    weights["sla"] = weights["sla"] + 10.0
    win.apply_weights(weights, ("test", 1))
    qtbot.waitUntil(lambda: bool(shown), timeout=HANG_GUARD_MS)
    assert shown[0].endswith(f"rank rests on {SPARES}")
    assert win.tasks.wait_for_done(10_000)
    win.close()


def test_the_findings_column_ends_measured_on_its_final_texts(
    qtbot, monkeypatch, tmp_path, app_settings, dialog_log
):
    """One bid: nothing can move its rank, so its findings end as "passed, ..." without the
    pending words the column was first measured on. What the ranks rest on is held until the
    bands' decided ranking has come first: the column is measured again then."""
    release = threading.Event()
    real = rescoring.rank_resting_on
    monkeypatch.setattr(
        rescoring, "rank_resting_on", lambda sc: (release.wait(HANG_GUARD_MS / 1000), real(sc))[1]
    )
    one = Evaluation.model_validate(evaluation_dict([bid_dict("solo")]))
    win = MainWindow(EvaluationDocument.create(tmp_path / "one.clusterbid", one), app_settings)
    qtbot.addWidget(win)
    win.show()
    widths = win.comparison._content_widths  # what each column was measured at
    pending = widths[FINDINGS]
    assert _cell(win, "solo", FINDINGS).endswith("rank rests on: pending")
    try:
        qtbot.waitUntil(lambda: win.model.band_range() is not None, timeout=HANG_GUARD_MS)
        assert "pending" not in _cell(win, "solo", FINDINGS)
        assert win.tasks.is_busy("default effects")  # the bands came first
    finally:
        release.set()
    qtbot.waitUntil(lambda: not win.tasks.is_busy(), timeout=HANG_GUARD_MS)
    final = widths[FINDINGS]
    win.comparison.measure_columns()  # measured afresh on the texts shown now
    assert widths[FINDINGS] == final < pending
    assert win.tasks.wait_for_done(10_000)
    win.close()
