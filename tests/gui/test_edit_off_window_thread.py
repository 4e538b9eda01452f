"""Issue 32 item 1, what this round took off the window's thread or out of the bands' way:
the score matrix measures its columns' cells once per set of criteria (a weights edit measures
no cell again), and the value of the plan's own figures follows the bands with the value of
information instead of holding the bands back. Counts, never wall time."""

from __future__ import annotations

import threading

from tests.gui.conftest import wait_for_scoring
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import plan_value as plan_value_module
from clusterbid.core.uncertainty.decision import decide
from clusterbid.core.uncertainty.plan_value import plan_value_lines
from clusterbid.gui.comparison.scorecard_table_model import BAND, WIN
from clusterbid.gui.uncertainty_source import MONTE_CARLO_SAMPLES, analyse_bands, with_value


def test_a_weights_edit_measures_no_matrix_cell_and_the_columns_still_fit(
    qtbot, monkeypatch, window
):
    wait_for_scoring(qtbot, window)
    matrix = window.score_matrix
    measured: list[int] = []
    real = matrix.sizeHintForColumn
    monkeypatch.setattr(matrix, "sizeHintForColumn", lambda c: measured.append(c) or real(c))
    weights = window.weights.current_weights()
    weights["sla"] = weights["sla"] + 7.0
    window.apply_weights(weights, ("test", 1))
    wait_for_scoring(qtbot, window)
    qtbot.waitUntil(lambda: window.model.band_range() is not None, timeout=HANG_GUARD_MS)
    assert measured == []  # same criteria, same font: the widths kept from the first fill
    header = matrix.horizontalHeader()
    # The heading carries the new weight and each column is at least as wide as it and its cells
    # (Qt's own measure, taken here once, after the edit).
    sla = 1 + matrix.matrix_model.criteria.index("sla")
    assert (
        f"{weights['sla'] / sum(weights.values()):.0%}" in matrix.horizontalHeaderItem(sla).text()
    )
    for column in range(1, header.count()):
        assert header.sectionSize(column) >= max(real(column), header.sectionSizeHint(column))
    # A new font is measured again (presentation zoom): the kept widths do not outlive it.
    font = matrix.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    matrix.setFont(font)
    matrix.show_scorecard(window.model.scorecard)
    assert sorted(set(measured)) == list(range(1, header.count()))


def test_the_bands_leave_the_plan_values_to_the_value_step(monkeypatch):
    evaluation = demo_evaluation()
    calls: list[bool] = []
    real = plan_value_module.plan_value_lines

    def recorded(scorecard):
        calls.append(threading.current_thread() is threading.main_thread())
        return real(scorecard)

    monkeypatch.setattr(plan_value_module, "plan_value_lines", recorded)
    bands = analyse_bands(evaluation)
    assert calls == [] and bands.plan_values == ()
    valued = with_value(bands)
    assert len(calls) == 1
    # The lines of the decided scorecard, worked out here apart from the window's path.
    decided, _ = decide(evaluation, MONTE_CARLO_SAMPLES, evaluation.policy.random_seed)
    monkeypatch.undo()
    assert valued.plan_values == tuple(plan_value_lines(decided))


def test_the_bands_columns_are_measured_once_each_when_the_bands_arrive(qtbot, monkeypatch, window):
    """The band and chance columns are sized to their new texts by Qt's resize to contents; the
    second measure each column had (its size hint, used only for the last column) is gone:
    each was measured twice per arrival of the bands."""
    wait_for_scoring(qtbot, window)
    qtbot.waitUntil(lambda: window.model.band_range() is not None, timeout=HANG_GUARD_MS)
    table = window.comparison
    hinted: list[int] = []
    real = table.sizeHintForColumn
    monkeypatch.setattr(table, "sizeHintForColumn", lambda c: hinted.append(c) or real(c))
    weights = window.weights.current_weights()
    weights["sla"] = weights["sla"] + 7.0
    target = window.apply_weights(weights, ("test", 2)) or window.session.evaluation
    qtbot.waitUntil(
        lambda: (
            window.model.band_range() is not None
            and window.model.scorecard.evaluation == target
            and not window.tasks.is_busy()
        ),
        timeout=HANG_GUARD_MS,
    )
    # Qt's resize to contents asks the view's size hint (PySide routes it here too): once per
    # bands column. Neither is the last column (it stretches and is measured apart).
    assert sorted(hinted) == sorted([BAND, WIN])
    header = table.horizontalHeader()
    for column in (BAND, WIN):  # still as wide as their widest text, as Qt measures it now
        assert header.isSectionHidden(column) or header.sectionSize(column) >= real(column)
