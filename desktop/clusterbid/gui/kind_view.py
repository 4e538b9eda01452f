"""What the one ClusterBid window (gui/evaluation_window.py) shows for one evaluation kind
(core/kinds.py): the panels on the left and the tabs on the right, the summary line, the scoring
call and what a score result fills in. Each kind's view subclasses `KindView` and is looked up by
the evaluation's kind in gui/kind_windows.py, so the window never tests which kind it holds.

The window keeps what every kind shares (session, commit lane, background runner, file follower,
menus, zoom, close, status bar); a view holds only what differs, and puts the widgets the menus,
dialogs and tests read on the window itself (`window.score_matrix`, `window.details` ...)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QLabel, QSplitter, QWidget

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument


class KindView:
    """One kind's part of the window. `window` is the EvaluationWindow being built: its parts
    (`session`, `tasks`, `bids`, `memos`, `info`, `zoom`, `settings`) exist before `build`."""

    object_name = ""  # the window's Qt object name (tests and screenshots find it by it)
    preferred_size = QSize(1200, 680)  # the window's size where the screen allows
    # Opened from another window, a kind with no way back to that window's documents opens in a
    # window of its own beside it (core/kinds.py: serving has no File > Open of its own).
    opens_beside = False
    # Whether the view lays itself out again when the application's font changes (a zoom made in
    # another window); a view whose zoom re-measures as it sets the font answers False.
    relayout_on_font_change = True

    def __init__(self, window: Any) -> None:
        self.window = window

    def bid_options(self) -> dict[str, Any]:
        """Options for the window's BidEditor (gui/bid_commands.py)."""
        return {}

    def build(self, document: EvaluationDocument) -> list[QDockWidget]:
        """Create the kind's panels and lay them out; returns the docks the View menu toggles."""
        raise NotImplementedError

    def start(self, document: EvaluationDocument, note: str | None) -> None:
        """Once the menus exist: connect the panels and show the first figures."""
        raise NotImplementedError

    def evaluation_changed(self, evaluation: Evaluation) -> None:
        """An edit (or undo) changed the evaluation: show its summary and score it again."""
        raise NotImplementedError

    def scorecard(self) -> Any:
        """The scorecard the window shows now (None until the first arrives)."""
        raise NotImplementedError

    def selected_bid_id(self) -> str | None:
        raise NotImplementedError

    def zoom_to(self, factor: float) -> float:
        """Set the presentation zoom and lay this kind's panels out at it; the factor set."""
        return float(self.window.zoom.set(factor))

    def relayout(self) -> None:
        """Re-measure what was sized at the old font."""

    def fit_to_width(self) -> None:
        """At a new width: the deciding columns in view (default: the panels do it themselves)."""

    def export_comparison(self) -> None:
        raise NotImplementedError

    def accepts_drops(self) -> bool:
        return False

    def dropped(self, paths: list[Path]) -> None:
        """Files dropped on the window (only if `accepts_drops`)."""

    def before_close(self) -> None:
        """What the kind keeps or closes before the window's session closes."""


def summary_line() -> QLabel:
    """The line above the figures that says what is being bought (its words are the kind's)."""
    summary = QLabel()
    summary.setWordWrap(True)
    summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return summary


def side_by_side(left: QWidget, right: QWidget, sizes: list[int]) -> QSplitter:
    """What decides on the left, the words on the right; the left takes 3 of every 4 pixels the
    window grows by (the words wrap, the figures would be cut)."""
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.setObjectName("main_splitter")  # its state is kept by that name (training_view.py)
    splitter.addWidget(left)
    splitter.addWidget(right)
    splitter.setStretchFactor(0, 3)
    splitter.setStretchFactor(1, 1)
    splitter.setSizes(sizes)
    return splitter


class FontChangeRelayout(QObject):
    """Lays a window out again once the application's font has changed (a presentation zoom made
    in any window) and the new font has reached every child."""

    def __init__(self, parent: QObject, relayout: Callable[[], None]) -> None:
        super().__init__(parent)
        self._relayout = relayout

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.ApplicationFontChange:
            QTimer.singleShot(0, self._relayout)
        return False
