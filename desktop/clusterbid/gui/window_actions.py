"""Menus and shortcuts of every ClusterBid window, following platform conventions (QKeySequence
standard keys). One builder for the training and the serving window alike: the records, the memo,
bid edits, plan inputs, provider ratings, zoom and help are the same actions calling the same
handlers; what only one kind offers is a menu group, named per kind in `MENU_GROUPS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.kinds import SERVING, TRAINING, kind_of

Key = QKeySequence.StandardKey

# The groups a window may offer beyond the shared actions; each names the parts the window holds.
DOCUMENTS = "documents"  # new, open, recent, save a copy, quit: `evaluations`, `fill_recent_menu`
BID_SHEETS = "bid sheets"  # import bids, bid template: `interchange`
PANEL = "panel"  # the evaluation panel: `info.show_panel`
ACCEPTANCE = "acceptance"  # acceptance plan and results: `acceptance`
WORKLOAD_EDITOR = "workload editor"  # the workload pane: `show_workload_editor`
SERVING_BENCHMARK = "serving benchmark"  # attach a serving benchmark file to the selected bid
FRONTIER = "frontier"  # the serving frontier chart: `show_frontier`
SERVING_REQUESTS = "serving requests"  # the selected bid's request for evidence (a serving pack)
SEP = "-"  # a separator in a menu's list of entries

# What each kind's window offers beyond the shared actions. Serving has no evaluation panel and no
# acceptance tests yet (core/kinds.py `has_panel`), its workload is edited in the wizard's terms
# and Plan Inputs, and its evaluations are opened from the main window, which stays open.
MENU_GROUPS: dict[str, frozenset[str]] = {
    TRAINING.tag: frozenset({DOCUMENTS, BID_SHEETS, PANEL, ACCEPTANCE, WORKLOAD_EDITOR}),
    SERVING.tag: frozenset({SERVING_BENCHMARK, FRONTIER, SERVING_REQUESTS}),
}


def menu_groups(evaluation: Evaluation) -> frozenset[str]:
    """The menu groups the window showing `evaluation` offers, looked up by its kind."""
    return MENU_GROUPS[kind_of(evaluation).tag]


def _plan_inputs(window: Any) -> None:
    from clusterbid.gui.plan_dialog import edit_plan_inputs  # a dialog seldom opened

    edit_plan_inputs(window)


def _provider_ratings(window: Any) -> None:
    from clusterbid.gui.rating_dialog import edit_provider_ratings  # loaded when opened

    edit_provider_ratings(window)


def _serving_benchmark(window: Any) -> None:
    from clusterbid.gui.serving_benchmark import attach_serving_benchmark

    attach_serving_benchmark(window)


def _serving_requests(window: Any) -> None:
    from clusterbid.gui.serving_requests import request_serving_evidence

    request_serving_evidence(window)


class WindowActions:
    """Every action of one window, created once. The window holds its parts (`session`, `memos`,
    `info`, `bids`) and `export_comparison`, `zoom_by`, `zoom_reset`; an action of a group the
    window does not offer is None and in no menu."""

    def __init__(self, window: QMainWindow, groups: frozenset[str] = frozenset()) -> None:
        self._window, self.groups = window, groups
        w: Any = window
        self.export_comparison = self._make("E&xport Comparison…", w.export_comparison, "Ctrl+E")
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
        self.undo = w.session.undo_stack.createUndoAction(w, "&Undo")
        self.undo.setShortcuts(Key.Undo)
        self.redo = w.session.undo_stack.createRedoAction(w, "&Redo")
        # Ctrl+Y and Ctrl+Shift+Z both redo everywhere (Qt's standard binding gives one per platform).
        redo_keys = [*QKeySequence.keyBindings(Key.Redo), QKeySequence("Ctrl+Y")]
        self.redo.setShortcuts(list(dict.fromkeys([*redo_keys, QKeySequence("Ctrl+Shift+Z")])))
        self.add_bid = self._make("&Add Bid…", w.bids.add_bid, "Ctrl+Shift+N")
        self.edit_bid = self._make("&Edit Bid…", w.bids.edit_bid, "Ctrl+Return")
        self.duplicate_bid = self._make("Dupli&cate Bid", w.bids.duplicate_bid, "Ctrl+D")
        # The Delete key only: X11's standard Delete bindings add Ctrl+D, which is Duplicate here.
        self.delete_bid = self._make("&Delete Bid", w.bids.delete_bid, "Del")
        self.edit_plan = self._make("Plan I&nputs…", lambda: _plan_inputs(w))
        self.edit_ratings = self._make("Provider Ratin&gs…", lambda: _provider_ratings(w))
        self.zoom_in = self._make("Presentation Zoom &In", lambda: w.zoom_by(+1), Key.ZoomIn)
        self.zoom_out = self._make("Presentation Zoom &Out", lambda: w.zoom_by(-1), Key.ZoomOut)
        self.zoom_reset = self._make("&Actual Size", w.zoom_reset, "Ctrl+0")
        self.methodology = self._make("&Methodology", w.info.show_methodology, Key.HelpContents)
        self.documentation = self._make("&Documentation", w.info.show_documentation)
        self.about = self._make("&About ClusterBid", w.info.show_about)
        self._kind_actions(w)

    def _kind_actions(self, w: Any) -> None:
        """The actions of the groups only some kinds offer (None where the window has no such
        part); the lambdas read the window's parts when triggered, not now."""
        self.new = self._offer(
            DOCUMENTS, "&New evaluation…", lambda: w.evaluations.new_evaluation(), Key.New
        )
        self.open = self._offer(
            DOCUMENTS, "&Open…", lambda: w.evaluations.open_evaluation_dialog(), Key.Open
        )
        # A window of its own beside the main one closes; the main window quits the app.
        self.quit = (
            self._make("&Quit", w.close, Key.Quit)
            if DOCUMENTS in self.groups
            else self._make("&Close", w.close, Key.Close)
        )
        self.recent_menu = QMenu("Open &Recent", w) if DOCUMENTS in self.groups else None
        if self.recent_menu is not None:
            self.recent_menu.aboutToShow.connect(w.fill_recent_menu)
        self.save_copy = self._offer(
            DOCUMENTS, "Save a &Copy…", lambda: w.evaluations.save_copy(), Key.SaveAs
        )
        self.import_bids = self._offer(
            BID_SHEETS, "&Import Bids…", lambda: w.interchange.import_bids_dialog(), "Ctrl+I"
        )
        self.export_template = self._offer(
            BID_SHEETS, "Export Bid &Template…", lambda: w.interchange.export_template()
        )
        self.panel = self._offer(PANEL, "Evaluation &Panel…", lambda: w.info.show_panel())
        self.acceptance_plan = self._offer(
            ACCEPTANCE, "Write Acceptance &Plan…", lambda: w.acceptance.write_plan_dialog()
        )
        self.acceptance_status = self._offer(
            ACCEPTANCE, "Acceptance Result&s…", lambda: w.acceptance.show_status()
        )
        self.edit_workload = self._offer(
            WORKLOAD_EDITOR, "Edit &Workload", lambda: w.show_workload_editor(), "Ctrl+Shift+W"
        )
        # the same operation as `clusterbid serving-evidence attach` (gui/serving_benchmark.py)
        self.attach_benchmark = self._offer(
            SERVING_BENCHMARK, "Attach Serving &Benchmark…", lambda: _serving_benchmark(w)
        )
        self.frontier = self._offer(FRONTIER, "Serving &Frontier…", lambda: w.show_frontier())
        # the same operation as `clusterbid request-evidence` (gui/serving_requests.py)
        self.request_evidence = self._offer(
            SERVING_REQUESTS, "Re&quest Evidence…", lambda: _serving_requests(w)
        )

    def _make(self, text: str, handler: Callable, shortcut: Key | str | None = None) -> QAction:
        action = QAction(text, self._window)
        if isinstance(shortcut, Key):
            action.setShortcuts(shortcut)  # every platform binding, e.g. Ctrl+Y and Ctrl+Shift+Z
        elif shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: handler())
        return action

    def _offer(self, group: str, text: str, handler: Callable, shortcut=None) -> QAction | None:
        return self._make(text, handler, shortcut) if group in self.groups else None

    def build_menus(self, docks: list) -> None:
        """File, Edit, View and Help, in the same order in every window; a group's actions where
        the main window has them."""
        bar = self._window.menuBar()
        file_menu = bar.addMenu("&File")
        _add(file_menu, self.new, self.open)
        if self.recent_menu is not None:
            file_menu.addMenu(self.recent_menu)
        _add(file_menu, self.save_copy, SEP, self.import_bids, self.export_template)
        _add(file_menu, self.export_comparison, SEP, self.export_memo, self.sign_memo)
        _add(file_menu, self.verify_memo, self.seal_memo, self.trusted_certificates)
        _add(file_menu, self.audit_trail, self.panel, self.request_evidence, SEP, self.quit)
        edit_menu = bar.addMenu("&Edit")
        _add(edit_menu, self.undo, self.redo, SEP, self.add_bid, self.edit_bid)
        _add(edit_menu, self.duplicate_bid, self.delete_bid, self.acceptance_plan)
        _add(edit_menu, self.acceptance_status, self.attach_benchmark, SEP, self.edit_workload)
        _add(edit_menu, self.edit_plan, self.edit_ratings)
        view_menu = bar.addMenu("&View")
        zoom_menu = view_menu.addMenu("&Presentation Zoom")
        _add(zoom_menu, self.zoom_in, self.zoom_out, self.zoom_reset)
        _add(view_menu, SEP, self.frontier, *(dock.toggleViewAction() for dock in docks))
        help_menu = bar.addMenu("&Help")
        _add(help_menu, self.methodology, self.documentation, self.about)


def _add(menu: QMenu, *entries: QAction | str | None) -> None:
    """The entries in order, skipping the actions a window does not offer (None); SEP is a
    separator (never two in a row, nor one first)."""
    for entry in entries:
        if isinstance(entry, QAction):
            menu.addAction(entry)
        elif entry == SEP and menu.actions() and not menu.actions()[-1].isSeparator():
            menu.addSeparator()
