"""A wizard page that edits one or more bid sections through model-bound fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from clusterbid.gui.error_line import ErrorLine
from clusterbid.gui.wizard.field_rules import (
    BLANK,
    FieldBinding,
    connect_changes,
    field_cell,
    make_binding,
    show_messages,
)
from clusterbid.gui.wizard.problems import Problem

if TYPE_CHECKING:
    from clusterbid.gui.wizard.bid_wizard import BidWizard

ERROR_STYLE = "color: #b3261e;"


@dataclass(frozen=True)
class FieldSpec:
    """What a page shows for one model field: the model, the path in the bid and the label."""

    model: type[BaseModel]
    path: tuple[str, ...]
    label: str  # with an & mnemonic
    choices: list[tuple[str, Any]] | None = None
    decimals: int = 2
    not_stated: bool = False  # the provider may omit it: blank means "not stated" (issue 14)


class GroupScroll(QScrollArea):
    """A page's groups of fields side by side as many as the width holds, the rest wrapped below
    in order, so no field lies past the right edge (the serving Contract page's four groups
    needed 1,300 pixels and hid the burst price and the SLA claim terms behind a sideways scroll
    bar); the page scrolls up and down only, unless one group alone is wider than the page."""

    def __init__(self, groups: list[QWidget]) -> None:
        super().__init__()
        self.groups = groups
        self.columns = 0  # groups per row as laid out; 0 before the first
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        fields = QWidget()
        self.grid = QGridLayout(fields)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.setWidget(fields)
        self._arrange(len(groups))

    def _arrange(self, columns: int) -> None:
        if columns == self.columns:
            return
        for group in self.groups:
            self.grid.removeWidget(group)
        for at, group in enumerate(self.groups):
            self.grid.addWidget(group, at // columns, at % columns)
        for column in range(len(self.groups)):
            self.grid.setColumnStretch(column, 1 if column < columns else 0)
        self.columns = columns

    def fitting_columns(self, width: int) -> int:
        """The most groups per row whose widest members fit `width` side by side (at least 1)."""
        spacing = max(self.grid.horizontalSpacing(), 0)
        for columns in range(len(self.groups), 1, -1):
            widths = [
                max(g.minimumSizeHint().width() for g in self.groups[c::columns])
                for c in range(columns)
            ]
            if sum(widths) + spacing * (columns - 1) <= width:
                return columns
        return 1

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        # The room as if the vertical scroll bar were shown, so showing it cannot re-wrap.
        room = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        self._arrange(self.fitting_columns(room))
        super().resizeEvent(event)


class SectionPage(QWizardPage):
    """Fields in QFormLayouts (one per group), each with its error label beneath it."""

    TITLE = ""
    SUBTITLE = ""
    # A serving (inference) evaluation's wording where the training one would mislead: a service
    # has no gradients and writes no checkpoints.
    SERVING_SUBTITLE = ""
    SERVING_LABELS: dict[tuple[str, ...], str] = {}
    SERVING_TIPS: dict[tuple[str, ...], str] = {}
    GROUPS: list[tuple[str | None, list[FieldSpec]]] = []
    OWNS: tuple[tuple[str, ...], ...] = ()  # section-level paths whose messages this page shows

    def __init__(self, host: BidWizard) -> None:
        super().__init__()
        self.host = host
        self.setTitle(self.TITLE)
        serving = getattr(host.evaluation.workload, "kind", "training") == "inference"
        subtitle = self.SERVING_SUBTITLE if serving and self.SERVING_SUBTITLE else self.SUBTITLE
        self.setSubTitle(
            subtitle + " Fields marked * are required; hover a field for what it means."
        )
        self.bindings: list[FieldBinding] = []
        self.outer = QVBoxLayout(self)
        self.top = QVBoxLayout()
        self.outer.addLayout(self.top)
        # every problem of the page at once, above the fields; its line is kept while there is
        # none, so the fields do not drop as the first problem appears (issue 38)
        self.summary = ErrorLine("problem_summary")
        self.summary.setStyleSheet(ERROR_STYLE)
        self.outer.addWidget(self.summary)
        # The fields scroll rather than squeeze: squeezed, a wrapped error label is cut top and bottom.
        groups: list[QWidget] = []
        for title, specs in self.GROUPS:
            form = QFormLayout()
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
            for spec in specs:
                label = self.SERVING_LABELS.get(spec.path, spec.label) if serving else spec.label
                binding = self.customise(
                    spec,
                    make_binding(
                        spec.model,
                        spec.path,
                        label,
                        choices=spec.choices,
                        decimals=spec.decimals,
                        not_stated=spec.not_stated,
                    ),
                )
                if serving and spec.path in self.SERVING_TIPS:
                    binding.widget.setToolTip(self.SERVING_TIPS[spec.path])
                    binding.label.setToolTip(self.SERVING_TIPS[spec.path])
                form.addRow(binding.label, self.field_row(binding))
                connect_changes(binding, host.refresh)
                self.bindings.append(binding)
            box = QWidget() if title is None else QGroupBox(title)
            box.setLayout(form)
            groups.append(box)
        self.fields_scroll = GroupScroll(groups)
        self.outer.addWidget(self.fields_scroll, 1)
        self.page_error = QLabel()
        self.page_error.setWordWrap(True)
        self.page_error.setStyleSheet(ERROR_STYLE)
        self.page_error.hide()
        self.outer.addWidget(self.page_error)

    def customise(self, spec: FieldSpec, binding: FieldBinding) -> FieldBinding:
        """Hook for pages that adjust a widget (catalog combo boxes, suffixes)."""
        return binding

    def field_row(self, binding: FieldBinding) -> QWidget:
        """Hook: what sits right of the label (the Reliability page adds each figure's source)."""
        return field_cell(binding)

    def binding(self, *path: str) -> FieldBinding:
        return next(b for b in self.bindings if b.path == path)

    def values(self) -> dict[str, Any]:  # JSON-like: the model validates each value
        """This page's fields as a nested dict fragment; blank required fields are left out."""
        out: dict[str, Any] = {}
        for b in self.bindings:
            value = b.read()
            if value is BLANK:
                continue
            target = out
            for key in b.path[:-1]:
                target = target.setdefault(key, {})
            target[b.path[-1]] = value
        return out

    def load(self, raw: dict[str, Any]) -> None:
        for b in self.bindings:
            value: Any = raw
            for key in b.path:
                value = value.get(key, BLANK) if isinstance(value, dict) else BLANK
            if value is not BLANK:
                b.write(value)
                b.touched = True

    def owns(self, path: tuple[str, ...]) -> bool:
        return path in self.OWNS or any(b.path == path for b in self.bindings)

    def shown(self, problem: Problem) -> bool:
        """A 'required' message waits until the officer has touched the field (a fresh page is not a wall of red)."""
        if problem.kind != "missing":
            return True
        return any(b.path == problem.path and b.touched for b in self.bindings)

    def show_problems(self, problems: tuple[Problem, ...]) -> None:
        for b in self.bindings:
            show_messages(b, [p.message for p in problems if p.path == b.path and self.shown(p)])
        general = [p.message for p in problems if p.path in self.OWNS]
        self.page_error.setText("\n".join(general))
        self.page_error.setVisible(bool(general))
        self.summary.say(self.summary_text(problems))

    def summary_text(self, problems: tuple[Problem, ...]) -> str:
        """How many problems this page shows and which fields they are in; what other pages hold."""
        titles = self.field_titles()
        here = [p for p in problems if self.owns(p.path) and (self.shown(p) or p.path in self.OWNS)]
        elsewhere: dict[str, int] = {}
        for p in problems:
            if (
                not self.owns(p.path) and p.kind != "missing"
            ):  # blank fields ahead are not yet faults
                page = self.host.locate(p.path)[1]
                elsewhere[page] = elsewhere.get(page, 0) + 1
        lines = []
        if here:
            fields = ", ".join(dict.fromkeys(titles.get(p.path, "this page") for p in here))
            lines.append(
                f"{len(here)} problem{'s' * (len(here) != 1)} to fix on this page: {fields}."
            )
        if elsewhere:
            lines.append(
                "Also to fix: " + ", ".join(f"{page} ({n})" for page, n in elsewhere.items()) + "."
            )
        return " ".join(lines)

    def field_titles(self) -> dict[tuple[str, ...], str]:
        """Hook: each field's title by path (a page with fields outside its form adds theirs)."""
        return {b.path: b.title for b in self.bindings}

    def after_refresh(self) -> None:
        """Hook: update hints that depend on the values (capacity warning, fabric aggregate)."""

    def isComplete(self) -> bool:  # noqa: N802 (Qt API)
        return not any(self.owns(p.path) for p in self.host.checked.problems)
