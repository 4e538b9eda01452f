"""File > Seal for the Archive: the timestamp authority to ask, then the seal in the background.

The dialog only asks; `operations.sealing.seal_memo_file`, the one `clusterbid seal` runs, does
the work on the background runner, so a slow or absent network never freezes the window. A failed
seal is shown in words and leaves the memo as it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtWidgets import (
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

from clusterbid.gui.error_line import ErrorLine
from clusterbid.gui.memo.step_words import SEAL_CA_FIELD, SEAL_TSA_FIELD
from clusterbid.gui.memo.verify_dialog import CA_FILES
from clusterbid.operations.sealing import TSA_ENV

EXPLANATION = (
    "Sealing adds what the memo needs to verify for years: the certificates and revocation status "
    "of every signature, and a timestamp from a timestamp authority proving when the memo existed. "
    "It needs a network; nothing already signed is changed. Seal again before the timestamp "
    "authority's certificate expires."
)


class SealMemoDialog(QDialog):
    """Asks for the timestamp authority's address, and optionally the organisation's CA certificate
    to build the certificate chains from (a seal refused for a chain it could not complete points
    here); `tsa` and `trust` hold them once accepted."""

    def __init__(self, memo_path: Path, parent=None, offered: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Seal {memo_path.name} for the archive")
        self.resize(560, 200)
        self.tsa: str | None = None
        self.trust: list[str] = []
        explanation = QLabel(EXPLANATION)
        explanation.setWordWrap(True)
        self.url = QLineEdit(offered or os.environ.get(TSA_ENV, ""))
        self.url.setObjectName("seal_tsa")
        self.url.setPlaceholderText(
            "https://timestamp.example.org (your organisation's RFC 3161 service)"
        )
        self.ca_file = QLineEdit()
        self.ca_file.setObjectName("seal_ca")
        self.ca_file.setPlaceholderText(
            "optional: only when a certificate chain cannot be completed"
        )
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_file, 1)
        ca_row.addWidget(browse)
        form = QFormLayout()
        form.addRow(SEAL_TSA_FIELD, self.url)
        form.addRow(SEAL_CA_FIELD, ca_row)
        self.problem = ErrorLine("seal_problem")  # keeps its place: the buttons never jump
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Seal")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(explanation)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def _accept(self) -> None:
        url = self.url.text().strip()
        if not url.startswith(("http://", "https://")):
            self.problem.say("Give the timestamp authority's address, starting http:// or https://")
            return
        self.tsa = url
        self.trust = [self.ca_file.text().strip()] if self.ca_file.text().strip() else []
        self.accept()

    def _browse(self) -> None:
        path = QFileDialog.getOpenFileName(self, "The organisation's CA certificate", "", CA_FILES)[
            0
        ]
        if path:
            self.ca_file.setText(path)


def seal_in_background(
    window,
    tasks,
    path: Path,
    tsa: str,
    status: Callable[[str], None],
    failed: Callable[[Exception], None],
    trust: Sequence[str] = (),
) -> None:
    """Run the seal on the background runner; its words go to the status bar when it is done."""
    from clusterbid.operations import sealing

    def work(progress):
        return sealing.seal_memo_file(path, tsa, progress, progress, trust=list(trust))

    tasks.run("memo seal", work, lambda sealed: status(sealed.words()), failed)
