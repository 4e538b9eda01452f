"""Which view the one window (gui/evaluation_window.py) shows each evaluation kind (core/kinds.py)
in: one registry, by the kind's tag, so the window and the app's doors (start-up, File > Open)
never test which kind a document holds. A new kind with a window is its `KindView` subclass
(gui/kind_view.py) and one line in `KIND_VIEWS`."""

from __future__ import annotations

from collections.abc import Callable

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.kinds import SERVING, TRAINING, kind_of
from clusterbid.gui.kind_view import KindView


def _training() -> type[KindView]:
    from clusterbid.gui.training_view import TrainingView

    return TrainingView


def _serving() -> type[KindView]:
    # Imported when a serving evaluation opens: a training session never loads its view.
    from clusterbid.gui.serving_view import ServingView

    return ServingView


# Each kind's view, by the kind's tag; imported when a window of that kind opens.
KIND_VIEWS: dict[str, Callable[[], type[KindView]]] = {
    TRAINING.tag: _training,
    SERVING.tag: _serving,
}


def view_class(evaluation: Evaluation) -> type[KindView]:
    """The view of `evaluation`'s kind."""
    return KIND_VIEWS[kind_of(evaluation).tag]()


def opens_beside(evaluation: Evaluation) -> bool:
    """Whether `evaluation`, opened from a window, opens in a window of its own beside it."""
    return view_class(evaluation).opens_beside
