"""The one ClusterBid window, for every kind of evaluation (issue 33 item 2): a training run and an
inference service open in the same window class, which holds what they share once: the session
(its undo stack and the commit lane its edits are written on), the background runner its scoring,
memo and exports run on, the follower of the file on disk, the menus, the presentation zoom, the
status bar, the selected bid and an orderly close. What differs per kind (the panels on the left
and the tabs on the right, the summary line, the scoring call and what its result fills in) is the
kind's view, looked up by the evaluation's kind in gui/kind_windows.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import QMainWindow, QWidget

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.file_commands import dropped_paths
from clusterbid.gui.kind_view import FontChangeRelayout, KindView, summary_line
from clusterbid.gui.kind_windows import view_class
from clusterbid.gui.screen_fit import fit_on_screen, keep_on_screen
from clusterbid.gui.settings import AppSettings
from clusterbid.gui.window_actions import WindowActions, menu_groups
from clusterbid.gui.window_parts import WindowParts
from clusterbid.gui.zoom import PresentationZoom

ZoomTo = Callable[[float], float]  # sets the app's zoom, laying out the windows; the factor set


class EvaluationWindow(QMainWindow):
    """`settings` are the app's (remembered zoom, recent files, window state; None for a window
    opened without them). `zoom` is the app's presentation zoom when another window opened this
    one, and `zoom_to` sets it, laying out every window that needs it (default: this window's)."""

    def __init__(
        self,
        document: EvaluationDocument,
        settings: AppSettings | None = None,
        note: str | None = None,
        *,
        parent: QWidget | None = None,
        zoom: PresentationZoom | None = None,
        zoom_to: ZoomTo | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.view: KindView = view_class(document.evaluation)(self)
        self.setObjectName(self.view.object_name)
        self.zoom = zoom or PresentationZoom(1.0 if settings is None else settings.zoom())
        self._zoom_to = zoom_to
        # Every edit is shown at once and committed behind on the session's commit lane, and
        # re-scored off this thread; memo, records and help alike (gui/window_parts.py).
        parts = WindowParts(
            self,
            document,
            selected_bid_id=self.selected_bid_id,
            scorecard=self.view.scorecard,
            **self.view.bid_options(),
        )
        self.session, self.tasks, self.follower = parts.session, parts.tasks, parts.follower
        self.bids, self.memos, self.info = parts.bids, parts.memos, parts.info
        fit_on_screen(self, self.view.preferred_size)  # no larger than the screen allows
        self.summary = summary_line()  # what is being bought, in the kind's words; placed by it
        self.setAcceptDrops(self.view.accepts_drops())
        docks = self.view.build(document)
        self.actions_ = WindowActions(self, menu_groups(document.evaluation))
        self.actions_.build_menus(docks)
        self.session.evaluation_changed.connect(self._on_evaluation_changed)
        if self.view.relayout_on_font_change:
            # A filter, not an event() override: a window whose kind needs none keeps Qt's own
            # event path, with no call into Python for each of its events.
            self.installEventFilter(FontChangeRelayout(self, self.relayout))
        self.view.start(document, note)

    def __getattr__(self, name: str) -> Any:
        """What only one kind offers (its menu groups' handlers, its parts) is its view's."""
        view = self.__dict__.get("view")
        if view is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(view, name)

    @property
    def document(self) -> EvaluationDocument:
        """The document with every edit made so far committed (gui/session.py)."""
        return self.session.document

    @property
    def scorecard(self) -> Any:
        """The scorecard the window shows (None until the first arrives)."""
        return self.view.scorecard()

    def selected_bid_id(self) -> str | None:
        return self.view.selected_bid_id()

    def export_comparison(self) -> None:
        self.view.export_comparison()

    def _on_evaluation_changed(self, evaluation: Evaluation) -> None:
        self.view.evaluation_changed(evaluation)

    # -- layout at any width and presentation zoom -------------------------------------------------
    def zoom_by(self, direction: int) -> None:
        """One zoom step up or down, or back to 100% (0); kept for the next start."""
        factor = self.zoom.next_step(direction) if direction else 1.0
        factor = (self._zoom_to or self.view.zoom_to)(factor)
        if self.settings is not None:
            self.settings.set_zoom(factor)
        self.statusBar().showMessage(f"Presentation zoom {factor:.0%}", 3000)

    def zoom_reset(self) -> None:
        self.zoom_by(0)

    def relayout(self) -> None:
        self.view.relayout()

    def fit_to_width(self) -> None:
        self.view.fit_to_width()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit_to_width()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if not self.__dict__.get("_shown_once"):
            self._shown_once = True
            # Once the frame is known: all of it on screen.
            QTimer.singleShot(0, lambda: keep_on_screen(self))
            # A zoom kept from the last session: the panes are laid out for it once the window has
            # its size on screen, as after Ctrl+Plus (a wide table narrows, never scrolls).
            if abs(self.zoom.factor - 1.0) > 1e-6:
                QTimer.singleShot(0, self.relayout)

    # -- close: every edit written, scoring stopped, a memo being written finished -----------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        self.session.lane.settle()  # every edit made is written (and a refusal said) first
        self.view.before_close()
        for name in self.tasks.running():
            if not name.startswith("memo"):  # a memo being written or signed is finished
                self.tasks.cancel(name)
        self.tasks.wait_for_done(30_000)
        QCoreApplication.sendPostedEvents()  # finished memo work delivered before the file closes
        self.session.close()
        super().closeEvent(event)

    # -- drag and drop: what a kind takes from a drop is its view's --------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 (Qt API)
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        paths = dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.view.dropped(paths)
