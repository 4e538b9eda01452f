"""The bid wizard: `edit_bid_dialog` for the main window, `BidWizard` for tests."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QWidget

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation
from clusterbid.gui.wizard.bid_wizard import BidWizard
from clusterbid.gui.wizard.draft_store import DraftStore

__all__ = ["BidWizard", "DraftStore", "edit_bid_dialog"]


def edit_bid_dialog(
    parent: QWidget | None,
    evaluation: Evaluation,
    bid: Bid | None,
    *,
    draft_store: DraftStore | None = None,
    files_read: dict[str, tuple[str, bytes]] | None = None,
) -> Bid | None:
    """Add (bid=None) or edit a bid in a modal wizard; the validated Bid, or None on cancel.
    `files_read` gets SHA-256 -> (file name, bytes) of every evidence file the wizard read."""
    wizard = BidWizard(evaluation, bid, draft_store=draft_store, parent=parent)
    accepted = wizard.exec() == QDialog.DialogCode.Accepted
    if files_read is not None:
        files_read.update(wizard.evidence_page.files_read)
    return wizard.result_bid() if accepted else None
