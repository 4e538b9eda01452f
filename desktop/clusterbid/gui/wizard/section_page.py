"""A wizard page that edits one or more bid sections through model-bound fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
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
        fields = QWidget()
        columns = QHBoxLayout(fields)
        columns.setContentsMargins(0, 0, 0, 0)
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
            if title is None:
                columns.addLayout(form)
            else:
                box = QGroupBox(title)
                box.setLayout(form)
                columns.addWidget(box)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(fields)
        self.outer.addWidget(scroll, 1)
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
