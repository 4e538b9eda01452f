"""The view each evaluation kind is shown in is looked up in gui/kind_windows.py (issue 33 item 2):
a training evaluation in the training view, in the window it was opened from; a serving one in
the serving view, in a window of its own beside it (it has no File > Open of its own)."""

from __future__ import annotations

from tests.conftest import REPO

from clusterbid.core.documents import read_evaluation
from clusterbid.core.kinds import KINDS
from clusterbid.gui.kind_windows import KIND_VIEWS, opens_beside, view_class
from clusterbid.gui.serving_view import ServingView
from clusterbid.gui.training_view import TrainingView

EXAMPLES = REPO / "resources" / "examples"


def test_a_serving_evaluation_opens_beside_in_its_view_and_training_in_the_window_itself():
    serving = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    training = read_evaluation(EXAMPLES / "demo-evaluation.json")
    assert view_class(serving) is ServingView and view_class(training) is TrainingView
    assert opens_beside(serving) and not opens_beside(training)
    assert set(KIND_VIEWS) == set(KINDS)  # every registered kind has its view, and only those
