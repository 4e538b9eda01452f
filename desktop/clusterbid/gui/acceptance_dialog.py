"""The selected bid's acceptance (issue 39): write its acceptance plan, the contract's annex, and
see the files returned after handover judged against it: pass, fail or missing per test, the
remedy owed, and the award re-scored on the measured figures as a what-if."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from html import escape
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMainWindow,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.acceptance.render import measured_words, pass_words, returned_words
from clusterbid.core.acceptance.status import STATE_WORDS
from clusterbid.core.errors import InputError
from clusterbid.gui import dialogs
from clusterbid.gui.session import Session
from clusterbid.operations.acceptance import (
    acceptance_status,
    attach_acceptance_files,
    write_acceptance_plan,
)
from clusterbid.operations.progress import NEVER_CANCELLED, no_progress


class AcceptanceCommands:
    """The Edit menu's two acceptance actions, on the bid selected in the comparison."""

    def __init__(
        self, window: QMainWindow, session: Session, selected_bid_id: Callable[[], str | None]
    ) -> None:
        self.window, self.session, self.selected_bid_id = window, session, selected_bid_id
        self.dialog: AcceptanceDialog | None = None

    def write_plan_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.window, "Folder for the acceptance plan")
        if folder:
            self.write_plan(Path(folder))

    def write_plan(self, folder: Path) -> list[Path]:
        bid_id = self.selected_bid_id()
        if bid_id is None:
            return []
        try:  # a few small files and one row: quick, and the document lives on this thread
            written = write_acceptance_plan(
                self.session.document.evaluation,
                bid_id,
                folder,
                no_progress,
                NEVER_CANCELLED,
                issued=dt.date.today(),
                document=self.session.document,
            )
        except InputError as exc:
            dialogs.show_problem(self.window, "The acceptance plan was not written", str(exc))
            return []
        self.window.statusBar().showMessage(written.written_words(), 30_000)
        return list(written.paths)

    def show_status(self) -> None:
        bid_id = self.selected_bid_id()
        if bid_id is not None:
            self.dialog = AcceptanceDialog(self.session, bid_id, self.window)
            self.dialog.open()  # not exec(): the window stays usable and tests never block


class AcceptanceDialog(QDialog):
    def __init__(self, session: Session, bid_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.bid_id = session, bid_id
        self.setWindowTitle("Acceptance after handover")
        self.text = QTextBrowser()
        self.text.setAccessibleName("Acceptance tests and their results")
        attach = QPushButton("Attach returned files…")
        attach.setToolTip(
            "Files whose names begin with a test id (ACC-...), read like evidence and kept "
            "with this bid; the bid's own claims are not changed"
        )
        attach.clicked.connect(self._attach_dialog)
        what_if = QPushButton("Re-score with the measured figures")
        what_if.setToolTip(
            "What the award would have been with the measured figures; recorded in the "
            "audit trail as a what-if"
        )
        what_if.clicked.connect(lambda: self.show_results(with_what_if=True))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(attach)
        layout.addWidget(what_if)
        layout.addWidget(buttons)
        self.resize(760, 560)
        self.show_results()

    def _attach_dialog(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Files returned after handover")
        if names:
            self.attach([Path(n) for n in names])

    def attach(self, paths: list[Path]) -> bool:
        try:
            attach_acceptance_files(self.session.document, self.bid_id, paths)
        except InputError as exc:
            dialogs.show_problem(self, "Nothing was attached", str(exc))
            return False
        self.show_results()
        return True

    def show_results(self, with_what_if: bool = False) -> None:
        try:
            status = acceptance_status(
                self.session.document, self.bid_id, with_what_if=with_what_if
            )
        except InputError as exc:
            self.text.setHtml(f"<p>{escape(str(exc))}</p>")
            return
        plan = status.plan
        parts = [f"<h3>Acceptance of {escape(plan.provider)}</h3>"]
        if not status.issued:
            parts.append(
                "<p>No acceptance plan was written for this bid yet: the tests below are built now "
                "from the current figures. Write the plan (Edit menu) before attaching results.</p>"
            )
        rows = []
        for r in status.results:
            seen = measured_words(r.test, r.measured)
            lines = [escape(n) for n in (*r.notes, *returned_words(r.files))]
            if r.remedy_owed:
                lines.append(f"<b>Remedy owed:</b> {escape(r.remedy_owed)}")
            rows.append(
                f"<li><b>{escape(r.test.title)}</b>: {escape(STATE_WORDS[r.state] + seen)} "
                f"({escape(pass_words(r.test))})"
                + (f"<br><small>{'<br>'.join(lines)}</small>" if lines else "")
                + "</li>"
            )
        parts.append(f"<ul>{''.join(rows)}</ul>")
        if status.what_if is not None:
            parts.append(
                f"<p>{escape(status.what_if.words(self.session.document.evaluation.currency))}</p>"
            )
        self.text.setHtml("".join(parts))
