"""The serving window's Edit menu: add, edit, duplicate and delete serving bids, undo and redo.

A serving bid is the same Bid as a training bid (offer, fabric, reliability, terms, evidence), so
it is typed in the same wizard; every edit goes through a Session like the training window's, so
each is one audit row in the document and one undo step, and the ranking is re-scored at once.
"""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from clusterbid.core.errors import InputError
from clusterbid.gui import dialogs
from clusterbid.gui.bid_commands import evidence_files, load_bid_wizard
from clusterbid.gui.edits import with_bid_duplicated, with_bid_replaced, with_bids_added, without_bid
from clusterbid.gui.session import Session


class ServingBidEdits:
    """Mixed into ServingWindow; needs `document`, `table`, `rows` and `_rescore()`."""

    def _build_edit_menu(self) -> None:
        self.session = Session(self.document, self)
        self.session.evaluation_changed.connect(lambda _evaluation: self._rescore())
        self.session.edit_refused.connect(lambda message: dialogs.show_problem(self, "This change was not made",
                                                                               message))
        menu = self.menuBar().addMenu("&Edit")
        undo = self.session.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcuts(QKeySequence.StandardKey.Undo)
        redo = self.session.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")])
        menu.addActions([undo, redo])
        menu.addSeparator()
        self.add_bid_action = menu.addAction("&Add Bid…", QKeySequence("Ctrl+Shift+N"), self.add_bid)
        self.edit_bid_action = menu.addAction("&Edit Bid…", QKeySequence("Ctrl+Return"), self.edit_bid)
        self.duplicate_bid_action = menu.addAction("Dupli&cate Bid", QKeySequence("Ctrl+D"), self.duplicate_bid)
        self.delete_bid_action = menu.addAction("&Delete Bid", QKeySequence("Del"), self.delete_bid)
        self.table.doubleClicked.connect(lambda _index: self.edit_bid())

    def selected_bid_id(self) -> str | None:
        row = self.table.currentRow()
        return self.rows[row]["bid id"] if 0 <= row < len(self.rows) else None

    def _selected_bid(self):
        bid_id = self.selected_bid_id()
        bid = next((b for b in self.session.evaluation.bids if b.id == bid_id), None)
        if bid is None:
            self.statusBar().showMessage("Select a bid in the table first.", 5000)
        return bid

    def _apply(self, build, text: str, files=()) -> bool:
        try:
            new = build()
        except InputError as exc:
            dialogs.show_problem(self, "This change was not made", str(exc))
            return False
        return self.session.apply(new, text, files=files)

    def add_bid(self) -> None:
        self._run_wizard(None)

    def edit_bid(self) -> None:
        bid = self._selected_bid()
        if bid is not None:
            self._run_wizard(bid)

    def _run_wizard(self, bid) -> None:
        evaluation, read = self.session.evaluation, {}
        result = load_bid_wizard()(self, evaluation, bid, files_read=read)
        if result is None:
            return
        files = evidence_files(result, read)
        if bid is None:
            self._apply(lambda: with_bids_added(evaluation, [result], f"the new bid {result.id}"),
                        f"Add bid {result.id}", files)
        else:
            self._apply(lambda: with_bid_replaced(evaluation, bid.id, result), f"Edit bid {result.id}", files)

    def duplicate_bid(self) -> None:
        bid = self._selected_bid()
        if bid is None:
            return
        try:
            new, _new_id = with_bid_duplicated(self.session.evaluation, bid.id)
        except InputError as exc:
            dialogs.show_problem(self, "This change was not made", str(exc))
            return
        self.session.apply(new, f"Duplicate bid {bid.id}")

    def delete_bid(self) -> None:
        bid = self._selected_bid()
        if bid is not None and self._apply(lambda: without_bid(self.session.evaluation, bid.id),
                                           f"Delete bid {bid.id}"):
            self.statusBar().showMessage(f"Deleted {bid.quote.provider} ({bid.id}). Undo brings it back.", 10_000)
