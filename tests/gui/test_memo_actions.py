"""Export, sign and verify the approval memo from the app, as an officer would, without a modal hang.

Modal dialogs are driven by replacing their `exec` with a function that types into the real
dialog and presses its real buttons, so the dialog's own checks run.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import stat

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox
from tests.core.memo_signing.pki import Authority
from tests.gui.conftest import wait_for_serving_scores
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.cli import main as cli_main
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.inputs import parse_memo_inputs
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.memo.export_dialog import MemoExportDialog
from clusterbid.gui.memo.sign_dialog import SignMemoDialog
from clusterbid.operations import memo_export
from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

JUSTIFICATION = "Prime's team already runs our stack; the panel accepts the premium."


def _press(dialog: QDialog, text: str) -> None:
    box = dialog.findChild(QDialogButtonBox)
    button = next(b for b in box.buttons() if b.text().replace("&", "") == text)
    button.click()


def _memo_for_ada(window, tmp_path):
    """The open evaluation's memo with one approver, a throw-away CA and Ada's PKCS#12 file."""
    memo = tmp_path / "memo.pdf"
    window.session.document.save_copy(tmp_path / "copy.clusterbid")
    assert (
        cli_main(
            [
                "memo",
                str(tmp_path / "copy.clusterbid"),
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
    authority = Authority.create()
    return memo, authority, authority.write_p12(tmp_path, "Ada Lovelace", "ada-passphrase")


def _sign_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, fake_exec) -> None:
    monkeypatch.setattr(SignMemoDialog, "exec", fake_exec)
    dialog_log.answers.append(str(memo))
    window.actions_.sign_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)


def _fill_export_dialog(qtbot, seen: list):
    def fake_exec(dialog: MemoExportDialog) -> int:
        assert dialog.table.rowCount() == 1  # a blank row waits for the first approver
        dialog.table.item(0, 0).setText("Ada Lovelace")
        dialog.table.item(0, 1).setText("CFO")
        dialog.add_approver("Grace Hopper", "Head of ML infrastructure")
        qtbot.keyClicks(dialog.notes, "Reviewed in the Q1 bid meeting.")
        dialog.recommend.setCurrentIndex(1)  # override to the model's second bid
        _press(dialog, "Export…")
        seen.append(
            dialog.problem.text()
        )  # refused: no justification yet, and nothing typed was lost
        assert (
            dialog.table.rowCount() == 2
            and dialog.notes.toPlainText() == "Reviewed in the Q1 bid meeting."
        )
        qtbot.keyClicks(dialog.justification, JUSTIFICATION)
        _press(dialog, "Export…")
        return dialog.result()

    return fake_exec


def test_export_memo_refuses_an_unjustified_override_then_writes_the_cli_memo(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    seen: list[str] = []
    monkeypatch.setattr(MemoExportDialog, "exec", _fill_export_dialog(qtbot, seen))
    target = tmp_path / "memo.pdf"
    dialog_log.answers.append(str(target))
    # A copy as the document stands before the export: the memo records this history (its audit head).
    window.session.document.save_copy(tmp_path / "copy.clusterbid")
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.tasks.is_busy("memo export"), timeout=HANG_GUARD_MS)
    assert "needs a written justification" in seen[0]
    assert not dialog_log.shown, dialog_log.shown
    pdf = target.read_bytes()
    assert (
        stat.S_IMODE(target.stat().st_mode) == 0o644
    )  # a document to share, not a private temp file

    # The same memo from the command line, given the same choices and history, is the same bytes.
    cli_memo = tmp_path / "cli.pdf"
    assert (
        cli_main(
            [
                "memo",
                str(tmp_path / "copy.clusterbid"),
                "-o",
                str(cli_memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--approver",
                "Grace Hopper, Head of ML infrastructure",
                "--notes",
                "Reviewed in the Q1 bid meeting.",
                "--override",
                "prime-efa",  # the second bid (issue 31: Prime, Cumulus is last)
                "--justification",
                JUSTIFICATION,
                # The Export dialog's decision date, left at its default: today (issue 38).
                "--decision-date",
                dt.date.today().isoformat(),
            ]
        )
        == 0
    )
    assert cli_memo.read_bytes() == pdf

    inputs = parse_memo_inputs(read_attached_inputs(PdfFileReader(io.BytesIO(pdf))).raw)
    assert (
        inputs["override"]["bid_id"] == "prime-efa"
        and inputs["override"]["justification"] == JUSTIFICATION
    )
    assert inputs["decision_date"] == dt.date.today().isoformat()
    exported = [
        row for row in window.session.document.audit_rows() if row.action == "record_memo_exported"
    ]
    assert (
        exported and json.loads(exported[-1].new_json)["sha256"] == hashlib.sha256(pdf).hexdigest()
    )
    # The memo is anchored at the row before its own export row, and File > Audit Trail lists it.
    before = exported[-1].seq - 1
    assert inputs["audit_anchor"]["seq"] == before
    assert json.loads(exported[-1].new_json)["anchor"] == inputs["audit_anchor"]
    window.actions_.audit_trail.trigger()
    trail = window.info.audit_dialog.text.toPlainText()
    assert f"memo.pdf: anchored at row #{before} " in trail and "Chain verified" in trail
    window.info.audit_dialog.close()
    # Sign offers the memo just exported (issue 20); cancelling the file dialog signs nothing.
    window.actions_.sign_memo.trigger()
    assert dialog_log.asked[-1][0] == "Sign an approval memo" and dialog_log.asked[-1][2] == target


def test_sign_then_verify_from_the_app(qtbot, window, dialog_log, tmp_path, monkeypatch):
    memo, authority, p12 = _memo_for_ada(window, tmp_path)
    ca = authority.write_pem(tmp_path / "ca.pem")
    problems: list[str] = []

    def fake_exec(dialog: SignMemoDialog) -> int:
        assert dialog.field.currentText() == "1. Ada Lovelace, CFO"
        dialog.p12.setText(str(p12))
        qtbot.keyClicks(dialog.passphrase, "wrong")
        _press(dialog, "Sign")
        problems.append(dialog.problem.text())
        qtbot.keyClicks(dialog.passphrase, "ada-passphrase")
        _press(dialog, "Sign")
        return dialog.result()

    _sign_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, fake_exec)
    assert "wrong passphrase" in problems[0]
    signatures = [
        row for row in window.session.document.audit_rows() if row.action == "record_signature"
    ]
    assert signatures and json.loads(signatures[-1].new_json) == {
        "signer": "Ada Lovelace",
        "memo_sha256": hashlib.sha256(memo.read_bytes()).hexdigest(),
        "role": "CFO",
    }

    dialog_log.answers.append(str(memo))
    window.actions_.verify_memo.trigger()
    dialog = window.memos.verify_dialog
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    report = dialog.report.toPlainText()
    assert "approver 1: signed by Ada Lovelace" in report and "trusted: NOT TRUSTED" in report
    # Without a trusted certificate nothing shows who signed: INDETERMINATE, in amber, never VALID.
    assert dialog.verdict.text().startswith(
        '<b style="color:#8a5a00">INDETERMINATE: nothing was found wrong'
    )
    assert "signers not trusted" in report
    # Issue 38: the failed trust check offers the evaluation's own Trusted Approver Certificates.
    assert (
        dialog.certificates_button.isVisibleTo(dialog)
        and "signers not trusted" in dialog.reasons.text()
    )
    dialog.trust_requested.emit([str(ca)])
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    assert "trusted: yes" in dialog.report.toPlainText()
    assert not dialog.certificates_button.isVisibleTo(dialog)
    dialog.trust_requested.emit([str(Authority.create().write_pem(tmp_path / "other-ca.pem"))])
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    assert "trusted: NO" in dialog.report.toPlainText()
    # pyHanko logs an untrusted chain with a traceback; the app routes its loggers nowhere (pytest's
    # own log capture hides stderr tracebacks here, so the routing itself is what is checked).
    import logging

    assert (
        not logging.getLogger("pyhanko").propagate
        and not logging.getLogger("pyhanko_certvalidator").propagate
    )
    dialog.close()

    memo.write_bytes(memo.read_bytes().replace(b"Ada Lovelace", b"Eve Intruder", 1))
    dialog_log.answers.append(str(memo))
    window.actions_.verify_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    assert 'color:#b00020">INVALID: ' in window.memos.verify_dialog.verdict.text()
    window.memos.verify_dialog.close()


def test_a_memo_of_another_evaluation_is_signed_but_not_recorded_in_this_one(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    """The rule `clusterbid sign --evaluation` follows (issue 33): a memo whose audit anchor is
    not in this document's history leaves no row in its trail, even when the evaluations match."""
    other = tmp_path / "other.clusterbid"
    EvaluationDocument.create(other, window.session.document.evaluation).close()
    memo = tmp_path / "other-memo.pdf"
    assert (
        cli_main(
            [
                "memo",
                str(other),
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
    p12 = Authority.create().write_p12(tmp_path, "Ada Lovelace", "ada-passphrase")
    rows_before = window.session.document.audit_rows()

    def fake_exec(dialog: SignMemoDialog) -> int:
        dialog.p12.setText(str(p12))
        qtbot.keyClicks(dialog.passphrase, "ada-passphrase")
        _press(dialog, "Sign")
        return dialog.result()

    _sign_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, fake_exec)
    assert len(PdfFileReader(io.BytesIO(memo.read_bytes())).embedded_signatures) == 1  # signed
    assert window.session.document.audit_rows() == rows_before
    assert "not recorded" in window.statusBar().currentMessage()


def test_a_serving_evaluation_exports_its_own_memo(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    from tests.conftest import EXAMPLES

    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.memo.render import render_memo
    from clusterbid.core.serving_scoring import score_serving_evaluation

    serving = EXAMPLES / "demo-serving-evaluation.json"
    assert window.evaluations.open_evaluation(serving)
    shown = window.evaluations.serving_window
    wait_for_serving_scores(qtbot, shown)

    def fake_exec(dialog: MemoExportDialog) -> int:
        dialog.table.item(0, 0).setText("Ada Lovelace")
        dialog.table.item(0, 1).setText("CFO")
        _press(dialog, "Export…")
        return dialog.result()

    monkeypatch.setattr(MemoExportDialog, "exec", fake_exec)
    target = tmp_path / "serving-memo.pdf"
    dialog_log.answers.append(str(target))
    shown.actions_.export_memo.trigger()
    qtbot.waitUntil(lambda: not shown.tasks.is_busy(), timeout=HANG_GUARD_MS)
    # The same memo core renders for the same evaluation, approver and document history (its audit
    # head before the export row), which is what `clusterbid memo` writes.
    exported = [row for row in shown.document.audit_rows() if row.action == "record_memo_exported"]
    before = next(row for row in shown.document.audit_rows() if row.seq == exported[-1].seq - 1)
    expected = render_memo(
        score_serving_evaluation(read_evaluation(serving)),
        approvers=[("Ada Lovelace", "CFO")],
        audit_anchor={"seq": before.seq, "hash": before.hash},
        samples=0,
        decision_date=dt.date.today(),
    )  # the Export dialog's default (issue 38)
    assert target.read_bytes() == expected
    assert json.loads(exported[-1].new_json)["sha256"] == hashlib.sha256(expected).hexdigest()
    # Verify from the serving window too: the same handlers as the training window's.
    dialog_log.answers.append(str(target))
    shown.actions_.verify_memo.trigger()
    qtbot.waitUntil(lambda: not shown.tasks.is_busy(), timeout=HANG_GUARD_MS)
    report = shown.memos.verify_dialog.report.toPlainText()
    assert "re-rendered from the attached inputs: identical to the memo as exported" in report
    assert "not yet signed: approver 1" in report
    shown.memos.verify_dialog.close()
    shown.close()


def test_an_export_finishing_after_another_evaluation_opened_is_recorded_in_its_own(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    from tests.conftest import EXAMPLES

    from clusterbid.core.store import EvaluationDocument

    def fake_exec(dialog: MemoExportDialog) -> int:
        dialog.table.item(0, 0).setText("Ada Lovelace")
        dialog.table.item(0, 1).setText("CFO")
        _press(dialog, "Export…")
        return dialog.result()

    monkeypatch.setattr(MemoExportDialog, "exec", fake_exec)
    demo_path = window.session.document.path
    dialog_log.answers.append(str(tmp_path / "a-memo.pdf"))
    window.actions_.export_memo.trigger()
    assert window.evaluations.open_evaluation(
        EXAMPLES / "seed-network-example.json"
    )  # while the memo is being drawn
    qtbot.waitUntil(lambda: not window.tasks.is_busy("memo export"), timeout=HANG_GUARD_MS)
    qtbot.waitUntil(lambda: (tmp_path / "a-memo.pdf").exists(), timeout=HANG_GUARD_MS)
    assert not [
        r for r in window.session.document.audit_rows() if r.action == "record_memo_exported"
    ]
    with EvaluationDocument.open(demo_path) as demo:
        rows = [r for r in demo.audit_rows() if r.action == "record_memo_exported"]
    assert rows and json.loads(rows[-1].new_json)["file_name"] == "a-memo.pdf"


def test_a_memo_changed_while_the_sign_dialog_was_open_is_not_overwritten(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    memo, authority, p12 = _memo_for_ada(window, tmp_path)

    def fake_exec(dialog: SignMemoDialog) -> int:
        dialog.p12.setText(str(p12))
        qtbot.keyClicks(dialog.passphrase, "ada-passphrase")
        memo.write_bytes(
            memo.read_bytes() + b"\n% a colleague's incremental update\n"
        )  # meanwhile, on the share
        _press(dialog, "Sign")
        return dialog.result()

    _sign_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, fake_exec)
    assert memo.read_bytes().endswith(b"a colleague's incremental update\n")  # their bytes kept
    assert "changed since it was opened" in dialog_log.shown[-1][2]


def test_a_document_that_fails_its_audit_is_flagged_and_its_memo_needs_a_recorded_reason(
    qtbot, app_settings, dialog_log, tmp_path, monkeypatch
):
    import sqlite3

    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui import dialogs
    from clusterbid.gui.main_window import MainWindow

    path = tmp_path / "tampered.clusterbid"
    EvaluationDocument.create(path, demo_evaluation()).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "UPDATE bid SET bid_json = replace(bid_json, '\"Northwind', '\"Nothwind') WHERE position = "
        "1"
    )
    conn.close()
    win = MainWindow(EvaluationDocument.open(path), app_settings)
    qtbot.addWidget(win)
    assert win.windowTitle().startswith("AUDIT FAILED") and "fails its audit" in win.summary.text()
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "ask_text", lambda _p, _t, label: asked.append(label) or "")
    win.memos.export_memo_dialog()  # declined: no reason, no dialog, nothing recorded
    assert asked and "edited outside ClusterBid" in asked[0]
    assert win.session.document.audit_rows()[-1].action == "create"
    monkeypatch.setattr(dialogs, "ask_text", lambda *_a: "checked against the signed quote")
    monkeypatch.setattr("clusterbid.gui.memo.export_dialog.MemoExportDialog.exec", lambda _self: 0)
    win.memos.export_memo_dialog()
    row = win.session.document.audit_rows()[-1]
    assert row.action == "record_audit_override" and "signed quote" in row.new_json
    win.close()


def test_export_is_greyed_out_until_an_approver_is_named(qtbot, window):
    dialog = MemoExportDialog(window.model.scorecard, window)
    qtbot.addWidget(dialog)
    assert not dialog.export_button.isEnabled()  # the one empty row is not an approver
    assert "Name at least one approver" in dialog.export_button.toolTip()
    dialog.table.item(0, 1).setText("CFO")  # a role alone names nobody
    assert not dialog.export_button.isEnabled()
    dialog.table.item(0, 0).setText("Ada Lovelace")
    assert dialog.export_button.isEnabled()
    dialog.table.selectRow(0)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert not dialog.export_button.isEnabled()


def test_an_approvers_email_typed_in_the_table_goes_into_the_memo_request(qtbot, window):
    """Issue 22: verify binds a certificate to the e-mail the memo gives; the app's table takes it."""
    from clusterbid.core.errors import InputError

    dialog = MemoExportDialog(window.model.scorecard, window)
    qtbot.addWidget(dialog)
    for column, text in enumerate(("Ada Lovelace", "CFO", "ada@example.org")):
        dialog.table.item(0, column).setText(text)
    approver = dialog.build_request().approvers[0]
    assert (approver.name, approver.role, approver.email) == (
        "Ada Lovelace",
        "CFO",
        "ada@example.org",
    )
    dialog.table.item(0, 2).setText("ada at example")
    with pytest.raises(InputError, match="approver 1: 'ada at example' is not an e-mail address"):
        dialog.build_request()


def test_trusted_certificates_are_added_once_in_the_app_and_kept_in_the_document(
    qtbot, window, tmp_path
):
    """Issue 22, item 4 in the app: File > Approvers and Trusted Certificates keeps the CA in the
    document (an audit row), refuses a private key by name, and lists what is trusted."""
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
    from tests.core.memo_signing.pki import Authority

    from clusterbid.core.memo.trust_store import trusted_certificates

    authority = Authority.create("Example Corp Approvers CA")
    window.actions_.trusted_certificates.trigger()
    dialog = window.info.trust_dialog
    assert dialog.listing.item(0).text().startswith("None yet")
    dialog.add_from(str(authority.write_pem(tmp_path / "ca.pem")))
    assert (
        dialog.listing.item(0)
        .text()
        .startswith("Example Corp Approvers CA (CA; issued by Example Corp")
    )
    assert [c.subject for c in trusted_certificates(window.session.document)] == [
        "Example Corp Approvers CA"
    ]
    rows = [r for r in window.session.document.audit_rows() if r.action == "attach_artefact"]
    assert len(rows) == 1 and "application/pkix-cert" in rows[0].new_json
    key, _ = authority.issue("Mallory")
    secret = tmp_path / "mallory.key"
    secret.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    dialog.add_from(str(secret))
    assert (
        dialog.status.text().startswith("Not added: ")
        and "holds a private key" in dialog.status.text()
    )
    assert dialog.listing.count() == 1
    dialog.close()


def test_a_premium_over_a_cheaper_bid_needs_the_trade_off_rationale_in_the_dialog(
    qtbot, window, monkeypatch, tmp_path
):
    """Issue 34: when the bid ranked first costs more than a cheaper passing one, the export dialog
    asks for the officer's reason before the memo's Monte Carlo runs, and passes it to the memo."""
    from clusterbid.core.errors import InputError
    from clusterbid.core.scoring import score_evaluation
    from clusterbid.gui import memo_commands

    evaluation = window.model.scorecard.evaluation
    # Service first (SLA and tier 90 of 100): Prime (99.99%, Tier 4) ranks above the cheaper Northwind.
    weights = {
        "cost_to_finish": 10,
        "sla": 60,
        "datacenter_tier": 30,
        "certifications": 0,
        "support": 0,
        "contract_terms": 0,
        "evidence": 0,
    }
    scorecard = score_evaluation(
        evaluation.model_copy(
            update={
                "policy": evaluation.policy.model_copy(
                    update={"weights": evaluation.policy.weights.model_copy(update=weights)}
                )
            }
        )
    )
    assert scorecard.ranked[0].bid.id == "prime-efa"
    dialog = MemoExportDialog(scorecard, window)
    qtbot.addWidget(dialog)
    dialog.table.item(0, 0).setText("Ada Lovelace")
    dialog.table.item(0, 1).setText("CFO")
    with pytest.raises(
        InputError,
        match="Hyperscale Prime, H100-SXM costs more than .*: give the trade-off rationale",
    ):
        dialog.build_request()
    qtbot.keyClicks(dialog.rationale, "Uptime is what the programme is judged on.")
    request = dialog.build_request()
    assert (
        request.rationale == "Uptime is what the programme is judged on."
        and request.override is None
    )

    seen = {}
    monkeypatch.setattr(
        "clusterbid.core.memo.making.make_memo", lambda *_a, **kw: seen.update(kw) or b"%PDF-"
    )
    monkeypatch.setattr("clusterbid.core.safe_files.write_bytes_atomically", lambda *_a: None)
    memo_export.export_memo(
        memo_export.MemoSource(scorecard.evaluation),
        memo_commands.memo_choices(request),
        tmp_path / "m.pdf",
        no_progress,
        NEVER_CANCELLED,
    )
    assert seen["rationale"] == "Uptime is what the programme is judged on."
