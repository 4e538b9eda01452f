"""Edit menu handlers: add, edit, duplicate and delete a bid (BidEditor, one per window)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.reading import media_type_of
from clusterbid.gui import dialogs
from clusterbid.gui.edits import (
    with_bid_duplicated,
    with_bid_replaced,
    with_bids_added,
    without_bid,
)

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from clusterbid.core.evaluation import Evaluation
    from clusterbid.gui.session import Session


def evidence_files(bid, read: dict) -> list:
    """The files the bid's evidence was read from in the wizard (NewArtefact), each once."""
    from clusterbid.core.store.artefacts import NewArtefact

    wanted = dict.fromkeys(e.artefact_sha256 for e in bid.evidence if e.artefact_sha256 in read)
    return [
        NewArtefact(
            bid.id,
            *read[sha256],
            media_type=media_type_of(read[sha256][1]),  # as the CLI keeps it (formats.py)
        )
        for sha256 in wanted
    ]


def load_bid_wizard():
    """The wizard's entry point, imported when first used so the window opens without it."""
    from clusterbid.gui.wizard import edit_bid_dialog

    return edit_bid_dialog


class BidEditor:
    """Add, edit, duplicate and delete a bid through the wizard and a Session, for the training and
    the serving window alike. What it needs is given: the window (dialogs' parent, status bar), its
    session, which bid is selected, where the wizard keeps its draft (None: the wizard's default
    place), and what the window does with a bid just added or changed (select it)."""

    def __init__(
        self,
        window: QMainWindow,
        session: Session,
        selected_bid_id: Callable[[], str | None],
        *,
        draft_store: Callable[[], object] = lambda: None,
        after_edit: Callable[[str], None] = lambda _bid_id: None,
    ) -> None:
        self.window, self.session = window, session
        self._selected_bid_id, self._draft_store, self._after_edit = (
            selected_bid_id,
            draft_store,
            after_edit,
        )

    def _selected_bid(self):
        bid_id = self._selected_bid_id()
        bid = next((b for b in self.session.evaluation.bids if b.id == bid_id), None)
        if bid is None:
            self.window.statusBar().showMessage("Select a bid first.", 5000)
        return bid

    def apply(
        self, build: Callable[[], Evaluation], text: str, files=(), *, wait: bool = True
    ) -> bool:
        """Build the new evaluation and commit it as one undo step; a refusal is shown, nothing
        changes. `wait=False`: committed behind, a refusal shown when it comes (gui/session.py)."""
        try:
            new = build()
        except InputError as exc:
            dialogs.show_problem(self.window, "This change was not made", str(exc))
            return False
        return self.session.apply(new, text, files=files, wait=wait)

    def add_bid(self) -> None:
        self._run_wizard(None)

    def edit_bid(self) -> None:
        bid = self._selected_bid()
        if bid is not None:
            self._run_wizard(bid)

    def _run_wizard(self, bid) -> None:
        wizard = load_bid_wizard()
        evaluation = self.session.evaluation
        read: dict = {}  # SHA-256 -> (file name, bytes) of every evidence file the wizard read
        result = wizard(
            self.window, evaluation, bid, draft_store=self._draft_store(), files_read=read
        )
        if result is None:
            return
        files = evidence_files(
            result, read
        )  # kept with the edit, as `clusterbid evidence attach` keeps them
        if bid is None:
            done = self.apply(
                lambda: with_bids_added(evaluation, [result], f"the new bid {result.id}"),
                f"Add bid {result.id}",
                files,
            )
        else:
            done = self.apply(
                lambda: with_bid_replaced(evaluation, bid.id, result),
                f"Edit bid {result.id}",
                files,
            )
        if done:
            self._after_edit(result.id)

    def duplicate_bid(self) -> None:
        bid = self._selected_bid()
        if bid is None:
            return
        try:
            new, new_id = with_bid_duplicated(self.session.evaluation, bid.id)
        except InputError as exc:
            dialogs.show_problem(self.window, "This change was not made", str(exc))
            return
        if self.session.apply(new, f"Duplicate bid {bid.id}"):
            self._after_edit(new_id)

    def delete_bid(self) -> None:
        bid = self._selected_bid()
        if bid is None:
            return
        if self.apply(lambda: without_bid(self.session.evaluation, bid.id), f"Delete bid {bid.id}"):
            self.window.statusBar().showMessage(
                f"Deleted {bid.quote.provider} ({bid.id}). Undo brings it back.", 10_000
            )
