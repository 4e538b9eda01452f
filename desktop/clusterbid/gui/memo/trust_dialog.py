"""File > Approvers and Trusted Certificates: the approver registry of this evaluation (who may
sign for which role, with which key, from when) and the certificates (or CA) it trusts, with a way
to change each. Every change is the same operation as `clusterbid approvers` / `clusterbid trust`
and is kept in the document with an audit row; a memo is judged by what was recorded before it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from clusterbid.core.errors import InputError
from clusterbid.core.memo import approver_registry
from clusterbid.core.memo.trust_store import trusted_certificates
from clusterbid.gui import dialogs
from clusterbid.gui.memo.approver_form import CERTIFICATE_FILES, ApproverChange, ApproverForm
from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
from clusterbid.operations.trust import trust

NO_APPROVERS = (
    "None registered: verify holds signers to the names on the memo only. Register each approver "
    "with their certificate before the memo is made."
)


class TrustedCertificatesDialog(QDialog):
    def __init__(self, document, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.setWindowTitle(f"Approvers and trusted certificates of {document.path.name}")
        self.resize(900, 520)
        intro = QLabel(
            "Verify checks each approver field against the approver registered for that role and "
            "the certificates trusted here, as they stood when the memo was made: anything added "
            "later is named in the report and does not count. Each change is an audit row."
        )
        intro.setWordWrap(True)
        self.approvers = QListWidget()
        self.approvers.setObjectName("approver_registry")
        self.listing = QListWidget()
        self.listing.setObjectName("trusted_certificates")
        self.status = QLabel()
        self.status.setObjectName("trust_status")
        self.status.setWordWrap(True)
        registry_buttons = QHBoxLayout()
        for text, slot in (
            ("Add &approver…", self._ask_add),
            ("New &key…", self._ask_new_key),
            ("&Retire…", self._ask_retire),
        ):
            button = QPushButton(text)
            button.clicked.connect(slot)
            registry_buttons.addWidget(button)
        registry_buttons.addStretch(1)
        add = QPushButton("&Add certificate…")
        add.clicked.connect(
            lambda: self.add_from(dialogs.open_file(self, "Trust a certificate", CERTIFICATE_FILES))
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(add, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(QLabel("Approvers (person, role, key, from when):"))
        layout.addWidget(self.approvers)
        layout.addLayout(registry_buttons)
        layout.addWidget(QLabel("Trusted certificates (trust anchors) and the row that kept each:"))
        layout.addWidget(self.listing)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self._fill()

    def _fill(self) -> None:
        self.approvers.clear()
        for entry in approver_registry.registry_entries(self.document):
            item = QListWidgetItem(entry.describe())
            item.setData(Qt.ItemDataRole.UserRole, entry.label)
            self.approvers.addItem(item)
        if not self.approvers.count():
            self.approvers.addItem(NO_APPROVERS)
        self.listing.clear()
        listed = trusted_certificates(self.document)
        self.listing.addItems(
            [c.describe() for c in listed]
            or [
                "None yet: memos verified against this evaluation show their signers as not "
                "trusted."
            ]
        )

    def _done(self, words: str, change: Callable[[], object]) -> bool:
        try:
            change()
        except (
            InputError
        ) as exc:  # the document's own refusals (EditRejectedError) are InputErrors too
            self.status.setStyleSheet("color: #b3261e;")
            self.status.setText(f"Not changed: {exc}")
            return False
        self.status.setStyleSheet("")
        self.status.setText(words)
        self._fill()
        return True

    def add_from(self, path: str) -> None:
        if not path:
            return
        try:  # quick (one audited row each), and the document lives on this thread
            added = trust(self.document, [path], no_progress, NEVER_CANCELLED).added
        except InputError as exc:
            self.status.setStyleSheet("color: #b3261e;")
            self.status.setText(f"Not added: {exc}")
            return
        self.status.setStyleSheet("")
        self.status.setText("Added: " + "; ".join(c.subject for c in added))
        self._fill()

    # -- the registry: each a core operation on what the form gathered -----------------------------
    def register(self, change: ApproverChange) -> bool:
        return self._done(
            f"Registered {change.label}",
            lambda: approver_registry.add_approver(
                self.document,
                change.label,
                change.certificate,
                email=change.email,
                valid_from=change.date or None,
            ),
        )

    def new_key(self, change: ApproverChange) -> bool:
        return self._done(
            f"New key for {change.label}",
            lambda: approver_registry.change_key(self.document, change.label, change.certificate),
        )

    def retire(self, change: ApproverChange) -> bool:
        return self._done(
            f"Retired {change.label}",
            lambda: approver_registry.retire(self.document, change.label, change.date or None),
        )

    def _selected_label(self) -> str:
        item = self.approvers.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole) or "") if item is not None else ""

    def _ask(self, kind: str, then: Callable[[ApproverChange], bool]) -> None:
        label = self._selected_label()
        if kind != "add" and not label:
            self.status.setText("Select an approver in the list first.")
            return
        form = ApproverForm(kind, label, self)
        if form.exec() == QDialog.DialogCode.Accepted:
            then(form.change())

    def _ask_add(self) -> None:
        self._ask("add", self.register)

    def _ask_new_key(self) -> None:
        self._ask("key", self.new_key)

    def _ask_retire(self) -> None:
        self._ask("retire", self.retire)
