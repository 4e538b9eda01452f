"""Edit menu handlers of the main window: add, edit, duplicate and delete a bid, the workload."""

from __future__ import annotations

from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.gui import dialogs
from clusterbid.gui.edits import with_bid_duplicated, with_bid_replaced, with_bids_added, with_workload, without_bid


MEDIA_TYPES = {".json": "application/json", ".csv": "text/csv"}  # evidence files are text (formats doc)


def evidence_files(bid, read: dict) -> list:
    """The files the bid's evidence was read from in the wizard (NewArtefact), each once."""
    from clusterbid.core.store.artefacts import NewArtefact

    wanted = dict.fromkeys(e.artefact_sha256 for e in bid.evidence if e.artefact_sha256 in read)
    return [NewArtefact(bid.id, *read[sha256], media_type=MEDIA_TYPES.get(Path(read[sha256][0]).suffix.lower(),
                                                                           "text/plain"))
            for sha256 in wanted]


def load_bid_wizard():
    """The wizard's entry point, imported when first used so the window opens without it."""
    from clusterbid.gui.wizard import edit_bid_dialog

    return edit_bid_dialog


class BidEditing:
    """Add, edit, duplicate and delete a bid through the wizard and a Session, written once for the
    training and the serving window. Needs `session`, `selected_bid_id()` and a status bar;
    `_draft_store()` and `_after_edit(bid_id)` are hooks."""

    def _selected_bid(self):
        bid_id = self.selected_bid_id()
        bid = next((b for b in self.session.evaluation.bids if b.id == bid_id), None)
        if bid is None:
            self.statusBar().showMessage("Select a bid first.", 5000)
        return bid

    def _draft_store(self):
        return None  # the wizard's default place

    def _after_edit(self, bid_id: str) -> None:
        """Hook: what the window does with the bid just added or changed (select it)."""

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
        wizard = load_bid_wizard()
        evaluation = self.session.evaluation
        read: dict = {}  # SHA-256 -> (file name, bytes) of every evidence file the wizard read
        result = wizard(self, evaluation, bid, draft_store=self._draft_store(), files_read=read)
        if result is None:
            return
        files = evidence_files(result, read)  # kept with the edit, as `clusterbid evidence attach` keeps them
        if bid is None:
            done = self._apply(lambda: with_bids_added(evaluation, [result], f"the new bid {result.id}"),
                               f"Add bid {result.id}", files)
        else:
            done = self._apply(lambda: with_bid_replaced(evaluation, bid.id, result), f"Edit bid {result.id}", files)
        if done:
            self._after_edit(result.id)

    def duplicate_bid(self) -> None:
        bid = self._selected_bid()
        if bid is None:
            return
        try:
            new, new_id = with_bid_duplicated(self.session.evaluation, bid.id)
        except InputError as exc:
            dialogs.show_problem(self, "This change was not made", str(exc))
            return
        if self.session.apply(new, f"Duplicate bid {bid.id}"):
            self._after_edit(new_id)

    def delete_bid(self) -> None:
        bid = self._selected_bid()
        if bid is None:
            return
        if self._apply(lambda: without_bid(self.session.evaluation, bid.id), f"Delete bid {bid.id}"):
            self.statusBar().showMessage(f"Deleted {bid.quote.provider} ({bid.id}). Undo brings it back.", 10_000)


class BidCommands(BidEditing):
    """Mixed into MainWindow; every edit builds a validated snapshot and goes through the session."""

    def selected_bid_id(self) -> str | None:
        return self.comparison.selected_bid_id()

    def _draft_store(self):
        from clusterbid.gui.wizard import DraftStore

        # The draft sits beside the app's other data, so a crash mid-wizard loses nothing typed.
        return DraftStore(self.settings.data_dir / "bid-wizard-draft.json")

    def _after_edit(self, bid_id: str) -> None:
        self.pending_selection = bid_id

    def apply_workload(self, workload) -> None:
        self._apply(lambda: with_workload(self.session.evaluation, workload), "Edit workload")

    def apply_weights(self, weights: dict, merge_key: object) -> None:
        from clusterbid.gui.edits import with_weights

        try:
            new = with_weights(self.session.evaluation, weights)
        except InputError as exc:
            self.statusBar().showMessage(str(exc).splitlines()[-1].strip(" -"), 8000)
            self.weights.show_weights(self.session.evaluation.policy.weights)
            return
        self.session.apply(new, "Change weights", merge_key)
