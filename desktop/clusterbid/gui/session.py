"""The open evaluation: its document, its current snapshot, the undo stack and one change signal."""

from __future__ import annotations

import sqlite3

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.commands import ReplaceSnapshotCommand
from clusterbid.gui.snapshot_edits import apply_snapshot


def describe_outside_rows(name: str, rows) -> str:
    """ "Updated from doc.clusterbid: changes #7-#9 by alice (import bids)"."""
    span = f"#{rows[0].seq}" if len(rows) == 1 else f"#{rows[0].seq}-#{rows[-1].seq}"
    who = ", ".join(dict.fromkeys(row.who for row in rows))
    actions = ", ".join(dict.fromkeys(row.action.replace("_", " ") for row in rows))
    return f"Updated from {name}: change{'s' if len(rows) > 1 else ''} {span} by {who} ({actions})"


class Session(QObject):
    """Every edit goes through `apply`: committed to the document first, then put on the stack."""

    evaluation_changed = Signal(object)  # the new Evaluation
    edit_refused = Signal(str)  # a plain message; nothing was changed
    file_changed = Signal(str)  # what another window or command committed to the file, in words

    def __init__(self, document: EvaluationDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.undo_stack = QUndoStack(self)

    @property
    def evaluation(self) -> Evaluation:
        return self.document.evaluation

    def apply(self, new: Evaluation, text: str, merge_key: object = None, files=()) -> bool:
        """Commit `new` and record it for undo; on refusal nothing changes and the reason is emitted.
        `files`: raw evidence files kept with the edit (undo leaves them stored, as the trail does)."""
        old = self.evaluation
        if new == old:
            return True
        try:
            apply_snapshot(self.document, new, text, files)
        except InputError as exc:
            self.edit_refused.emit(str(exc))
            return False
        self.undo_stack.push(ReplaceSnapshotCommand(self, old, self.evaluation, text, merge_key))
        self.evaluation_changed.emit(self.evaluation)
        return True

    def restore(self, snapshot: Evaluation, label: str) -> None:
        """Undo/redo: bring the document to `snapshot`, one transaction and one audit row like any edit."""
        try:
            apply_snapshot(self.document, snapshot, label)
        except InputError as exc:
            self.edit_refused.emit(f"Could not undo or redo: {exc}")
        self.evaluation_changed.emit(self.evaluation)

    def catch_up(self) -> bool:
        """Take in what was committed to the file from elsewhere; True when something was."""
        try:
            rows = self.document.catch_up()
        except (
            sqlite3.Error,
            ValueError,
        ) as exc:  # damaged from outside: say so, keep what is shown
            self.file_changed.emit(
                f"{self.document.path.name} changed on disk and cannot be read ({exc})"
            )
            return False
        if rows is None:
            return False
        # Undoing now would put back a snapshot over another window's edits: the history ends here.
        self.undo_stack.clear()
        name = self.document.path.name
        self.file_changed.emit(
            describe_outside_rows(name, rows)
            if rows
            else f"{name} changed on disk without new changes in its trail (an older copy "
            "put back?); shown as it is now, audited"
        )
        self.evaluation_changed.emit(self.evaluation)
        return True

    def switch_to(self, document: EvaluationDocument) -> None:
        """Another evaluation in the same window: the old file is closed, its undo history ends."""
        self.undo_stack.clear()
        self.document.close()
        self.document = document
        self.evaluation_changed.emit(self.evaluation)

    def close(self) -> None:
        self.undo_stack.clear()
        self.document.close()
