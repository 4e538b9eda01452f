"""The serving window's Edit menu: add, edit, duplicate and delete serving bids, undo and redo.

A serving bid is the same Bid as a training bid (offer, fabric, reliability, terms, evidence), so
it is typed in the same wizard; every edit goes through a Session like the training window's, so
each is one audit row in the document and one undo step, and the ranking is re-scored at once.
"""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from clusterbid.gui import dialogs
from clusterbid.gui.bid_commands import BidEditor
from clusterbid.gui.file_follower import FileFollower
from clusterbid.gui.session import Session


class ServingBidEdits:
    """Mixed into ServingWindow; needs `document`, `table` (its `bid_ids` in row order) and `_rescore()`. The edits
    themselves are the training window's (BidEditor)."""

    def _build_edit_menu(self) -> None:
        self.session = Session(self.document, self)
        self.session.evaluation_changed.connect(lambda _evaluation: self._rescore())
        self.session.edit_refused.connect(
            lambda message: dialogs.show_problem(self, "This change was not made", message)
        )
        self.bids = BidEditor(self, self.session, self.selected_bid_id)
        self.follower = FileFollower(
            self.session, lambda text: self.statusBar().showMessage(text, 15_000), self
        )
        menu = self.menuBar().addMenu("&Edit")
        undo = self.session.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcuts(QKeySequence.StandardKey.Undo)
        redo = self.session.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")])
        menu.addActions([undo, redo])
        menu.addSeparator()
        self.add_bid_action = menu.addAction(
            "&Add Bid…", QKeySequence("Ctrl+Shift+N"), self.bids.add_bid
        )
        self.edit_bid_action = menu.addAction(
            "&Edit Bid…", QKeySequence("Ctrl+Return"), self.bids.edit_bid
        )
        self.duplicate_bid_action = menu.addAction(
            "Dupli&cate Bid", QKeySequence("Ctrl+D"), self.bids.duplicate_bid
        )
        self.delete_bid_action = menu.addAction(
            "&Delete Bid", QKeySequence("Del"), self.bids.delete_bid
        )
        menu.addSeparator()
        # Issue 31: the buyer's cost of capital and usual payment terms price every bid's terms.
        self.plan_inputs_action = menu.addAction("&Plan Inputs…", self._edit_plan_inputs)
        # the same operation as `clusterbid serving-evidence attach` (gui/serving_benchmark.py)
        self.attach_benchmark_action = menu.addAction(
            "Attach Serving &Benchmark…", self._attach_benchmark
        )
        self.table.doubleClicked.connect(lambda _index: self.bids.edit_bid())

    def _edit_plan_inputs(self) -> None:
        from clusterbid.gui.plan_dialog import (
            edit_plan_inputs,  # a dialog seldom opened: loaded when it is
        )

        edit_plan_inputs(self)

    def _attach_benchmark(self) -> None:
        from clusterbid.gui.serving_benchmark import attach_serving_benchmark

        attach_serving_benchmark(self)  # type: ignore[arg-type]  # mixed into ServingWindow

    def selected_bid_id(self) -> str | None:
        row = self.table.currentRow()
        return self.table.bid_ids[row] if 0 <= row < len(self.table.bid_ids) else None
