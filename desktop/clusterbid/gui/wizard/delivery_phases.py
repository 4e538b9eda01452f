"""The Delivery page's phase rows: one row of fields per phase (GPUs, handover date, whether it
joins the job's block), built, read into the model's phases, filled from a draft and listed for
the Review page. Blank rows are skipped: they are no phase, not an empty one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from clusterbid.core.delivery import DeliveryPhase
from clusterbid.gui.wizard.field_rules import BLANK, FieldBinding, field_cell, make_binding

PHASES = ("delivery", "phases")
NO_PHASE = (
    "Delivery phases: enter at least one phase (GPUs and handover date), or leave every "
    "delivery field empty when the bid states no schedule."
)


@dataclass
class PhaseRow:
    """One phase's three fields and the widgets that show its number."""

    gpus: FieldBinding
    handover: FieldBinding
    contiguous: FieldBinding
    widgets: list[QWidget]

    @property
    def fields(self) -> tuple[FieldBinding, ...]:
        return (self.gpus, self.handover, self.contiguous)

    def blank(self) -> bool:
        return self.gpus.read() is BLANK and self.handover.read() is BLANK


def new_phase_row(index: int) -> PhaseRow:
    """Row `index` (0-based): its number, then each field's editor above its error line."""
    path = (*PHASES, str(index))
    gpus = make_binding(DeliveryPhase, (*path, "gpus"), f"Phase {index + 1} GPUs")
    handover = make_binding(DeliveryPhase, (*path, "handover"), f"Phase {index + 1} handover date")
    contiguous = make_binding(
        DeliveryPhase, (*path, "contiguous"), f"Phase {index + 1} joins the block"
    )
    number = QLabel(str(index + 1))
    number.setAlignment(Qt.AlignmentFlag.AlignTop)
    cells = [number, field_cell(gpus), field_cell(handover), field_cell(contiguous)]
    return PhaseRow(gpus, handover, contiguous, cells)


def phases_entered(rows: list[PhaseRow]) -> tuple[list[dict[str, Any]], list[int]]:
    """The phases as the model reads them, and which row became phase 0, 1, ..."""
    phases, sent_rows = [], []
    for index, row in enumerate(rows):
        if row.blank():
            continue
        phase = {"contiguous": row.contiguous.read()}
        for key, binding in (("gpus", row.gpus), ("handover", row.handover)):
            if binding.read() is not BLANK:
                phase[key] = binding.read()
        phases.append(phase)
        sent_rows.append(index)
    return phases, sent_rows


def fill_phases(rows: list[PhaseRow], phases: list[dict[str, Any]]) -> None:
    """Show a draft's phases in the first rows (as if typed) and blank the rows after them."""
    for row, phase in zip(rows, phases):
        row.gpus.write(phase.get("gpus"))
        row.handover.write(phase.get("handover"))
        row.contiguous.write(phase.get("contiguous", True))
        for binding in row.fields:
            binding.touched = True
    for row in rows[len(phases) :]:  # a restored draft with fewer phases: the rest blank
        row.gpus.write(None)
        row.handover.write(None)
        row.contiguous.write(True)


def phase_summary(rows: list[PhaseRow], sent_rows: list[int]) -> list[tuple[str, str]]:
    """The phases as the Review page lists them."""
    summary = []
    for number, index in enumerate(sent_rows, start=1):
        row = rows[index]
        gpus, date = row.gpus.read(), row.handover.read()
        gpus_text = f"{gpus:,} GPUs" if gpus is not BLANK else "GPUs not entered"
        block = "joins the job's block" if row.contiguous.read() else "not in the job's block"
        summary.append(
            (f"Phase {number}", f"{gpus_text} on {date if date is not BLANK else '—'}, {block}")
        )
    return summary or [("Phases", 'none: the single "Available from" date')]
