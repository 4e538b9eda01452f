"""Beneath the Details pane: the measurements most worth asking the selected bid's provider for
(value of information), the requests already issued and their states, and the pack's export."""

from __future__ import annotations

import datetime as dt
from html import escape
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFileDialog, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from clusterbid.core.errors import InputError
from clusterbid.core.evidence_request.status import request_statuses
from clusterbid.core.evidence_request.summary import asks
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.operations.evidence_request import request_evidence
from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

STATE_WORDS = {"answered": "answered", "late": "answered late", "refused": "refused", "open": "open",
               "partly answered": "partly answered",
               "overdue": "overdue: nothing returned by the deadline"}  # fmt: skip


class DocumentSource(Protocol):
    """The window's session (gui/session.py): its `document` waits for the commit lane."""

    @property
    def document(self) -> EvaluationDocument: ...


class EvidenceRequestsPanel(QWidget):
    """Reads the document through the session at each use, never through a reference of its
    own: the session hands it out once every queued edit is written, so the panel never reads
    the connection while the commit lane writes to it (nor sees a write before it commits)."""

    written = Signal(str)  # what was written and where, for the window's status bar

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("evidence_requests")
        self.text = QTextBrowser()
        self.text.setAccessibleName("Evidence worth asking for")
        self.export_button = QPushButton("Write request for evidence…")
        self.export_button.setToolTip(
            "Markdown and JSON a provider can follow; kept in the document "
            "so that returned files are matched to it"
        )
        self.export_button.clicked.connect(self._export)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.export_button)
        self.voi = None
        self.plan_values: tuple[str, ...] = ()
        self.session: DocumentSource | None = None
        self.bid_id: str | None = None
        self._show()

    @property
    def document(self) -> EvaluationDocument | None:
        return None if self.session is None else self.session.document

    def show_bid(
        self,
        session: DocumentSource,
        bid_id: str | None,
        voi=None,
        *,
        keep_value: bool = True,
        plan_values: tuple[str, ...] = (),
    ) -> None:
        """`voi`: the value of information of the current snapshot (None while it is computed);
        `plan_values`: the buyer's own plan figures valued with it, in words (issue 31)."""
        self.session, self.bid_id = session, bid_id
        if voi is not None or not keep_value:
            self.voi, self.plan_values = voi, plan_values
        self._show()

    def _show(self) -> None:
        self.export_button.setEnabled(self.bid_id is not None and self.voi is not None)
        document = self.document
        if document is None or document.is_closed or self.bid_id is None:
            # A late analysis may arrive after the window closed (or switched) its document.
            self.export_button.setEnabled(False)
            self.text.setHtml(
                "<p>Select a bid to see which evidence is worth asking its provider for.</p>"
            )
            return
        evaluation = document.evaluation
        parts = ["<h4>Evidence worth asking for</h4>"]
        if self.voi is None:
            parts.append("<p>Computing the value of information…</p>")
        else:
            found = asks(evaluation, self.voi, self.bid_id)
            items = "".join(f"<li>{escape(a.text)}</li>" for a in found)
            parts.append(
                f"<ul>{items}</ul>"
                if found
                else "<p>No single measurement of this bid can change the "
                "choice on the current figures.</p>"
            )
            parts.append(
                f"<p><small>Value of information over {self.voi.samples:,} Monte Carlo samples, "
                "seed "
                f"{self.voi.seed} (methodology section 11).</small></p>"
            )
            if (
                self.plan_values
            ):  # every bid's: the buyer's own figures, which no provider can answer
                items = "".join(f"<li>{escape(line)}</li>" for line in self.plan_values)
                parts.append(
                    f"<h4>Your own plan's figures: which matters most</h4><ul>{items}</ul>"
                )
        statuses = [
            s
            for s in request_statuses(document, dt.date.today())
            if s.request.bid_id == self.bid_id
        ]
        if statuses:
            rows = "".join(
                f"<li><b>{escape(s.request.request_id)}</b> {escape(s.request.title)}: "
                f"{escape(STATE_WORDS[s.state])}, due {s.deadline.isoformat()}"
                f"{escape(' — ' + s.note) if s.note else ''}</li>"
                for s in statuses
            )
            parts.append(f"<h4>Requests issued</h4><ul>{rows}</ul>")
        self.text.setHtml("".join(parts))

    def _export(self) -> None:
        if self.session is None or self.bid_id is None or self.voi is None:
            return
        folder = QFileDialog.getExistingDirectory(self, "Folder for the request for evidence")
        if folder:
            self.export_to(Path(folder))

    def export_to(self, folder: Path) -> list[Path]:
        document = self.document
        if document is None or self.bid_id is None or self.voi is None:
            return []
        try:
            # quick (two small files and one row), written once the lane has settled
            written = request_evidence(
                document.evaluation,
                self.bid_id,
                self.voi,
                folder,
                no_progress,
                NEVER_CANCELLED,
                issued=dt.date.today(),
                document=document,
            )
        except InputError as exc:
            dialogs.show_problem(self, "The request for evidence was not written", str(exc))
            return []
        self._show()
        self.written.emit(written.written_words())
        return list(written.paths)
