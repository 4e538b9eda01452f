"""Issue 39: a provider's third-party rating is entered and edited in the app (Edit > Provider
Ratings), not only in JSON: each refused field says why beneath it, in words; OK records one
audited edit (one undo step) through the operation `clusterbid rating` runs."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QDialog, QDialogButtonBox
from tests.gui.conftest import wait_for_scoring
from tests.gui.test_no_codes_where_officers_read import _codes, _widget_texts

from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.rating_dialog import ProviderRatingDialog

OK = QDialogButtonBox.StandardButton.Ok


def _visible_errors(dialog: ProviderRatingDialog) -> dict[str, str]:
    return {n: line.text() for n, line in dialog.errors.items() if line.isVisibleTo(dialog)}


def test_each_refused_field_says_why_beneath_it_and_ok_waits(qtbot, window):
    dialog = ProviderRatingDialog(window.session.evaluation, window)
    qtbot.addWidget(dialog)
    assert not _codes(_widget_texts(dialog))  # words, not field names
    # a fresh form: dated today, but no source yet, so OK waits for it
    assert dialog.rated_on.text() == dt.date.today().isoformat()
    assert set(_visible_errors(dialog)) == {"source"} and not dialog.buttons.button(OK).isEnabled()
    dialog.source.setText("SemiAnalysis ClusterMAX 2.0")
    dialog.rated_on.setText("1 November")
    dialog.categories.setText("Networking Gold")
    errors = _visible_errors(dialog)
    assert set(errors) == {"rated_on", "categories"}
    assert "YYYY-MM-DD" in errors["rated_on"] and "Category=Grade" in errors["categories"]
    assert not dialog.buttons.button(OK).isEnabled()
    dialog.rated_on.setText("2025-11-01")
    dialog.categories.setText("Networking=Gold; Security=Silver")
    assert not _visible_errors(dialog) and dialog.buttons.button(OK).isEnabled()
    assert not dialog.remove.isEnabled()  # nothing recorded yet to remove


def test_ok_records_one_audited_edit_that_undo_takes_back(qtbot, window, monkeypatch):
    wait_for_scoring(qtbot, window)
    before = window.session.evaluation
    rows = len(window.session.document.audit_rows())

    def answer(dialog: ProviderRatingDialog) -> int:
        dialog.provider.setCurrentText("Northwind AI Cloud")
        dialog.tier.setCurrentIndex(dialog.tier.findData("gold"))
        dialog.rated_on.setText("2025-11-01")
        dialog.source.setText("SemiAnalysis ClusterMAX 2.0")
        dialog.categories.setText("Networking=Gold")
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ProviderRatingDialog, "exec", answer)
    window.actions_.edit_ratings.trigger()
    (rating,) = window.session.evaluation.provider_ratings
    assert (rating.provider, rating.tier, rating.rated_on) == (
        "Northwind AI Cloud",
        "gold",
        dt.date(2025, 11, 1),
    )
    assert rating.categories == {"Networking": "Gold"}
    assert window.session.evaluation.bids == before.bids  # the bids' claims are untouched
    trail = window.session.document.audit_rows()
    assert len(trail) == rows + 1 and "Rate Northwind AI Cloud: Gold" in (trail[-1].new_json or "")
    with EvaluationDocument.open(window.session.document.path, read_only=True) as reopened:
        assert reopened.evaluation.provider_ratings == (rating,)  # in the file, replayed
    # Reopened, the dialog shows the recorded rating and can remove it (another audited edit).
    dialog = ProviderRatingDialog(window.session.evaluation, window)
    qtbot.addWidget(dialog)
    dialog.provider.setCurrentText("Northwind AI Cloud")
    assert dialog.source.text() == "SemiAnalysis ClusterMAX 2.0" and dialog.remove.isEnabled()
    assert dialog.categories.text() == "Networking=Gold"
    window.session.undo_stack.undo()
    assert window.session.evaluation == before
    wait_for_scoring(qtbot, window)
