"""Memo > Verify: the verdict first, the reasons for it just below, then the report
`clusterbid verify` prints, with each step its findings call for in the app's own words and
offered as a button (the command line words the same steps as its options).

Without a trusted certificate the report can say a signature is intact but not whose it really
is; one button lets the officer check against a CA file and re-runs the check, another opens the
evaluation's own Approvers and Trusted Certificates, where such certificates are kept for good;
a third verifies again without holding the approvers to the memo's signing order.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
)

from clusterbid.core.memo.next_steps import Step
from clusterbid.gui.memo.step_words import ANY_ORDER_BUTTON, CA_FILE_BUTTON, CERTIFICATES_BUTTON

CA_FILES = "CA certificates (*.pem *.crt *.cer *.der)"
CHANGED_SINCE_COLOUR = "#1f4e8c"  # a plain statement, neither a pass nor a failure


class VerifyReportDialog(QDialog):
    trust_requested = Signal(list)  # paths of CA certificates to verify against
    certificates_requested = Signal()  # open the evaluation's Trusted Approver Certificates
    any_order_requested = Signal()  # verify again, the approvers' signing order not held

    def __init__(self, memo_name: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Verify {memo_name}")
        self.resize(760, 460)
        self.verdict = QLabel()
        self.verdict.setObjectName("verify_verdict")
        self.verdict.setWordWrap(True)
        self.changed_since = QLabel()  # the evaluation edited after the memo: not an alteration
        self.changed_since.setObjectName("verify_changed_since")
        self.changed_since.setWordWrap(True)
        self.changed_since.hide()
        self.reasons = QLabel()  # what decides the verdict, above the long report
        self.reasons.setObjectName("verify_reasons")
        self.reasons.setWordWrap(True)
        self.report = QPlainTextEdit()
        self.report.setObjectName("verify_report")
        self.report.setReadOnly(True)
        self.report.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.trust_button = buttons.addButton(
            CA_FILE_BUTTON, QDialogButtonBox.ButtonRole.ActionRole
        )
        self.trust_button.clicked.connect(self._choose_trust)
        self.certificates_button = buttons.addButton(
            CERTIFICATES_BUTTON, QDialogButtonBox.ButtonRole.ActionRole
        )
        self.certificates_button.clicked.connect(self.certificates_requested)
        self.certificates_button.hide()  # offered only when the trust check failed
        self.any_order_button = buttons.addButton(
            ANY_ORDER_BUTTON, QDialogButtonBox.ButtonRole.ActionRole
        )
        self.any_order_button.clicked.connect(self.any_order_requested)
        self.any_order_button.hide()  # offered only when the approvers signed out of order
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(self.changed_since)
        layout.addWidget(self.reasons)
        layout.addWidget(self.report, 1)
        layout.addWidget(buttons)

    def show_result(
        self,
        verdict: str,
        headline: str,
        report: str,
        *,
        changed_since: str | None = None,
        reasons: Sequence[tuple[str, Sequence[str]]] = (),
        trust_failed: bool = False,
        steps: frozenset[Step] = frozenset(),
    ) -> None:
        """`verdict` VALID, INDETERMINATE or INVALID and its words, as core words them
        (core/memo/signoff.py: the CLI prints the same); `changed_since` the evaluation's edits
        after the memo, `reasons` what decides the verdict under its headings (operations/verifying.py);
        `steps` those the findings call for, each offered as its button."""
        from clusterbid.core.memo.signoff import VERDICT_COLOURS

        colour = VERDICT_COLOURS.get(verdict, VERDICT_COLOURS["INVALID"])
        if changed_since and headline.endswith(changed_since):  # said on its own line below
            headline = headline[: -len(changed_since)].rstrip()
        self.verdict.setText(f'<b style="color:{colour}">{html.escape(headline)}</b>')
        self.changed_since.setText(
            f'<span style="color:{CHANGED_SINCE_COLOUR}">{html.escape(changed_since or "")}</span>'
        )
        self.changed_since.setVisible(bool(changed_since))
        self.reasons.setText(
            "".join(
                f"<b>{html.escape(heading)}:</b><ul>{''.join(f'<li>{html.escape(r)}</li>' for r in lines)}</ul>"
                for heading, lines in reasons
            )
        )
        self.reasons.setVisible(bool(reasons))
        # offered when the signers could not be trusted; a registry suggestion alone names the
        # dialog (File menu) without a button, so a memo that verifies shows no call to act
        self.certificates_button.setVisible(trust_failed or Step.KEEP_CERTIFICATES in steps)
        self.any_order_button.setVisible(Step.ANY_ORDER in steps)
        self.report.setPlainText(report)

    def show_busy(self, what: str) -> None:
        self.verdict.setText(what)
        self.changed_since.hide()
        self.reasons.hide()

    def _choose_trust(self) -> None:
        paths = QFileDialog.getOpenFileNames(self, "CA certificates to trust", "", CA_FILES)[0]
        if paths:
            self.trust_requested.emit(paths)
