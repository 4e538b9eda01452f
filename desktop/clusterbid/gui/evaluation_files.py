"""File menu handlers for whole evaluations: open (a serving one in its own window), new, save a
copy. One object per main window, given what it needs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.opening import open_document

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from clusterbid.gui.session import Session
    from clusterbid.gui.settings import AppSettings


class EvaluationFiles:
    """Open, new and save-a-copy for one window: `switch_to` shows another document in it,
    `created` follows a new evaluation (the workload editor, where the officer starts). Serving
    evaluations open in windows of their own, held here while they are open."""

    def __init__(
        self,
        window: QMainWindow,
        session: Session,
        settings: AppSettings,
        *,
        switch_to: Callable[[EvaluationDocument], None],
        created: Callable[[], None],
    ) -> None:
        self.window, self.session, self.settings = window, session, settings
        self._switch_to, self._created = switch_to, created
        self.serving_windows: list = []
        self.serving_window = None  # the last one opened

    def open_evaluation_dialog(self) -> None:
        path = dialogs.open_file(self.window, "Open an evaluation", dialogs.EVALUATION_FILES)
        if path:
            self.open_evaluation(Path(path))

    def open_evaluation(self, path: Path) -> bool:
        try:
            document = open_document(Path(path), self.settings)
        except InputError as exc:
            dialogs.show_problem(self.window, "Cannot open this evaluation", str(exc))
            return False
        if self._opened_as_serving(document):
            return True
        self._switch_to(document)
        if document.path != Path(path):
            self.window.statusBar().showMessage(
                f"Opened {Path(path).name}; your edits are kept in {document.path}", 10_000
            )
        return True

    def _opened_as_serving(self, document: EvaluationDocument) -> bool:
        """A serving evaluation opens in a window of its own beside this one. It is not
        remembered as the last evaluation: that window has no way back to the training one."""
        from PySide6.QtCore import Qt

        from clusterbid.gui.evaluation_window import EvaluationWindow
        from clusterbid.gui.kind_windows import opens_beside

        if not opens_beside(document.evaluation):
            return False  # the kind opens in this window
        # One presentation zoom for the app: zooming there lays this window out too, and back.
        zoom_layout = getattr(self.window, "zoom_layout", None)
        shown = EvaluationWindow(
            document,
            self.settings,
            zoom=getattr(self.window, "zoom", None),
            zoom_to=None if zoom_layout is None else zoom_layout.set,
        )
        shown.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # Held here so a second serving window does not drop (and silently delete) the first.
        self.serving_windows.append(shown)
        shown.destroyed.connect(lambda _obj=None, w=shown: self.serving_windows.remove(w))
        self.serving_window = shown
        shown.show()
        return True

    def new_evaluation(self) -> None:
        path = dialogs.save_file(
            self.window,
            "Where to keep the new evaluation",
            "new-evaluation.clusterbid",
            "Evaluations (*.clusterbid)",
        )
        if not path:
            return
        path = Path(path) if path.endswith(".clusterbid") else Path(path + ".clusterbid")
        current = self.session.evaluation
        # The current job is the likeliest start; the officer edits it in the workload pane.
        evaluation = Evaluation(
            title="New evaluation", currency=current.currency, workload=current.workload
        )
        try:
            if path.exists():
                path.unlink()  # the save dialog already asked to replace it
            document = EvaluationDocument.create(path, evaluation)
        except (InputError, OSError) as exc:
            dialogs.show_problem(self.window, "Cannot create the evaluation", str(exc))
            return
        self._switch_to(document)
        self._created()

    def save_copy(self) -> None:
        stem = self.session.document.path.stem
        path = dialogs.save_file(
            self.window, "Save a copy", f"{stem}-copy.clusterbid", "Evaluations (*.clusterbid)"
        )
        if not path:
            return
        try:
            written = self.session.document.save_copy(Path(path))
        except (InputError, OSError) as exc:
            dialogs.show_problem(self.window, "Could not save the copy", str(exc))
            return
        self.window.statusBar().showMessage(f"Saved a copy to {written}", 8000)
