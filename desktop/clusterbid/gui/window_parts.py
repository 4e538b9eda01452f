"""The parts every ClusterBid window is made of, whatever kind of evaluation it shows (issue 33
item 2): the session (its undo stack and the commit lane its edits are written on), the background
runner, the follower of the file on disk, bid edits, the memo handlers, and the records and help
dialogs. Composed here once, so the training and the serving window edit, commit, sign and help
alike; each window then lays out its kind's own views and builds its menus from these parts
(gui/window_actions.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QMainWindow

from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.background import BackgroundTasks
from clusterbid.gui.bid_commands import BidEditor
from clusterbid.gui.file_follower import FileFollower
from clusterbid.gui.info_dialogs import InfoDialogs
from clusterbid.gui.memo_commands import MemoCommands
from clusterbid.gui.session import Session


class WindowParts:
    """`selected_bid_id` and `scorecard` are read when a command runs (the window's selection and
    the figures it shows); `bid_options` go to the BidEditor (the wizard's draft, what follows an
    edit)."""

    def __init__(
        self,
        window: QMainWindow,
        document: EvaluationDocument,
        *,
        selected_bid_id: Callable[[], str | None],
        scorecard: Callable[[], Any],
        **bid_options: Any,
    ) -> None:
        self.session = Session(document, window)
        # Every edit is shown at once and committed behind, in order; undo and redo return at once
        # too. A refusal arrives later, rolls the window back and is said here.
        self.session.background_edits = True
        self.session.edit_refused.connect(
            lambda text: dialogs.show_problem(window, "This change was not made", text)
        )
        # The table, and what its ranks rest on after it, each on a thread of its own.
        self.tasks = BackgroundTasks(window, own_thread=("score", "default effects"))
        self.follower = FileFollower(
            self.session, lambda text: window.statusBar().showMessage(text, 15_000), window
        )
        self.bids = BidEditor(window, self.session, selected_bid_id, **bid_options)
        self.memos = MemoCommands(window, self.tasks, lambda: self.session.document, scorecard)
        self.info = InfoDialogs(window, self.session)
