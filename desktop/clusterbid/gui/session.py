"""The open evaluation: its document, its current snapshot, the undo stack and one change signal."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.commands import ReplaceSnapshotCommand
from clusterbid.gui.commit_lane import Commit, CommitLane, Dropped
from clusterbid.gui.snapshot_edits import apply_snapshot

if TYPE_CHECKING:
    from clusterbid.core.store.artefacts import NewArtefact
    from clusterbid.core.store.audit import AuditRow
    from clusterbid.core.store.verify import AuditReport


def describe_outside_rows(name: str, rows: Sequence[AuditRow]) -> str:
    """ "Updated from doc.clusterbid: changes #7-#9 by alice (import bids)"."""
    span = f"#{rows[0].seq}" if len(rows) == 1 else f"#{rows[0].seq}-#{rows[-1].seq}"
    who = ", ".join(dict.fromkeys(row.who for row in rows))
    actions = ", ".join(dict.fromkeys(row.action.replace("_", " ") for row in rows))
    return f"Updated from {name}: change{'s' if len(rows) > 1 else ''} {span} by {who} ({actions})"


DROPPED_WORDS = "It was not made: a change made just before it, which it builds on, was refused."


class Session(QObject):
    """Every edit goes through `apply`: shown at once, committed to the document on the commit
    lane (gui/commit_lane.py), in order, and put on the undo stack; a refused commit rolls the
    window back to what the document holds and says why."""

    evaluation_changed = Signal(object)  # the new Evaluation
    edit_refused = Signal(str)  # a plain message; nothing was changed
    file_changed = Signal(str)  # what another window or command committed to the file, in words

    def __init__(self, document: EvaluationDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self.undo_stack = QUndoStack(self)
        self.lane = CommitLane(self._on_committed, self)
        self._shown: Evaluation | None = None  # the newest edit, while its commit is on its way
        self._rolling_back = False  # undo commands popped after a refusal write nothing
        # A window that edits as the officer types (weights, workload) sets this: undo and redo
        # then return at once too. A window that reads its document directly leaves it off.
        self.background_edits = False

    @property
    def document(self) -> EvaluationDocument:
        """The document once every edit made so far is committed (the wait is idle: the lane's
        thread does the work). Whoever reads or writes it directly sees every edit made."""
        self.lane.settle()
        return self._document

    @property
    def file_name(self) -> str:
        return self._document.path.name

    @property
    def audit_report(self) -> AuditReport:
        """The document's audit, as opened or caught up (a commit of the window's own leaves it)."""
        return self._document.audit_report

    @property
    def evaluation(self) -> Evaluation:
        """What the window shows: the newest edit, committed or on its way to the document. Until
        its outcome reaches the window: a refused write finished on the lane would otherwise
        show the document's older state before the window has rolled back and said why."""
        if self._shown is not None and self.lane.undelivered():
            return self._shown
        return self._document.evaluation

    def apply(
        self,
        new: Evaluation,
        text: str,
        merge_key: object = None,
        files: Sequence[NewArtefact] = (),
        *,
        wait: bool = True,
    ) -> bool:
        """Commit `new` and record it for undo; on refusal nothing changes and the reason is emitted.
        `files`: raw evidence files kept with the edit (undo leaves them stored, as the trail does).
        `wait=False`: shown and put on the stack at once, committed behind (True is returned; a
        refusal arrives later as `edit_refused`, the window rolled back). `wait=True` returns
        whether it was committed, for a dialog that stays open when it was not."""
        old = self.evaluation
        if new == old:
            return True
        if not self._document.audit_report.ok:
            wait = True  # refused for certain: said now, as it always was
        document = self._document
        commit = self.lane.submit(lambda: apply_snapshot(document, new, text, files), target=new)
        commit.payload.update(old=old, text=text, merge_key=merge_key)
        self._shown = new
        if wait:
            self.lane.settle()
            return commit.written
        self.undo_stack.push(ReplaceSnapshotCommand(self, old, new, text, merge_key))
        commit.payload["pushed"] = True
        self.evaluation_changed.emit(new)
        return True

    def restore(self, snapshot: Evaluation, label: str) -> None:
        """Undo/redo: bring the document to `snapshot`, one transaction and one audit row like any edit."""
        if self._rolling_back:
            return  # a refused edit's command leaving the stack: the document never held it
        document = self._document
        commit = self.lane.submit(
            lambda: apply_snapshot(document, snapshot, label), target=snapshot
        )
        commit.payload.update(restore=True, text=label)
        self._shown = snapshot
        if not self.background_edits:
            self.lane.settle()
            return
        self.evaluation_changed.emit(snapshot)

    def write_behind(self, work: Callable[[EvaluationDocument], object]) -> None:
        """A best-effort write after the edits queued (the kept first-paint table), on the lane:
        its failure refuses no edit, and a closed document takes none."""
        document = self._document

        def write() -> None:
            if document.is_closed:
                return
            try:
                work(document)
            except Exception:  # noqa: BLE001 (a display cache: the next open scores as before)
                return

        self.lane.submit(write).payload["behind"] = True

    def _on_committed(self, commit: Commit) -> None:
        """Each finished commit, in order, on the window's thread."""
        payload = commit.payload
        if payload.get("behind"):
            return
        if commit.written:
            if not payload.get("pushed") and not payload.get("restore"):  # waited for: push now
                self.undo_stack.push(
                    ReplaceSnapshotCommand(
                        self, payload["old"], commit.target, payload["text"], payload["merge_key"]
                    )
                )
                self.evaluation_changed.emit(self.evaluation)
            elif payload.get("restore") and not self.background_edits:
                self.evaluation_changed.emit(self.evaluation)
            return
        if isinstance(commit.outcome, Dropped):  # the refusal it follows was said already
            self._roll_back(commit, None if payload.get("pushed") else DROPPED_WORDS)
            return
        reason = str(commit.outcome)
        if payload.get("restore"):
            reason = f"Could not undo or redo: {reason}"
        if not isinstance(commit.outcome, InputError):
            reason = f"{payload.get('text', 'The change')} could not be saved: {reason}"
        self._roll_back(commit, reason)

    def _roll_back(self, commit: Commit, reason: str | None) -> None:
        """A refused (or dropped) commit: the window goes back to what the document holds, the
        edit leaves the undo stack, and the lane takes edits again."""
        self.lane.epoch += 1
        self._shown = None
        shown = commit.payload.get("pushed") or (
            commit.payload.get("restore") and self.background_edits
        )
        if shown:
            self._drop_unmade_commands(commit.target)
        if reason is not None:
            self.edit_refused.emit(reason)
        if shown or commit.payload.get("restore"):
            self.evaluation_changed.emit(self._document.evaluation)

    def _drop_unmade_commands(self, unmade: Evaluation) -> None:
        """Take the refused edit off the top of the undo stack. When the stack no longer leads to
        what the document holds (an undo refused, an edit refused halfway through a merged slider
        drag), the history ends here, as it does when another window changes the file."""
        committed, stack = self._document.evaluation, self.undo_stack
        top = stack.command(stack.index() - 1) if stack.index() > 0 else None
        if isinstance(top, ReplaceSnapshotCommand) and top.new is unmade and top.old == committed:
            self._rolling_back = True
            try:
                top.setObsolete(True)  # Qt deletes an obsolete command once undone
                stack.undo()
            finally:
                self._rolling_back = False
            return
        if top is None or not isinstance(top, ReplaceSnapshotCommand) or top.new != committed:
            stack.clear()

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
        self.document.close()  # once every edit made in it is committed
        self.undo_stack.clear()
        self._document, self._shown = document, None
        self.evaluation_changed.emit(self.evaluation)

    def close(self) -> None:
        """Closed once every edit made is committed: closing the window never loses one."""
        self.document.close()
        self.undo_stack.clear()
