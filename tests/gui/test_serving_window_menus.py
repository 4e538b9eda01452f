"""Issue 33 item 2: the serving window's menus are every window's (gui/window_actions.py): Help,
Edit > Provider Ratings, the records and the memo are the main window's actions calling the same
handlers, and its edits are committed on the session's commit lane, off the window's thread."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox
from tests.gui.conftest import wait_for_serving_scores
from tests.gui.test_edit_commit_off_window_thread import _record_commit_threads
from tests.gui.test_menus import _accelerators
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.rating_dialog import ProviderRatingDialog

# Typed by hand from the menus as an officer sees them (the accelerator marks left out).
SERVING_MENUS = {
    "File": [
        "Export Comparison…",
        "-",
        "Export Approval Memo…",
        "Sign a Memo…",
        "Verify a Memo…",
        "Seal for the Archive…",
        "Approvers and Trusted Certificates…",
        "Audit Trail…",
        "Request Evidence…",  # the selected bid's serving pack (gui/serving_requests.py)
        "-",
        "Close",
    ],
    "Edit": [
        "Undo",
        "Redo",
        "-",
        "Add Bid…",
        "Edit Bid…",
        "Duplicate Bid",
        "Delete Bid",
        "Attach Serving Benchmark…",
        "-",
        "Plan Inputs…",
        "Provider Ratings…",
    ],
    "View": ["Presentation Zoom", "-", "Serving Frontier…"],
    "Help": ["Methodology", "Documentation", "About ClusterBid"],
}


@pytest.fixture
def serving(serving_window, dialog_log):
    return serving_window  # tests/gui/conftest.py


def _menus(window) -> dict[str, list[str]]:
    return {
        top.text().replace("&", ""): [
            "-" if a.isSeparator() else a.text().replace("&", "") for a in top.menu().actions()
        ]
        for top in window.menuBar().actions()
    }


def test_the_serving_window_has_the_shared_menus_and_its_own_entries(serving):
    assert _menus(serving) == SERVING_MENUS
    for top in serving.menuBar().actions():  # a keyboard user reaches each entry by one letter
        letters = _accelerators(top.menu())
        assert len(letters) == len(set(letters)), (top.text(), letters)


def test_the_main_window_keeps_its_training_menus(window):
    """The builder the serving window now shares still gives the main window every entry."""
    menus = _menus(window)
    assert menus["File"][:4] == ["New evaluation…", "Open…", "Open Recent", "Save a Copy…"]
    assert menus["File"][-3:] == ["Evaluation Panel…", "-", "Quit"]
    assert "Write Acceptance Plan…" in menus["Edit"] and "Edit Workload" in menus["Edit"]
    assert "Attach Serving Benchmark…" not in menus["Edit"]
    assert menus["View"][:2] == ["Presentation Zoom", "-"]
    assert "Serving Frontier…" not in menus["View"] and "Outline" in menus["View"]
    assert menus["Help"] == SERVING_MENUS["Help"]


def test_help_opens_the_methodology_and_about_from_the_serving_window(serving, monkeypatch):
    from clusterbid.gui.help_dialogs import MethodologyDialog

    opened: list[str] = []

    def shown_instead(dialog) -> int:
        opened.append(dialog.browser.toPlainText())
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(MethodologyDialog, "exec", shown_instead)
    serving.actions_.methodology.trigger()
    # The methodology's serving section, not a placeholder: it prices a million output tokens.
    assert opened and "million output tokens" in opened[0]
    about: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda _parent, _title, text: about.append(text))
    serving.actions_.about.trigger()
    assert about and "inference" in about[0]
    serving.actions_.documentation.trigger()
    assert serving.info.documentation_dialog.isVisible()  # non-modal, beside the window
    serving.info.documentation_dialog.close()


def test_the_audit_trail_opens_over_the_serving_document(serving):
    serving.actions_.audit_trail.trigger()
    dialog = serving.info.audit_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.parent() is serving  # over this window's document, not the main window's
    dialog.close()


def test_a_provider_rating_made_in_the_serving_window_is_scored_and_undone(
    qtbot, serving, monkeypatch
):
    before = serving.session.evaluation
    rows = len(serving.session.document.audit_rows())

    def answer(dialog: ProviderRatingDialog) -> int:
        dialog.provider.setCurrentText("Helio Inference Cloud")
        dialog.tier.setCurrentIndex(dialog.tier.findData("gold"))
        dialog.rated_on.setText("2026-10-01")
        dialog.source.setText("SemiAnalysis ClusterMAX 2.0")
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ProviderRatingDialog, "exec", answer)
    serving.actions_.edit_ratings.trigger()
    (rating,) = serving.session.evaluation.provider_ratings
    assert (rating.provider, rating.tier, rating.rated_on) == (
        "Helio Inference Cloud",
        "gold",
        dt.date(2026, 10, 1),
    )
    wait_for_serving_scores(qtbot, serving)
    helio = next(s for s in serving.scorecard.scores if s.bid.id == "helio-h200")
    # ClusterMAX's five tiers evenly spaced from 0 to 1 (methodology section 6): Gold is 3/4.
    assert helio.criteria["provider_rating"] == pytest.approx(3 / 4)
    others = [s for s in serving.scorecard.scores if s.bid.id != "helio-h200"]
    assert all(s.criteria["provider_rating"] == 0 for s in others)  # unrated providers
    assert len(serving.session.document.audit_rows()) == rows + 1
    serving.session.undo_stack.undo()
    wait_for_serving_scores(qtbot, serving)
    assert serving.session.evaluation == before
    assert len(serving.session.document.audit_rows()) == rows + 2  # the undo is audited too


def test_serving_edits_and_undo_are_committed_off_the_window_thread(qtbot, serving, monkeypatch):
    threads = _record_commit_threads(monkeypatch)
    serving.table.selectRow(serving.table.bid_ids.index("quarry-h100"))
    serving.actions_.duplicate_bid.trigger()
    wait_for_serving_scores(qtbot, serving)
    assert "quarry-h100-copy" in serving.table.bid_ids
    waited: list[int] = []
    real_settle = serving.session.lane.settle
    monkeypatch.setattr(serving.session.lane, "settle", lambda: waited.append(1) or real_settle())
    serving.actions_.undo.trigger()
    # Undo returns before its commit (no wait for the lane): the state it goes back to shows at once.
    assert waited == []
    assert "quarry-h100-copy" not in [b.id for b in serving.session.evaluation.bids]
    qtbot.waitUntil(lambda: not serving.session.lane.unfinished(), timeout=HANG_GUARD_MS)
    wait_for_serving_scores(qtbot, serving)
    assert threads == [False, False]  # the duplicate and its undo, each on the commit lane
    with EvaluationDocument.open(serving.session.document.path, read_only=True) as reopened:
        assert "quarry-h100-copy" not in [b.id for b in reopened.evaluation.bids]


def test_a_refused_serving_commit_is_said_and_the_window_rolls_back(
    qtbot, serving, dialog_log, monkeypatch
):
    from clusterbid.core.errors import InputError
    from clusterbid.gui import session as session_module

    def refuse(*_args, **_kwargs):
        raise InputError("the disk is full")

    rows = len(serving.session.document.audit_rows())
    monkeypatch.setattr(session_module, "apply_snapshot", refuse)
    serving.session.undo_stack.clear()
    evaluation = serving.session.evaluation
    bids = [b.model_dump() for b in evaluation.bids if b.id != "quarry-h100"]
    serving.session.apply(
        type(evaluation).model_validate({**evaluation.model_dump(), "bids": bids}),
        "Delete bid quarry-h100",
        wait=False,
    )
    qtbot.waitUntil(lambda: bool(dialog_log.shown), timeout=HANG_GUARD_MS)
    assert dialog_log.shown[0][:2] == ("problem", "This change was not made")
    assert "the disk is full" in dialog_log.shown[0][2]
    wait_for_serving_scores(qtbot, serving)
    assert "quarry-h100" in serving.table.bid_ids  # rolled back to what the document holds
    assert serving.session.undo_stack.count() == 0
    assert len(serving.session.document.audit_rows()) == rows  # nothing written
