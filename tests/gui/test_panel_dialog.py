"""File > Evaluation Panel runs the panel's operations over the window's document: the invitation
writes the copies, a copy's judgement is taken in its own window, a merge (or a refusal, in
words) shows under the tabs, and the window takes in the rows the dialog wrote."""

from __future__ import annotations

from tests.gui.test_no_codes_where_officers_read import _codes, _widget_texts

from clusterbid.core.store import EvaluationDocument, audit
from clusterbid.gui.panel_dialog import PanelDialog
from clusterbid.gui.session import Session


def test_invite_judge_merge_and_consensus_through_the_dialog(qtbot, window, tmp_path):
    window.actions_.panel.trigger()
    dialog = window.info.panel_dialog
    assert isinstance(dialog, PanelDialog) and [dialog.tabs.tabText(i) for i in range(3)] == [
        "Invite",
        "Merge",
        "Status and consensus",
    ]
    dialog.evaluators.setPlainText("Ana Ruiz, Technical lead\nBen Okafor, Commercial\n")
    dialog.criteria.setText("Technical approach")
    dialog.folder.setText(str(tmp_path / "copies"))
    dialog.invite()
    assert "panel-ben-okafor.clusterbid" in dialog.result.toPlainText()
    # the window took in the two invitation rows the operation wrote to its file
    assert [r.action for r in window.session.document.audit_rows()][-2:] == [audit.PANEL_INVITE] * 2

    for name, support in (("ana-ruiz", "40"), ("ben-okafor", "0")):
        with EvaluationDocument.open(tmp_path / "copies" / f"panel-{name}.clusterbid") as copy:
            session = Session(copy)
            judging = PanelDialog(session)
            qtbot.addWidget(judging)
            assert judging.tabs.tabText(0) == "Your judgement" and judging.tabs.count() == 1
            judging.weights.setPlainText(f"Support={support}\nNet plan cost=500")
            judging.judge()
            assert (
                "refused" in judging.result.toPlainText()
                and "(0-100)" in judging.result.toPlainText()
            )
            judging.weights.setPlainText(f"Support={support}")
            judging.judge()
            assert "Recorded your judgement" in judging.result.toPlainText()

    copies = sorted((tmp_path / "copies").glob("*.clusterbid"))
    dialog.merge([*copies, window.session.document.path])
    shown = dialog.result.toPlainText()
    assert "Ana Ruiz's judgement merged" in shown and "Ben Okafor's judgement merged" in shown
    assert "demo.clusterbid was not merged: it is not an evaluator's copy" in shown

    dialog.item_criterion.setText("Support")
    dialog.rationale.setPlainText("Support matters for a year-long run")
    dialog.agreed.setText("20")
    dialog.dissent.setPlainText("Ben Okafor: the model already scores support")
    dialog.record_consensus()
    assert "Recorded: agreed value 20, with 1 dissent" in dialog.result.toPlainText()
    assert window.session.document.audit_rows()[-1].action == audit.PANEL_CONSENSUS
    dialog.show_status()  # off the window's thread: the button waits until the status is shown
    assert not dialog.status_button.isEnabled()
    qtbot.waitUntil(dialog.status_button.isEnabled, timeout=60_000)
    # Ana kept the demo policy's other weights (70+8+5+5+4+5 = 97) and gave support 40: 40/137 = 29.2%.
    assert (
        "Weight of Support: Ana Ruiz 29.2%; Ben Okafor 0.0% (spread 29.2 percentage points); "
        "agreed: 20.0%" in (dialog.result.toPlainText())
    )
    # the dialog, its tabs and the status it shows speak in words, not codes (the folder typed
    # in is the test's own path, not the dialog's words)
    dialog.folder.clear()
    texts = _widget_texts(dialog) + [("status", dialog.result.toPlainText())]
    assert _codes(texts) == []
