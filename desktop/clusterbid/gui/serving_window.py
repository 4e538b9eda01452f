"""The serving window: the one ClusterBid window (gui/evaluation_window.py) on an inference
service, whose view (gui/serving_view.py) shows its ranking, score matrix, details and gates.
`ServingWindow` is that window class under the name the tests have always used; the kind comes
from the document."""

from __future__ import annotations

from clusterbid.gui.evaluation_window import EvaluationWindow
from clusterbid.gui.serving_view import SIDE_MINIMUM

ServingWindow = EvaluationWindow

__all__ = ["SIDE_MINIMUM", "ServingWindow"]
