"""The window each evaluation kind opens in is looked up in gui/kind_windows.py (issue 33 item 2):
a training evaluation in the main window, a serving one in the serving window."""

from __future__ import annotations

from tests.conftest import REPO

from clusterbid.core.documents import read_evaluation
from clusterbid.core.kinds import KINDS
from clusterbid.gui.kind_windows import OWN_WINDOWS, own_window_class
from clusterbid.gui.serving_window import ServingWindow

EXAMPLES = REPO / "resources" / "examples"


def test_a_serving_evaluation_opens_in_the_serving_window_and_training_in_the_main_one():
    serving = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    training = read_evaluation(EXAMPLES / "demo-evaluation.json")
    assert own_window_class(serving) is ServingWindow
    assert own_window_class(training) is None
    assert set(OWN_WINDOWS) < set(KINDS)  # only registered kinds, and the main window's is not
