"""The main window: the one ClusterBid window (gui/evaluation_window.py) on a training run, whose
view (gui/training_view.py) shows the outline, the ranked comparison with its weights, the details
and charts and the workload editor. `MainWindow` is that window class under the name the app, the
tests and packaging/screenshots.py have always used; the kind comes from the document."""

from __future__ import annotations

from clusterbid.gui.evaluation_window import EvaluationWindow

MainWindow = EvaluationWindow

__all__ = ["MainWindow"]
