"""Issue 38 item 2: the app's Verify tells "the memo is intact and signed as made; the evaluation
changed since, at audit rows N-M" apart from "the memo was altered", verdict first and the reasons
above the report; a failed trust check offers the evaluation's Trusted Approver Certificates."""

from __future__ import annotations

import io

from pyhanko.pdf_utils.reader import PdfFileReader
from tests.gui.test_no_codes_where_officers_read import COMMAND_HINT
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.cli import main as cli_main
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.signoff import VERDICT_COLOURS
from clusterbid.gui.memo.verify_dialog import CHANGED_SINCE_COLOUR, VerifyReportDialog


def _memo_of_the_open_document(window, tmp_path):
    """A memo made from the window's history as it stands now (a copy shares its audit rows)."""
    copy, memo = tmp_path / "copy.clusterbid", tmp_path / "memo.pdf"
    window.session.document.save_copy(copy)
    assert (
        cli_main(
            [
                "memo",
                str(copy),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "200",
            ]
        )
        == 0
    )
    return memo


def _verify_in_the_app(qtbot, window, dialog_log, memo) -> VerifyReportDialog:
    dialog_log.answers.append(str(memo))
    window.actions_.verify_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    return window.memos.verify_dialog


def test_an_evaluation_edited_after_the_memo_is_not_an_altered_memo(
    qtbot, window, dialog_log, tmp_path
):
    memo = _memo_of_the_open_document(window, tmp_path)
    document = window.session.document
    head = document.audit_rows()[-1].seq  # the memo's anchor: the last row when it was made
    # Two edits after the memo: the last two bids withdrawn, one audit row each.
    for bid in document.evaluation.bids[-2:]:
        document.remove_bid(bid.id)
    edits = [row.seq for row in document.audit_rows() if row.seq > head]
    assert edits == [head + 1, head + 2]

    dialog = _verify_in_the_app(qtbot, window, dialog_log, memo)
    # Not signed yet, so not proven: amber, never the red a tampered memo gets.
    assert VERDICT_COLOURS["INVALID"] not in dialog.verdict.text()
    assert f"color:{VERDICT_COLOURS['INDETERMINATE']}" in dialog.verdict.text()
    assert dialog.changed_since.isVisibleTo(dialog)
    said = dialog.changed_since.text()
    assert CHANGED_SINCE_COLOUR in said and "intact as made" in said  # not signed yet
    assert f"rows #{head + 1}-#{head + 2}" in said
    # The reasons sit above the report; what is not proven is the missing signature only.
    reasons = dialog.reasons.text()
    assert "Not proven here" in reasons and "not yet signed" in reasons
    assert "Proven wrong" not in dialog.report.toPlainText()
    layout = dialog.layout()
    assert [layout.itemAt(i).widget() for i in range(3)] == [
        dialog.verdict,
        dialog.changed_since,
        dialog.reasons,
    ]
    # No approver is registered in the document: the report says to register them in the app's
    # own dialog, never with the command line's `clusterbid approvers`.
    report = dialog.report.toPlainText()
    assert (
        "register approvers before a memo is made: Add approver in Approvers and Trusted" in report
    )
    assert COMMAND_HINT.findall(report) == []
    assert not dialog.certificates_button.isVisibleTo(dialog)  # no signature, no trust to check
    assert not dialog.any_order_button.isVisibleTo(dialog)
    dialog.close()

    # The same memo stating another SHA-256 for its inputs is altered: red, with the finding.
    pdf = memo.read_bytes()
    stated = read_attached_inputs(PdfFileReader(io.BytesIO(pdf))).printed_sha256[0].encode()
    other = stated[:-1] + (b"0" if stated[-1:] != b"0" else b"1")
    memo.write_bytes(pdf.replace(stated, other))
    dialog = _verify_in_the_app(qtbot, window, dialog_log, memo)
    assert f'color:{VERDICT_COLOURS["INVALID"]}">INVALID' in dialog.verdict.text()
    reasons = dialog.reasons.text()
    assert (
        reasons.index("Proven wrong") < reasons.index("swapped") < reasons.index("Not proven here")
    )
    # the edits are still named, but the memo is no longer called intact
    assert "also changed since" in dialog.changed_since.text()
    assert "intact" not in dialog.changed_since.text()
    dialog.close()


def test_a_memo_whose_evaluation_was_not_edited_says_nothing_changed(
    qtbot, window, dialog_log, tmp_path
):
    memo = _memo_of_the_open_document(window, tmp_path)
    dialog = _verify_in_the_app(qtbot, window, dialog_log, memo)
    assert not dialog.changed_since.isVisibleTo(dialog)
    assert "matches the memo" in dialog.report.toPlainText()
    dialog.close()


def test_a_failed_trust_check_offers_the_apps_trusted_certificates(qtbot, window):
    dialog = VerifyReportDialog("memo.pdf", window)
    dialog.certificates_requested.connect(window.info.show_trusted_certificates)
    dialog.show_result(
        "INDETERMINATE",
        "INDETERMINATE: nothing was found wrong",
        "report",
        reasons=(("Not proven here", ("signers not trusted",)),),
        trust_failed=True,
    )
    assert dialog.certificates_button.isVisibleTo(dialog)
    dialog.certificates_button.click()
    assert window.info.trust_dialog is not None and window.info.trust_dialog.isVisible()
    window.info.trust_dialog.close()
    dialog.show_result("VALID", "VALID: every page is proven", "report", trust_failed=False)
    assert not dialog.certificates_button.isVisibleTo(dialog) and not dialog.reasons.isVisibleTo(
        dialog
    )
