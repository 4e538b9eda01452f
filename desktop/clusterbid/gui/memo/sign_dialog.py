"""Memo > Sign: which approver field, the approver's PKCS#12 file and its passphrase.

The passphrase lives only in the password box and the signing call; it is never stored, logged
or put in settings. The certificate is opened on OK so a wrong passphrase or an expired
certificate is reported here, with everything typed kept.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from clusterbid.core.errors import InputError
from clusterbid.core.memo.inputs import Approver
from clusterbid.core.memo.next_steps import render
from clusterbid.gui.error_line import ErrorLine
from clusterbid.gui.memo.step_words import STEP_WORDS

CERTIFICATE_FILES = "Certificates with key (*.p12 *.pfx)"
DEFAULT_REASON = ""  # the signature states what it approves; this is the approver's own remark


class SignMemoDialog(QDialog):
    def __init__(
        self,
        memo_path: Path,
        approvers: list[Approver],
        unsigned: list[int],
        parent=None,
        pdf: bytes | None = None,
    ) -> None:
        super().__init__(parent)
        self.approvers, self.pdf = (
            approvers,
            pdf,
        )  # the memo as read: who signed which field already
        self.setWindowTitle(f"Sign {memo_path.name}")
        self.resize(560, 260)
        self.credentials = None
        self.field_number: int | None = None
        self.field = QComboBox()
        self.field.setObjectName("sign_field")
        for number in unsigned:
            who = approvers[number - 1] if number <= len(approvers) else None
            label = f"{number}. {who.name}, {who.role}" if who else f"Approver field {number}"
            self.field.addItem(label, number)
        self.p12 = QLineEdit()
        self.p12.setObjectName("sign_p12")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse)
        p12_row = QHBoxLayout()
        p12_row.addWidget(self.p12, 1)
        p12_row.addWidget(browse)
        self.passphrase = QLineEdit()
        self.passphrase.setObjectName("sign_passphrase")
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.reason = QLineEdit(DEFAULT_REASON)
        self.location = QLineEdit()
        self.location.setPlaceholderText("optional, e.g. the meeting room")
        form = QFormLayout()
        form.addRow("Sign as", self.field)
        form.addRow("Certificate (.p12)", p12_row)
        form.addRow("Passphrase", self.passphrase)
        self.reason.setPlaceholderText("optional remark, after what the signature approves")
        form.addRow("Remark", self.reason)
        form.addRow("Location", self.location)
        self.problem = ErrorLine("sign_problem")  # keeps its place: the buttons never jump
        note = QLabel(
            "No timestamp server is used: the signing time is this computer's clock, and the memo "
            "says so."
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.addButton("Sign", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def _browse(self) -> None:
        path = QFileDialog.getOpenFileName(self, "Your signing certificate", "", CERTIFICATE_FILES)[
            0
        ]
        if path:
            self.p12.setText(path)

    def accept(self) -> None:
        from clusterbid.core.memo.credentials import load_credentials

        if self.field.currentData() is None:
            self.problem.say("Every approver field of this memo is already signed.")
            return
        path = self.p12.text().strip()
        if not path:
            self.problem.say(
                "Certificate: choose your .p12 or .pfx file (certificate and private key)."
            )
            return
        try:
            self.credentials = load_credentials(Path(path), self.passphrase.text())
        except InputError as exc:
            self.problem.say(render(str(exc), STEP_WORDS))  # a step as the app's own words
            return
        finally:
            self.passphrase.clear()  # typed again on a retry; never kept longer than this call
        refusal = self._refusal(self.field.currentData())
        if refusal:  # told here, with the dialog open, before anything is written to the memo
            self.credentials = None
            self.problem.say(f"Not signed: {refusal}.")
            return
        self.field_number = self.field.currentData()
        super().accept()

    def _refusal(self, number: int) -> str | None:
        from clusterbid.core.memo.signer_check import earlier_signers, signer_refusal
        from clusterbid.core.memo.signing import approver_field

        earlier = earlier_signers(self.pdf) if self.pdf is not None else []
        return signer_refusal(self.approvers, approver_field(number), self.credentials, earlier)
