"""The window each evaluation kind (core/kinds.py) opens in: a training run in the main window, a
kind listed here in a window of its own beside it. The app's doors (start-up, File > Open) ask
here instead of testing which kind a document holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.kinds import SERVING, kind_of


def _serving_window() -> Any:
    # Imported when a serving evaluation opens: a training session never loads its window.
    from clusterbid.gui.serving_window import ServingWindow

    return ServingWindow


# Kinds with a window of their own (called as Window(document, zoom=..., zoom_to=...)).
OWN_WINDOWS: dict[str, Callable[[], Any]] = {SERVING.tag: _serving_window}


def own_window_class(evaluation: Evaluation) -> Any | None:
    """The window class `evaluation`'s kind opens in, or None for the main window itself."""
    window = OWN_WINDOWS.get(kind_of(evaluation).tag)
    return None if window is None else window()
