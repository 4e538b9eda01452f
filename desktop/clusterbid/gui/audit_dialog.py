"""File > Audit Trail: the document's recorded changes, the verdict on its chain, the head a memo
made now would record, and the rows earlier memos were anchored at (the text `clusterbid audit` prints)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.store.console import format_audit

if TYPE_CHECKING:
    from clusterbid.core.store.document import EvaluationDocument


class AuditTrailDialog(QDialog):
    def __init__(self, document: EvaluationDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        report = document.audit_now()
        self.setWindowTitle(f"Audit trail of {document.path.name}")
        self.resize(900, 600)
        verdict = QLabel(
            "The chain holds: every recorded change is intact and accounts for the evaluation."
            if report.ok
            else f"The chain is broken: {report.reason}"
        )
        verdict.setWordWrap(True)
        verdict.setStyleSheet("" if report.ok else "color: #b00020; font-weight: bold")
        self.text = QPlainTextEdit(format_audit(report))
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.moveCursor(
            self.text.textCursor().MoveOperation.End
        )  # the head and anchors are at the end
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(verdict)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
