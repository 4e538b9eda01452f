"""File menu handlers for the approval memo: export, sign and verify, each in the background, for
the training window and the serving window alike (each holds one MemoCommands).

Each runs its operation (clusterbid.operations), the one `clusterbid memo`, `sign` and `verify`
call, so the memo is the same bytes whichever way it was made. The operations decide the audit
rows; they are written on the GUI thread (where the document lives) after the background work
succeeded: a cancelled or failed export records nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.gui import dialogs
from clusterbid.operations import memo_export, signing, verifying

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui.background import BackgroundTasks

MEMO_FILES = "Approval memos (*.pdf)"


def memo_choices(request) -> memo_export.MemoChoices:
    """The Export dialog's answers as the operation takes them (the samples are its default)."""
    return memo_export.MemoChoices(
        request.approvers,
        request.notes,
        request.override,
        request.decision_date,
        rationale=request.rationale,
    )


class MemoCommands:
    """A window's memo handlers. What they need is given, not reached for: the window (dialogs'
    parent, status bar), the one background runner, and the document and scorecard it shows now
    (read when a command runs: the window may have opened another evaluation since)."""

    def __init__(
        self,
        window: QMainWindow,
        tasks: BackgroundTasks,
        document: Callable[[], EvaluationDocument],
        scorecard: Callable[[], Any],
    ) -> None:
        self.window, self.tasks = window, tasks
        self._document, self._scorecard = document, scorecard
        self.approvers: tuple = ()  # the last memo's, offered again
        self.last_memo: Path | None = None  # offered first by Sign: export, then sign
        self.verify_dialog = None

    def _status(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 15_000)

    def _failed(self, title: str) -> Callable[[Exception], None]:
        return lambda exc: dialogs.show_task_error(self.window, title, exc)

    def export_memo_dialog(self) -> None:
        from clusterbid.gui.memo.export_dialog import MemoExportDialog

        scorecard = self._scorecard()
        if not scorecard.ranked:
            dialogs.show_problem(
                self.window,
                "Nothing to recommend",
                "No bid passes the gates, so "
                "there is no recommendation to approve. Add or correct bids first.",
            )
            return
        accepted_failure = self._accept_failed_audit()
        if accepted_failure is None:
            return
        dialog = MemoExportDialog(scorecard, self.window, list(self.approvers))
        if dialog.exec() != dialog.DialogCode.Accepted or dialog.request is None:
            return
        request = dialog.request
        if accepted_failure:  # printed with the notes, so no reader takes the memo for a clean one
            notes = (
                f"{request.notes}\n\n{accepted_failure}"
                if request.notes.strip()
                else accepted_failure
            )
            request = replace(request, notes=notes)
        self.approvers = request.approvers
        document = (
            self._document()
        )  # the evaluation exported, even if another is open when it is done
        suggested = Path.home() / f"{document.path.stem}-memo.pdf"
        chosen = dialogs.save_file(
            self.window, "Export the approval memo", str(suggested), MEMO_FILES
        )
        if not chosen:
            return
        path = Path(chosen if chosen.lower().endswith(".pdf") else chosen + ".pdf")
        # Read here, where the document lives: its history as the memo prints it. The samples are
        # the operation's default, as `clusterbid memo` uses: the same bytes from either door.
        source = memo_export.memo_source(document, scorecard.evaluation)
        choices = memo_choices(request)
        self.tasks.run(
            "memo export",
            lambda progress: memo_export.export_memo(source, choices, path, progress, progress),
            lambda exported: self._on_memo_exported(document, exported),
            self._failed("Could not export the memo"),
        )

    def _accept_failed_audit(self) -> str | None:
        """Empty for a document that passes its audit; for one that fails, the memo note after the
        officer gave (and the trail recorded) a reason; None when the officer declined."""
        from clusterbid.core.store import audit_warning

        document = self._document()
        report = document.audit_report
        if report.ok:
            return ""
        reason = dialogs.ask_text(
            self.window,
            "This document fails its audit",
            audit_warning(report) + "\n\nTo make a "
            "memo anyway, say why (recorded in the audit trail and printed on the memo):",
        )
        if not reason:
            return None
        try:
            return memo_export.accept_failed_audit(document, reason)
        except InputError as exc:
            dialogs.show_problem(self.window, "No memo was made", str(exc))
            return None

    def _on_memo_exported(
        self, document: EvaluationDocument, exported: memo_export.ExportedMemo
    ) -> None:
        path = exported.path
        trouble = memo_export.record_export(document, exported)
        self.last_memo = path
        if trouble:  # the memo is whole; say what is missing rather than print a traceback
            dialogs.show_problem(
                self.window, "The memo was exported", f"{path} is complete; {trouble}"
            )
        self._status(
            f"Exported the approval memo to {path}"
            + ("" if trouble else " (recorded in the audit trail)")
        )

    # -- sign ------------------------------------------------------------------------------------
    def sign_memo_dialog(self) -> None:
        # The memo just exported is offered first: exporting, then signing, is the usual order.
        path = dialogs.open_file(self.window, "Sign an approval memo", MEMO_FILES, self.last_memo)
        if not path:
            return
        # The document shown now is the only one that may record the signature (the operation
        # decides from the memo's audit anchor); another opened meanwhile never takes the row.
        document = self._document()
        document_path = document.path
        self.tasks.run(
            "memo read",
            lambda _progress: signing.read_memo_to_sign(Path(path), document_path, check=True),
            lambda memo: self._ask_signature(memo, document),
            self._failed(f"Could not read {Path(path).name}"),
        )

    def _ask_signature(self, memo: signing.MemoToSign, document: EvaluationDocument) -> None:
        from clusterbid.core.memo.signing import approver_field
        from clusterbid.gui.memo.sign_dialog import SignMemoDialog

        path, approvers, fields = memo.path, list(memo.approvers), memo.fields
        count = max(len(approvers), len(fields.unsigned) + len(fields.signed))
        unsigned = [n for n in range(1, count + 1) if approver_field(n) in fields.unsigned]
        if not unsigned:
            dialogs.show_problem(
                self.window, "Nothing to sign", f"{path.name} has no unsigned approver field left."
            )
            return
        dialog = SignMemoDialog(path, approvers, unsigned, self.window, pdf=memo.pdf)
        if dialog.exec() != dialog.DialogCode.Accepted:
            return
        number, credentials = dialog.field_number, dialog.credentials
        reason, location = dialog.reason.text().strip(), dialog.location.text().strip()
        self.tasks.run(
            "memo sign",
            lambda progress: signing.sign_memo_file(
                memo,
                number,
                lambda: credentials,
                progress,
                progress,
                remark=reason,
                location=location or None,
            ),
            lambda signed: self._on_signed(signed, document),
            self._failed(f"Could not sign {path.name}"),
        )

    def _on_signed(self, signed: signing.SignedMemoResult, document: EvaluationDocument) -> None:
        where = signing.record_signature(document, signed) or "recorded in the audit trail"
        self._status(
            f"{signed.signer} signed {signed.path.name} as approver {signed.number} ({where})"
        )

    # -- seal ------------------------------------------------------------------------------------
    def seal_memo_dialog(self) -> None:
        from clusterbid.gui.memo.seal_dialog import SealMemoDialog, seal_in_background

        path = dialogs.open_file(
            self.window, "Seal an approval memo for the archive", MEMO_FILES, self.last_memo
        )
        if not path:
            return
        dialog = SealMemoDialog(Path(path), self.window)
        if dialog.exec() != dialog.DialogCode.Accepted or dialog.tsa is None:
            return
        self._status(f"Sealing {Path(path).name}: asking {dialog.tsa}…")
        seal_in_background(
            self.window,
            self.tasks,
            Path(path),
            dialog.tsa,
            self._status,
            self._failed("The memo was not sealed"),
            trust=dialog.trust,
        )

    # -- verify ----------------------------------------------------------------------------------
    def verify_memo_dialog(self) -> None:
        from clusterbid.gui.memo.verify_dialog import VerifyReportDialog

        path = dialogs.open_file(self.window, "Verify an approval memo", MEMO_FILES)
        if not path:
            return
        dialog = VerifyReportDialog(Path(path).name, self.window)
        asked = {"trust": [], "ordered": True}  # the officer's choices so far, kept on a re-run
        dialog.trust_requested.connect(
            lambda paths: self._run_verification(Path(path), dialog, asked, trust=paths)
        )
        dialog.any_order_requested.connect(
            lambda: self._run_verification(Path(path), dialog, asked, ordered=False)
        )
        info = getattr(self.window, "info", None)  # the training window's own, else one here
        dialog.certificates_requested.connect(
            info.show_trusted_certificates if info is not None else self._show_trusted_certificates
        )
        self._run_verification(Path(path), dialog, asked)
        self.verify_dialog = dialog
        dialog.open()

    def _show_trusted_certificates(self) -> None:
        """The serving window has no records menu: its Verify opens the same dialog over its document."""
        from clusterbid.gui.memo.trust_dialog import TrustedCertificatesDialog

        self.trust_dialog = TrustedCertificatesDialog(self._document(), self.window)
        self.trust_dialog.open()

    def _run_verification(self, path: Path, dialog, asked: dict, **choice: Any) -> None:
        from clusterbid.core.memo.next_steps import render
        from clusterbid.gui.memo.step_words import STEP_WORDS

        asked.update(choice)
        document = self._document()
        evaluation, document_path = document.evaluation, document.path
        dialog.show_busy("Checking signatures, attached inputs and figures…")

        def verify(progress):
            found = verifying.verify_memo_file(
                path,
                progress,
                progress,
                trust=asked["trust"],
                evaluation_path=document_path,
                evaluation=evaluation,
                ordered=asked["ordered"],
            )
            # the findings' steps are offered as buttons, and said as the app's own actions
            steps, verified = found.steps, found.in_words(STEP_WORDS)
            report = verified.report(path.name, document_path.name, explain=True)
            details = {
                "changed_since": verified.result.changed_since,
                "steps": steps,
                "reasons": verified.reasons(),
                "trust_failed": verified.trust_failed,
            }
            return verified.verdict, verified.headline(), report, details

        def failed(exc: Exception) -> None:
            said = render(str(exc), STEP_WORDS)  # a CA file that cannot be read, in the app's words
            dialog.show_result(
                "INDETERMINATE", f"INDETERMINATE: the memo could not be verified ({said})", said
            )

        self.tasks.run(
            "memo verify", verify, lambda done: dialog.show_result(*done[:3], **done[3]), failed
        )
