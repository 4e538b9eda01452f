"""Issue 33 item 2: one window class for every evaluation kind. A training run and a serving
evaluation open in the same class; what differs is the kind's view, looked up in one registry
(gui/kind_windows.py, tests/gui/test_kind_windows.py)."""

from __future__ import annotations

import pytest
from tests.conftest import EXAMPLES
from tests.gui.conftest import wait_for_scoring, wait_for_serving_scores

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.documents import read_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.evaluation_window import EvaluationWindow
from clusterbid.gui.main_window import MainWindow
from clusterbid.gui.serving_window import ServingWindow


def _opened(qtbot, window):
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_both_kinds_open_in_the_same_class_and_share_its_parts(qtbot, tmp_path, app_settings):
    training = _opened(
        qtbot,
        MainWindow(
            EvaluationDocument.create(tmp_path / "t.clusterbid", demo_evaluation()), app_settings
        ),
    )
    serving_evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    serving = _opened(
        qtbot,
        ServingWindow(
            EvaluationDocument.create(tmp_path / "s.clusterbid", serving_evaluation), app_settings
        ),
    )
    try:
        wait_for_scoring(qtbot, training)
        wait_for_serving_scores(qtbot, serving)
        assert type(training) is type(serving) is EvaluationWindow
        assert (training.objectName(), serving.objectName()) == ("main_window", "serving_window")
        assert type(training.view).__name__ == "TrainingView"
        assert type(serving.view).__name__ == "ServingView"
        # The shared parts are the window's own, one of each per window.
        for part in ("session", "tasks", "follower", "bids", "memos", "info", "actions_"):
            assert getattr(training, part) is not getattr(serving, part), part
        # The selected bid and the figures shown, asked of the window whatever its kind: the demo's
        # winners (Northwind for the training job, Helio for the service; README and
        # resources/examples say so) are selected when each opens.
        assert training.selected_bid_id() == training.scorecard.ranked[0].bid.id
        assert "Northwind" in training.scorecard.ranked[0].bid.quote.provider
        assert serving.selected_bid_id() == "helio-h200"
        # A group only one kind offers is None in the other's menus, not a kind test.
        assert training.actions_.frontier is None and serving.actions_.import_bids is None
    finally:
        serving.close()
        training.close()


def test_a_zoom_made_in_the_serving_window_is_kept_for_the_next_start(
    qtbot, tmp_path, app_settings
):
    """As in the main window: the zoom set is the app's setting (1.15 is the step after 100%)."""
    serving_evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    shown = _opened(
        qtbot,
        ServingWindow(
            EvaluationDocument.create(tmp_path / "s.clusterbid", serving_evaluation), app_settings
        ),
    )
    try:
        wait_for_serving_scores(qtbot, shown)
        shown.zoom_by(+1)
        assert app_settings.zoom() == pytest.approx(1.15)
        shown.zoom_reset()
        assert app_settings.zoom() == pytest.approx(1.0)
        assert shown.statusBar().currentMessage() == "Presentation zoom 100%"
    finally:
        shown.zoom.set(1.0)
        shown.close()
