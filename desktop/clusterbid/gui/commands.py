"""The one undoable edit: replace the evaluation snapshot (old <-> new) through the document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from clusterbid.core.evaluation import Evaluation

if TYPE_CHECKING:
    from clusterbid.gui.session import Session

# Commands that carry a merge key share this id; Qt only calls mergeWith on equal ids.
MERGEABLE_ID = 1


class ReplaceSnapshotCommand(QUndoCommand):
    """Already applied when pushed (the session commits first, so a refused edit never enters
    the stack); redo after an undo applies `new` again."""

    def __init__(
        self,
        session: Session,
        old: Evaluation,
        new: Evaluation,
        text: str,
        merge_key: object = None,
    ) -> None:
        super().__init__(text)
        self._session = session
        self.old = old
        self.new = new
        self.merge_key = merge_key
        self._first_redo = True

    def id(self) -> int:  # noqa: A003 (Qt API)
        return MERGEABLE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt API)
        if not isinstance(other, ReplaceSnapshotCommand) or other.merge_key != self.merge_key:
            return False
        self.new = other.new
        self.setText(other.text())
        # A run that ends where it started (try, then put back) leaves nothing to undo.
        self.setObsolete(self.new == self.old)
        return True

    def redo(self) -> None:
        if self._first_redo:
            self._first_redo = False
            return
        self._session.restore(self.new, f"Redo {self.text()}")

    def undo(self) -> None:
        self._session.restore(self.old, f"Undo {self.text()}")
