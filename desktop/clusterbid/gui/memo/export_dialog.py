"""File > Export Approval Memo: who signs, the officer's notes, and an optional justified override.

The dialog only gathers; `core.memo` decides what is acceptable (an approver needs a name and a
role, an override needs a ranked bid and a written justification) and the dialog shows its
message beside the part to fix, keeping everything typed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from clusterbid.core.errors import InputError
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.core.memo.four_eyes import refuse_same_person_twice
from clusterbid.core.memo.inputs import (
    Approver,
    RecommendationOverride,
    check_override,
    checked_email,
)
from clusterbid.core.memo.memo_kinds import memo_kind
from clusterbid.core.memo.page_one import cheaper_bids
from clusterbid.core.scoring import Scorecard

NAME, ROLE, EMAIL = 0, 1, 2


@dataclass(frozen=True)
class MemoRequest:
    approvers: tuple[Approver, ...]
    notes: str
    override: RecommendationOverride | None
    decision_date: dt.date | None = None  # the approval meeting's date, printed on page 1
    rationale: str = ""  # issue 34: why the premium over a cheaper passing bid


class MemoExportDialog(QDialog):
    def __init__(self, scorecard: Scorecard, parent=None, approvers: list[Approver] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export the approval memo")
        self.resize(640, 560)
        self._scorecard = scorecard
        self.request: MemoRequest | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(self._approvers_group(approvers))
        self.table.setFocus()
        self.notes = QPlainTextEdit()
        self.notes.setPlaceholderText("Printed under the decision, e.g. what the panel discussed")
        self.notes.setObjectName("memo_notes")
        notes_box = QGroupBox("Officer's notes (optional)")
        QVBoxLayout(notes_box).addWidget(self.notes)
        layout.addWidget(notes_box)
        layout.addWidget(self._override_group())
        # Page 1 records when the approval is decided (a source-selection record needs the date
        # apart from the export day); today by default, the meeting's date when it is another day.
        self.decision_date = QDateEdit(QDate.currentDate())
        self.decision_date.setObjectName("memo_decision_date")
        self.decision_date.setCalendarPopup(True)
        self.decision_date.setDisplayFormat("yyyy-MM-dd")
        date_row = QFormLayout()
        date_row.addRow("&Decision date (the approval meeting)", self.decision_date)
        layout.addLayout(date_row)
        self.problem = QLabel()
        self.problem.setObjectName("memo_problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020")
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = buttons.addButton("Export…", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # A memo without an approver has no signature field: Export waits until one is named.
        self.table.itemChanged.connect(self._update_export_button)
        self.table.model().rowsRemoved.connect(self._update_export_button)
        self._update_export_button()

    def _update_export_button(self, *_args) -> None:
        named = any(
            (self.table.item(row, NAME) and self.table.item(row, NAME).text().strip())
            for row in range(self.table.rowCount())
        )
        self.export_button.setEnabled(bool(named))
        self.export_button.setToolTip(
            ""
            if named
            else "Name at least one approver first: the memo needs "
            "someone to sign it (one signature field per approver)"
        )

    # -- parts -------------------------------------------------------------------------------------
    def _approvers_group(self, approvers) -> QGroupBox:
        box = QGroupBox("Approvers, in signing order (one signature field each)")
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("memo_approvers")
        self.table.setHorizontalHeaderLabels(["Name", "Role", "E-mail (optional)"])
        self.table.horizontalHeaderItem(EMAIL).setToolTip(
            "When given, verify requires the approver's certificate to carry this address too"
        )
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(NAME, 240)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for approver in approvers:
            self.add_approver(approver.name, approver.role, email=approver.email)
        if not approvers:
            self.add_approver("", "")  # a row to type into straight away; left empty, it is ignored
        self.table.setCurrentCell(0, NAME)
        add, self.remove_button = QPushButton("&Add approver"), QPushButton("&Remove")
        add.clicked.connect(lambda: self.add_approver("", "", edit=True))
        self.remove_button.clicked.connect(self._remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(box)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        return box

    def _override_group(self) -> QGroupBox:
        box = QGroupBox("Recommendation")
        self.recommend = QComboBox()
        self.recommend.setObjectName("memo_recommend")
        ranked = [s for s in self._scorecard.ranked]
        if ranked:
            first = ranked[0].bid
            self.recommend.addItem(
                f"The model's first: {bid_label(first)}", None
            )  # words, never its id
        for score in ranked[1:]:
            self.recommend.addItem(
                f"Override: {bid_label(score.bid)}, ranked {score.rank}", score.bid.id
            )
        self.justification = QPlainTextEdit()
        self.justification.setObjectName("memo_justification")
        self.justification.setPlaceholderText(
            "Required with an override; the memo prints it beside the decision"
        )
        self.justification.setEnabled(False)
        self.recommend.currentIndexChanged.connect(
            lambda _i: self.justification.setEnabled(self.recommend.currentData() is not None)
        )
        self.rationale = QPlainTextEdit()
        self.rationale.setObjectName("memo_tradeoff_rationale")
        self.rationale.setPlaceholderText(
            "Required when the recommended bid costs more than a cheaper passing bid: "
            "what the premium buys; printed in page 1's trade-off"
        )
        form = QFormLayout(box)
        form.addRow("Recommend", self.recommend)
        form.addRow("Justification", self.justification)
        form.addRow("Trade-off rationale", self.rationale)
        return box

    def add_approver(self, name: str, role: str, edit: bool = False, email: str = "") -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, NAME, QTableWidgetItem(name))
        self.table.setItem(row, ROLE, QTableWidgetItem(role))
        self.table.setItem(row, EMAIL, QTableWidgetItem(email))
        if edit:
            self.table.setCurrentCell(row, NAME)
            self.table.editItem(self.table.item(row, NAME))

    def _remove_selected(self) -> None:
        for row in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(row)

    # -- result ------------------------------------------------------------------------------------
    def _approvers(self) -> tuple[Approver, ...]:
        people = []
        for row in range(self.table.rowCount()):
            name, role, email = (
                self.table.item(row, c).text().strip() if self.table.item(row, c) else ""
                for c in (NAME, ROLE, EMAIL)
            )
            if not name and not role:
                continue  # an empty row left by "Add approver" is not an approver
            if not name or not role:
                raise InputError(
                    f'approver {row + 1}: give both a name and a role (e.g. "Ada Lovelace", "CFO")'
                )
            people.append(Approver(name, role, checked_email(email, f"approver {row + 1}")))
        refuse_same_person_twice(people)  # four eyes, said before the memo is rendered
        return tuple(people)

    def build_request(self) -> MemoRequest:
        """The request as typed; raises InputError naming what to fix."""
        self.table.setCurrentCell(-1, -1)  # commit a cell still being edited
        approvers = self._approvers()
        bid_id = self.recommend.currentData()
        override = None
        if bid_id is not None:
            override = RecommendationOverride(bid_id, self.justification.toPlainText().strip())
            check_override(self._scorecard, override)
        rationale = self.rationale.toPlainText().strip()
        # Said here, before the memo's Monte Carlo runs; a serving memo has no trade-off section.
        if override is None and not rationale and memo_kind(self._scorecard).tradeoff_section:
            cheaper = (
                cheaper_bids(self._scorecard, self._scorecard.ranked[0])
                if self._scorecard.ranked
                else []
            )
            if cheaper:
                raise InputError(
                    f"{bid_label(self._scorecard.ranked[0].bid)} costs more than "
                    f"{bid_label(cheaper[0].bid)}: "
                    "give the trade-off rationale (what the premium buys); the memo prints it"
                )
        chosen = self.decision_date.date()
        return MemoRequest(
            approvers,
            self.notes.toPlainText().strip(),
            override,
            dt.date(chosen.year(), chosen.month(), chosen.day()),
            rationale,
        )

    def accept(self) -> None:
        try:
            self.request = self.build_request()
        except InputError as exc:
            self.problem.setText(str(exc))  # nothing typed is lost: the dialog stays open
            return
        super().accept()
