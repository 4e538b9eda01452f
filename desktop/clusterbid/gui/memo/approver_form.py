"""The form behind "Add approver…", "New key…" and "Retire…": it only gathers text and a file;
core.memo.approver_registry decides what is accepted (the same operation as `clusterbid
approvers`)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from clusterbid.gui import dialogs

CERTIFICATE_FILES = "Certificates (*.pem *.crt *.cer *.der);;All files (*)"


@dataclass(frozen=True)
class ApproverChange:
    label: str  # "Name, Role"
    email: str
    date: str  # "from" for an addition, "on" for a retirement; empty: today
    certificate: str


class ApproverForm(QDialog):
    """`kind`: "add" (name and role, e-mail, from, certificate), "key" (certificate) or "retire"
    (date)."""

    def __init__(self, kind: str, label: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            {
                "add": "Register an approver",
                "key": f"New key for {label}",
                "retire": f"Retire {label}",
            }[kind]
        )
        self.label = QLineEdit(label)
        self.label.setPlaceholderText("Ada Lovelace, CFO")
        self.label.setReadOnly(kind != "add")
        self.email = QLineEdit()
        self.email.setPlaceholderText("ada@example.org (verify holds the certificate to it)")
        self.date = QLineEdit()
        self.date.setPlaceholderText("YYYY-MM-DD (empty: today)")
        self.certificate = QLineEdit()
        self.certificate.setPlaceholderText("the approver's own certificate, PEM or DER")
        pick = QPushButton("Choose…")
        pick.clicked.connect(self._choose_certificate)
        form = QFormLayout(self)
        form.addRow("Name, role:", self.label)
        if kind == "add":
            form.addRow("E-mail:", self.email)
            form.addRow("Counts from:", self.date)
        if kind in ("add", "key"):
            row = QHBoxLayout()
            row.addWidget(self.certificate)
            row.addWidget(pick)
            form.addRow("Certificate:", row)
        if kind == "retire":
            form.addRow("Retired from:", self.date)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _choose_certificate(self) -> None:
        path = dialogs.open_file(self, "The approver's certificate", CERTIFICATE_FILES)
        if path:
            self.certificate.setText(path)

    def change(self) -> ApproverChange:
        return ApproverChange(
            self.label.text().strip(),
            self.email.text().strip(),
            self.date.text().strip(),
            self.certificate.text().strip(),
        )
