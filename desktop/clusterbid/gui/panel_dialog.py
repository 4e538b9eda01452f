"""File > Evaluation Panel: invite, merge (choose or drop the copies), status and consensus over
the window's document, or, in an evaluator's copy, the evaluator's own judgement. Every button
runs the operation `clusterbid panel` runs (operations/panel.py); this dialog only collects the
words typed and shows what came back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.errors import InputError
from clusterbid.gui.background import BackgroundTasks
from clusterbid.operations import panel

if TYPE_CHECKING:
    from clusterbid.gui.session import Session

COPIES = "Evaluator copies (*.clusterbid)"


def _lines(box: QPlainTextEdit) -> list[str]:
    return [line.strip() for line in box.toPlainText().splitlines() if line.strip()]


def _box(hint: str, height: int = 70) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setPlaceholderText(hint)
    box.setFixedHeight(height)
    return box


class PanelDialog(QDialog):
    """A modest dialog: one tab per verb; the result (or the refusal, in words) under the tabs."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("Evaluation panel")
        self.setAcceptDrops(True)  # drop evaluator copies here to merge them
        self.tabs = QTabWidget()
        self.result = QPlainTextEdit(readOnly=True)
        self.result.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.is_copy = session.document.copy_stamp() is not None
        # The status re-scores every evaluator's weights (about a CPU second on the demo): it runs
        # off the window's thread. The writes (invite, merge, consensus) stay here, in order.
        self.tasks = BackgroundTasks(self, threads=1)
        if self.is_copy:
            self.tabs.addTab(self._judge_tab(), "Your judgement")
        else:
            self.tabs.addTab(self._invite_tab(), "Invite")
            self.tabs.addTab(self._merge_tab(), "Merge")
            self.tabs.addTab(self._consensus_tab(), "Status and consensus")
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.result)
        self.resize(760, 620)

    @property
    def path(self) -> Path:
        return self.session.document.path

    def _run(self, title: str, work: Callable[[], str], wrote: bool = True) -> None:
        """Run one operation; show its words, or the refusal; then take in what it wrote."""
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.result.setPlainText(work())
        except InputError as exc:
            self.result.setPlainText(f"{title} refused: {exc}")
        finally:
            QApplication.restoreOverrideCursor()
            if wrote:
                self.session.catch_up()

    # -- the lead's tabs -------------------------------------------------------------------
    def _invite_tab(self) -> QWidget:
        tab, form = QWidget(), QFormLayout()
        self.evaluators = _box("One evaluator per line: Name, Role")
        self.criteria = QLineEdit(placeholderText="Criteria the panel scores 0-10, separated by ;")
        self.ranges = _box("Optional, one per line: Criterion=LOW-HIGH (default 0-100)", 50)
        self.folder = QLineEdit(placeholderText="Folder the copies are written to")
        choose = QPushButton("Choose folder…", clicked=self._choose_folder)
        form.addRow("Evaluators", self.evaluators)
        form.addRow("Panel criteria", self.criteria)
        form.addRow("Weight ranges", self.ranges)
        form.addRow("Folder", self.folder)
        form.addRow("", choose)
        form.addRow("", QPushButton("Write the evaluator copies", clicked=self.invite))
        tab.setLayout(form)
        return tab

    def _choose_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Folder for the evaluator copies")
        if chosen:
            self.folder.setText(chosen)

    def invite(self) -> None:
        def work() -> str:
            if not self.folder.text().strip():
                raise InputError("choose the folder the copies are written to")
            criteria = [c.strip() for c in self.criteria.text().split(";") if c.strip()]
            written = panel.invite(
                self.path,
                _lines(self.evaluators),
                Path(self.folder.text().strip()),
                criteria,
                _lines(self.ranges),
            )
            return "Wrote, one for each evaluator:\n" + "\n".join(f"  {p}" for p in written)

        self._run("The invitation was", work)

    def _merge_tab(self) -> QWidget:
        tab, layout = QWidget(), QVBoxLayout()
        layout.addWidget(
            QLabel(
                "Choose the evaluators' copies, or drop them on this dialog. Each is checked "
                "against this document and merged in its own audited step."
            )
        )
        layout.addWidget(QPushButton("Choose copies to merge…", clicked=self._choose_copies))
        layout.addStretch()
        tab.setLayout(layout)
        return tab

    def _choose_copies(self) -> None:
        chosen, _ = QFileDialog.getOpenFileNames(self, "Evaluator copies to merge", "", COPIES)
        if chosen:
            self.merge([Path(p) for p in chosen])

    def merge(self, copies: list[Path]) -> None:
        def work() -> str:
            done, refused = panel.merge(self.path, copies)
            lines = [
                f"{m.copy.name}: {m.evaluator}'s judgement "
                + ("merged" if m.recorded else "already merged (nothing written)")
                for m in done
            ]
            return "\n".join(lines + refused)

        self._run("The merge was", work)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if not self.is_copy and event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt's name)
        self.merge(
            [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        )

    def _consensus_tab(self) -> QWidget:
        tab, form = QWidget(), QFormLayout()
        self.status_button = QPushButton("Show where the panel disagrees", clicked=self.show_status)
        form.addRow("", self.status_button)
        self.item_criterion = QLineEdit(placeholderText="The criterion, as the status names it")
        self.item_bid = QLineEdit(placeholderText="The bid, for a score; empty for a weight")
        self.agreed = QLineEdit(placeholderText="The agreed value; empty to accept the median")
        self.rationale = _box("Why the panel agreed this value", 50)
        self.dissent = _box("Optional, one per line: Name: reason", 50)
        for label, field in (
            ("Criterion", self.item_criterion),
            ("Bid", self.item_bid),
            ("Agreed value", self.agreed),
            ("Rationale", self.rationale),
            ("Dissent", self.dissent),
        ):
            form.addRow(label, field)
        form.addRow("", QPushButton("Record the consensus", clicked=self.record_consensus))
        tab.setLayout(form)
        return tab

    def show_status(self) -> None:
        self.status_button.setEnabled(False)
        self.result.setPlainText("Working out where the panel agrees and disagrees...")
        path = self.path
        self.tasks.run(
            "panel status",
            lambda _progress: panel.status(path).text(),
            self._status_shown,
            self._status_refused,
        )

    def _status_shown(self, text: object) -> None:
        self.status_button.setEnabled(True)
        self.result.setPlainText(str(text))

    def _status_refused(self, exc: Exception) -> None:
        self.status_button.setEnabled(True)
        if not isinstance(exc, InputError):
            raise exc  # a fault, not a refusal: the app's error handler reports it
        self.result.setPlainText(f"The status was refused: {exc}")

    def record_consensus(self) -> None:
        def work() -> str:
            agreed = panel.consensus(
                self.path,
                self.item_criterion.text(),
                self.item_bid.text() or None,
                self.agreed.text().strip() or None,
                self.rationale.toPlainText(),
                _lines(self.dissent),
            )
            return (
                f"Recorded: agreed value {agreed['value']:g}, with {len(agreed['dissent'])} "
                "dissent."
            )

        self._run("The consensus was", work)

    # -- an evaluator's copy -----------------------------------------------------------------
    def _judge_tab(self) -> QWidget:
        tab, form = QWidget(), QFormLayout()
        form.addRow(
            QLabel(
                "This is your evaluator copy: the bids, workload and policy are locked. Record "
                "your "
                "weights, scores, notes and questions, then return the file to the panel lead."
            )
        )
        self.weights = _box("One per line: Criterion=WEIGHT, within the range the lead allowed")
        self.scores = _box("One per line: Criterion:bid=SCORE (0-10)")
        self.notes = _box("One per line: bid: note", 50)
        self.questions = _box("One per line: bid: question", 50)
        for label, field in (
            ("Weights", self.weights),
            ("Scores", self.scores),
            ("Notes", self.notes),
            ("Questions", self.questions),
        ):
            form.addRow(label, field)
        form.addRow("", QPushButton("Record my judgement", clicked=self.judge))
        tab.setLayout(form)
        return tab

    def judge(self) -> None:
        def work() -> str:
            panel.judge(
                self.path,
                _lines(self.weights),
                _lines(self.scores),
                _lines(self.notes),
                _lines(self.questions),
            )
            return (
                f"Recorded your judgement in {self.path.name}; return the file to the panel lead."
            )

        self._run("Your judgement was", work)
