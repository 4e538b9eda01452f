"""File > Trusted Approver Certificates: the certificates (or CA) this evaluation trusts when it
verifies memos, and a way to add one. Each is kept in the document with an audit row (the same
operation as `clusterbid trust DOC --add CERT`), so the officer adds them once, not at each Verify."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QPushButton, QVBoxLayout

from clusterbid.core.errors import InputError
from clusterbid.core.memo.trust_store import add_trusted_certificates, trusted_certificates
from clusterbid.gui import dialogs

CERTIFICATE_FILES = "Certificates (*.pem *.crt *.cer *.der);;All files (*)"


class TrustedCertificatesDialog(QDialog):
    def __init__(self, document, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.setWindowTitle(f"Trusted approver certificates of {document.path.name}")
        self.resize(820, 360)
        intro = QLabel("Verify checks each approver's signature against these certificates (the approvers' own "
                       "or the organisation's CA). Each one added is kept in this evaluation with an audit row.")
        intro.setWordWrap(True)
        self.listing = QListWidget()
        self.listing.setObjectName("trusted_certificates")
        self.status = QLabel()
        self.status.setObjectName("trust_status")
        self.status.setWordWrap(True)
        add = QPushButton("&Add certificate…")
        add.clicked.connect(lambda: self.add_from(dialogs.open_file(self, "Trust a certificate", CERTIFICATE_FILES)))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(add, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.listing)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self._fill()

    def _fill(self) -> None:
        self.listing.clear()
        listed = trusted_certificates(self.document)
        self.listing.addItems([c.describe() for c in listed] or ["None yet: memos verified against this "
                                                                 "evaluation show their signers as not trusted."])

    def add_from(self, path: str) -> None:
        if not path:
            return
        try:
            added = add_trusted_certificates(self.document, path)
        except InputError as exc:
            self.status.setStyleSheet("color: #b3261e;")
            self.status.setText(f"Not added: {exc}")
            return
        self.status.setStyleSheet("")
        self.status.setText("Added: " + "; ".join(c.subject for c in added))
        self._fill()
