"""Memo > Verify: the same report `clusterbid verify` prints, with a way to add trusted CAs.

Without a trusted certificate the report can say a signature is intact but not whose it really
is; the button lets the officer check against their organisation's CA and re-runs the check.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QLabel, QPlainTextEdit, QVBoxLayout

CA_FILES = "CA certificates (*.pem *.crt *.cer *.der)"


class VerifyReportDialog(QDialog):
    trust_requested = Signal(list)  # paths of CA certificates to verify against

    def __init__(self, memo_name: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Verify {memo_name}")
        self.resize(760, 460)
        self.verdict = QLabel()
        self.verdict.setObjectName("verify_verdict")
        self.verdict.setWordWrap(True)
        self.report = QPlainTextEdit()
        self.report.setObjectName("verify_report")
        self.report.setReadOnly(True)
        self.report.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.trust_button = buttons.addButton("Check against CA certificate…", QDialogButtonBox.ButtonRole.ActionRole)
        self.trust_button.clicked.connect(self._choose_trust)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(self.report, 1)
        layout.addWidget(buttons)

    def show_result(self, verdict: str, headline: str, report: str) -> None:
        """`verdict` VALID, INDETERMINATE or INVALID and its words, as core words them
        (core/memo/signoff.py: the CLI prints the same)."""
        from clusterbid.core.memo.signoff import VERDICT_COLOURS

        colour = VERDICT_COLOURS.get(verdict, VERDICT_COLOURS["INVALID"])
        self.verdict.setText(f'<b style="color:{colour}">{html.escape(headline)}</b>')
        self.report.setPlainText(report)

    def show_busy(self, what: str) -> None:
        self.verdict.setText(what)

    def _choose_trust(self) -> None:
        paths = QFileDialog.getOpenFileNames(self, "CA certificates to trust", "", CA_FILES)[0]
        if paths:
            self.trust_requested.emit(paths)
