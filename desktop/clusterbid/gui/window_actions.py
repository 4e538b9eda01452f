"""Menus and shortcuts, following platform conventions (QKeySequence standard keys)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

Key = QKeySequence.StandardKey


class WindowActions:
    """Every action of the main window, created once; handlers are the window's methods."""

    def __init__(self, window: QMainWindow) -> None:
        self._window = window
        w = window
        self.new = self._make("&New evaluation…", w.evaluations.new_evaluation, Key.New)
        self.open = self._make("&Open…", w.evaluations.open_evaluation_dialog, Key.Open)
        self.save_copy = self._make("Save a &Copy…", w.evaluations.save_copy, Key.SaveAs)
        self.import_bids = self._make("&Import Bids…", w.interchange.import_bids_dialog, "Ctrl+I")
        self.export_template = self._make("Export Bid &Template…", w.interchange.export_template)
        self.export_comparison = self._make(
            "E&xport Comparison…", w.interchange.export_comparison, "Ctrl+E"
        )
        self.export_memo = self._make(
            "Export Approval &Memo…", w.memos.export_memo_dialog, "Ctrl+M"
        )
        self.sign_memo = self._make("&Sign a Memo…", w.memos.sign_memo_dialog)
        self.verify_memo = self._make("&Verify a Memo…", w.memos.verify_memo_dialog)
        self.seal_memo = self._make("Seal for the Arc&hive…", w.memos.seal_memo_dialog)
        self.trusted_certificates = self._make(
            "Approvers and Trusted C&ertificates…", w.info.show_trusted_certificates
        )
        self.audit_trail = self._make("&Audit Trail…", w.info.show_audit_trail)
        self.panel = self._make("Evaluation &Panel…", w.info.show_panel)
        self.quit = self._make("&Quit", w.close, Key.Quit)
        self.undo = w.session.undo_stack.createUndoAction(w, "&Undo")
        self.undo.setShortcuts(Key.Undo)
        self.redo = w.session.undo_stack.createRedoAction(w, "&Redo")
        # Ctrl+Y and Ctrl+Shift+Z both redo everywhere (Qt's standard binding gives one per platform).
        self.redo.setShortcuts(
            list(
                dict.fromkeys(
                    [
                        *QKeySequence.keyBindings(Key.Redo),
                        QKeySequence("Ctrl+Y"),
                        QKeySequence("Ctrl+Shift+Z"),
                    ]
                )
            )
        )
        self.add_bid = self._make("&Add Bid…", w.bids.add_bid, "Ctrl+Shift+N")
        self.edit_bid = self._make("&Edit Bid…", w.bids.edit_bid, "Ctrl+Return")
        self.duplicate_bid = self._make("Dupli&cate Bid", w.bids.duplicate_bid, "Ctrl+D")
        # The Delete key only: X11's standard Delete bindings add Ctrl+D, which is Duplicate here.
        self.delete_bid = self._make("&Delete Bid", w.bids.delete_bid, "Del")
        self.acceptance_plan = self._make("Write Acceptance &Plan…", w.acceptance.write_plan_dialog)
        self.acceptance_status = self._make("Acceptance Result&s…", w.acceptance.show_status)
        self.edit_workload = self._make("Edit &Workload", w.show_workload_editor, "Ctrl+Shift+W")
        self.edit_plan = self._make("Plan I&nputs…", w.show_plan_inputs)
        self.edit_ratings = self._make("Provider Ratin&gs…", w.show_provider_ratings)
        self.zoom_in = self._make("Presentation Zoom &In", lambda: w.zoom_by(+1), Key.ZoomIn)
        self.zoom_out = self._make("Presentation Zoom &Out", lambda: w.zoom_by(-1), Key.ZoomOut)
        self.zoom_reset = self._make("&Actual Size", w.zoom_reset, "Ctrl+0")
        self.methodology = self._make("&Methodology", w.info.show_methodology, Key.HelpContents)
        self.documentation = self._make("&Documentation", w.info.show_documentation)
        self.about = self._make("&About ClusterBid", w.info.show_about)
        self.recent_menu = QMenu("Open &Recent", w)
        self.recent_menu.aboutToShow.connect(w.fill_recent_menu)

    def _make(self, text: str, handler: Callable, shortcut: Key | str | None = None) -> QAction:
        action = QAction(text, self._window)
        if isinstance(shortcut, Key):
            action.setShortcuts(shortcut)  # every platform binding, e.g. Ctrl+Y and Ctrl+Shift+Z
        elif shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: handler())
        return action

    def build_menus(self, docks: list) -> None:
        bar = self._window.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new, self.open])
        file_menu.addMenu(self.recent_menu)
        file_menu.addAction(self.save_copy)
        file_menu.addSeparator()
        file_menu.addActions([self.import_bids, self.export_template, self.export_comparison])
        file_menu.addSeparator()
        file_menu.addActions(
            [
                self.export_memo,
                self.sign_memo,
                self.verify_memo,
                self.seal_memo,
                self.trusted_certificates,
                self.audit_trail,
                self.panel,
            ]
        )
        file_menu.addSeparator()
        file_menu.addAction(self.quit)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.undo, self.redo])
        edit_menu.addSeparator()
        edit_menu.addActions([self.add_bid, self.edit_bid, self.duplicate_bid, self.delete_bid])
        edit_menu.addActions([self.acceptance_plan, self.acceptance_status])
        edit_menu.addSeparator()
        edit_menu.addActions([self.edit_workload, self.edit_plan, self.edit_ratings])
        view_menu = bar.addMenu("&View")
        zoom_menu = view_menu.addMenu("&Presentation Zoom")
        zoom_menu.addActions([self.zoom_in, self.zoom_out, self.zoom_reset])
        view_menu.addSeparator()
        for dock in docks:
            view_menu.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.methodology, self.documentation, self.about])
