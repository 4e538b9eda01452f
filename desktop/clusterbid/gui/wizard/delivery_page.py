"""The wizard's Delivery page: the bid's phased handover and late-delivery remedies (issue 39, item 1).

Everything here may be left blank: blank is "not stated", and a bid with no phase keeps the single
"Available from" date of the Capacity page. A blank figure is never shown as the provider's: the
slip then follows ClusterBid's documented default (core/delivery.py), said so in words below the
fields. The rules (phases in date order, adding up to the GPUs offered) are the model's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.delivery import DeliverySchedule, slip_words
from clusterbid.gui.error_line import ErrorLine
from clusterbid.gui.wizard.delivery_phases import (
    NO_PHASE,
    PHASES,
    PhaseRow,
    fill_phases,
    new_phase_row,
    phase_summary,
    phases_entered,
)
from clusterbid.gui.wizard.field_rules import (
    BLANK,
    FieldBinding,
    connect_changes,
    show_messages,
)
from clusterbid.gui.wizard.problems import Problem
from clusterbid.gui.wizard.section_page import ERROR_STYLE, FieldSpec, SectionPage

if TYPE_CHECKING:
    from clusterbid.gui.wizard.bid_wizard import BidWizard

YES_NO_BILLING = [("Yes: billed from acceptance", True), ("No: billed from the stated date", False)]


class DeliveryPage(SectionPage):
    TITLE = "Delivery schedule"
    SUBTITLE = (
        "When the provider hands the GPUs over, in phases, and what it owes when late. Leave it "
        "all "
        'empty when the bid gives only one date (the Capacity page\'s "Available from").'
    )
    GROUPS = [
        (
            "Keeping to the dates, and when late",
            [
                FieldSpec(DeliverySchedule, ("delivery", "on_time_percent"), "&On-time chance (%)"),
                FieldSpec(
                    DeliverySchedule,
                    ("delivery", "past_slip_days"),
                    "Past &slips (days late each)",
                    not_stated=True,
                ),
                FieldSpec(
                    DeliverySchedule,
                    ("delivery", "late_credit_percent_per_week"),
                    "Late &credit (% per week)",
                ),
                FieldSpec(
                    DeliverySchedule,
                    ("delivery", "liquidated_damages_per_day"),
                    "Liquidated &damages per day",
                ),
                FieldSpec(
                    DeliverySchedule, ("delivery", "remedy_cap_percent"), "Remedies ca&pped at (%)"
                ),
                FieldSpec(
                    DeliverySchedule,
                    ("delivery", "terminate_after_days_late"),
                    "May &terminate after (days late)",
                ),
                FieldSpec(
                    DeliverySchedule,
                    ("delivery", "billing_starts_at_acceptance"),
                    "Billing starts at &acceptance",
                    choices=YES_NO_BILLING,
                ),
            ],
        )
    ]
    # Core messages name the phases as "delivery.phases"; the wizard's titles rewrite them.
    EXTRA_TITLES = {"delivery.phases": "the delivery phases"}

    def __init__(self, host: BidWizard) -> None:
        super().__init__(host)
        self.rows: list[PhaseRow] = []
        self.sent_rows: list[
            int
        ] = []  # which rows became phases 0, 1, ... (blank rows are skipped)
        box = QGroupBox("Phases, in date order (their GPUs add up to the GPUs offered)")
        self.grid = QGridLayout(box)
        for column, title in enumerate(("Phase", "GPUs", "Handover date", "Joins the job's block")):
            self.grid.addWidget(QLabel(f"<b>{title}</b>"), 0, column)
        self.buttons = (
            QWidget()
        )  # a widget, so it can move below a new row (a layout cannot be re-added)
        buttons = QHBoxLayout(self.buttons)
        buttons.setContentsMargins(0, 0, 0, 0)
        add, remove = QPushButton("Add a p&hase"), QPushButton("Re&move the last phase")
        add.setObjectName("add_phase")
        remove.setObjectName("remove_phase")
        add.clicked.connect(self._add_clicked)
        remove.clicked.connect(self._remove_clicked)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        self.total = QLabel()
        self.total.setObjectName("phase_total")
        self.phase_error = ErrorLine("error_delivery_phases")
        self.phase_error.setStyleSheet(ERROR_STYLE)
        self.slip_source = QLabel()
        self.slip_source.setObjectName("slip_source")
        self.slip_source.setWordWrap(True)
        for _ in range(2):
            self.add_row()
        self._place_below_rows()
        # The phases first, then the remedies, all in the page's scroll area: many phases scroll
        # rather than push the wizard past a 768-pixel-high laptop screen.
        scroll = self.findChild(QScrollArea)
        assert scroll is not None  # made by SectionPage for the form's fields
        content = QWidget()
        stack = QVBoxLayout(content)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.addWidget(box)
        stack.addWidget(scroll.takeWidget())
        stack.addWidget(self.slip_source)
        stack.addStretch(1)
        scroll.setWidget(content)

    # --- the phase rows ---------------------------------------------------------------------------
    def _add_clicked(self) -> None:
        self.add_row()
        self.host.refresh()

    def _remove_clicked(self) -> None:
        self.remove_row()
        self.host.refresh()

    def add_row(self) -> None:
        index = len(self.rows)
        row = new_phase_row(index)
        for column, cell in enumerate(row.widgets):
            self.grid.addWidget(cell, index + 1, column)
        for binding in row.fields:
            connect_changes(binding, self.host.refresh)
        self.rows.append(row)
        self._place_below_rows()

    def remove_row(self) -> None:
        if len(self.rows) <= 1:
            return
        for widget in self.rows.pop().widgets:
            self.grid.removeWidget(widget)
            widget.deleteLater()
        self._place_below_rows()

    def _place_below_rows(self) -> None:
        if not hasattr(self, "total"):
            return
        below = len(self.rows) + 1
        self.grid.addWidget(self.phase_error, below, 0, 1, 4)
        self.grid.addWidget(self.total, below + 1, 0, 1, 4)
        self.grid.addWidget(self.buttons, below + 2, 0, 1, 4)

    # --- values -----------------------------------------------------------------------------------
    def customise(self, spec: FieldSpec, binding: FieldBinding) -> FieldBinding:
        if spec.path == ("delivery", "past_slip_days"):
            widget = binding.widget
            assert isinstance(widget, QLineEdit)  # a tuple field is typed as text
            widget.setMaxLength(1000)
            widget.setPlaceholderText("e.g. 0, 14, 30 (0 = on time)")
            # Typed as a list; a word that is not a number reaches the model, which says so.
            binding.read = lambda: [
                part.strip() for part in widget.text().split(",") if part.strip()
            ]
            binding.write = lambda days: widget.setText(", ".join(str(d) for d in days or ()))
        return binding

    def values(self) -> dict[str, Any]:
        out = super().values()
        delivery = {
            key: value for key, value in out.pop("delivery", {}).items() if value not in (None, [])
        }
        phases, self.sent_rows = phases_entered(self.rows)
        if phases:
            delivery["phases"] = phases
        if delivery:  # nothing entered: no schedule at all (not stated), not an empty one
            out["delivery"] = delivery
        return out

    def load(self, raw: dict[str, Any]) -> None:
        super().load(raw)
        phases = (raw.get("delivery") or {}).get("phases") or []
        while len(self.rows) < len(phases):
            self.add_row()
        fill_phases(self.rows, phases)

    def summary_rows(self) -> list[tuple[str, str]]:
        """The phases as the Review page lists them."""
        return phase_summary(self.rows, self.sent_rows)

    # --- problems ---------------------------------------------------------------------------------
    def owns(self, path: tuple[str, ...]) -> bool:
        return path[:1] == ("delivery",) or super().owns(path)

    def shown(self, problem: Problem) -> bool:
        # A phase the officer started shows what it lacks; "no phase at all" is shown at once.
        return (
            problem.kind != "missing"
            or len(problem.path) > 2
            or super().shown(problem)
            or problem.path == PHASES
        )

    def field_titles(self) -> dict[tuple[str, ...], str]:
        titles = super().field_titles()
        for number, index in enumerate(self.sent_rows):
            for binding in self.rows[index].fields:
                titles[(*PHASES, str(number), binding.path[-1])] = binding.title
        titles[PHASES] = titles[("delivery",)] = "Phases"
        return titles

    def show_problems(self, problems: tuple[Problem, ...]) -> None:
        super().show_problems(problems)
        for row in self.rows:
            for binding in row.fields:
                show_messages(binding, [])
        for number, index in enumerate(self.sent_rows):
            for binding in self.rows[index].fields:
                at = (*PHASES, str(number), binding.path[-1])
                show_messages(binding, [p.message for p in problems if p.path == at])
        general = [
            NO_PHASE if p.kind == "missing" else p.message
            for p in problems
            if p.path in (PHASES, ("delivery",))
        ]
        self.phase_error.say("\n".join(general))

    def after_refresh(self) -> None:
        offered = self.host.raw_bid().get("capacity", {}).get("gpus_offered")
        phased = sum(r.gpus.read() for r in self.rows if r.gpus.read() is not BLANK)
        self.total.setText(
            f"The phases hand over {phased:,} GPUs"
            + (f" of the {offered:,} offered." if isinstance(offered, int) else ".")
        )
        self.slip_source.setText(self._slip_words())

    def _slip_words(self) -> str:
        """Where a drawn slip comes from: the provider's figure, or the default said to be one."""
        checked = self.host.checked.bid
        if checked is not None and checked.delivery is not None:
            return "Slips in the Monte Carlo: " + slip_words(checked.delivery) + "."
        return ""
