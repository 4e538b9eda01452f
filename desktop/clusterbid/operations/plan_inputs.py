"""Edit the buyer's plan inputs (issue 31): the cost of capital and usual payment terms that price
every bid's payment terms, for serving the traffic (its daily profile and growth over the term,
issue 37), and for training the rest of the plan (start, deadline, idle time, the
cost of a day late, the commitment ceiling). One function serves `clusterbid plan` and the app's
Plan Inputs dialog; it validates every field and names the broken one in words, and the document
records the change as one audited edit, all of it or nothing.

Inputs are texts, as an officer types them: empty means "not given" (the documented default).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from clusterbid.core.engine_names import ENGINE_WORDS, NOT_STATED
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.kinds import SERVING, TRAINING, kind_of
from clusterbid.core.model_parsing import describe_validation_error
from clusterbid.core.store.snapshot import rebuild

if TYPE_CHECKING:
    from clusterbid.core.store import EvaluationDocument

EDIT_LABEL = "Edit the plan inputs"


@dataclass(frozen=True, slots=True)
class PlanInput:
    """One input as the officer sees it: its words and, for a choice, each option in words."""

    name: str  # the field's name in the evaluation JSON (what `clusterbid plan --set` takes)
    label: str
    choices: tuple[tuple[str, str], ...] = ()  # (value, words)


CASH_INPUTS = (
    PlanInput(
        "cost_of_capital_percent_per_year", "Cost of capital (% a year; empty: 8%, a default)"
    ),
    PlanInput("baseline_payment_days", "Your usual payment terms (days after invoice; empty: 30)"),
)
# Issue 37: a serving workload's traffic over the day and the term, typed in the app as in JSON.
SERVING_INPUTS = (
    PlanInput("peak_requests_per_s", "Requests per second at the daily peak"),
    PlanInput("average_requests_per_s", "Requests per second on average over a month"),
    PlanInput(
        "peak_hours_per_day",
        "Hours a day at the peak (empty: no traffic profile; or give the hourly shares)",
    ),
    PlanInput(
        "hourly_share_of_peak",
        "Each hour's traffic as a share of the peak (24 values, commas between; empty: none)",
    ),
    PlanInput("traffic_growth_percent_per_month", "Traffic growth (% a month; 0: none)"),
    PlanInput(
        "growth_spread_percent_per_month",
        "How far the growth may be off (% a month; empty: half the growth, a default)",
    ),
    # Issue 37: the engine the service will run (a choice, in words; not stated: the default).
    PlanInput(
        "serving_engine",
        "Serving engine you will run (not stated: the bands cover every published engine)",
        tuple(ENGINE_WORDS.items()),
    ),
    *CASH_INPUTS,
)
LIST_INPUTS = frozenset({"hourly_share_of_peak"})  # typed as values separated by commas
TRAINING_INPUTS = (
    PlanInput("start_date", "Earliest start (YYYY-MM-DD; empty: at handover)"),
    PlanInput("deadline", "Finish by (YYYY-MM-DD; empty: no deadline)"),
    PlanInput("deadline_confidence", "Chance of finishing by the deadline you require (0 to 1)"),
    PlanInput("delay_cost_per_day", "Cost of each day past the deadline (empty: none counted)"),
    PlanInput(
        "idle_use",
        "What idle reserved time does",
        (
            ("nothing", "nothing: it is worth nothing"),
            ("more-runs", "more runs of the same kind"),
            ("other-work", "other work, worth a stated amount"),
        ),
    ),
    PlanInput("idle_value_per_gpu_hour", "Worth of an idle GPU-hour (other work only)"),
    PlanInput("further_runs", "Further runs you will run in reserved time (more runs only)"),
    PlanInput(
        "alternative_price_per_gpu_hour",
        "Market price of a GPU-hour elsewhere (empty: the contract's)",
    ),
    PlanInput("alternative_price_decline_percent_per_year", "Fall of that market price (% a year)"),
    *CASH_INPUTS,
    PlanInput("commitment_ceiling", "Largest commitment you may sign (empty: no ceiling)"),
)
# Each evaluation kind's plan inputs (core/kinds.py).
INPUTS_OF_KIND = {TRAINING.tag: TRAINING_INPUTS, SERVING.tag: SERVING_INPUTS}


class PlanInputError(InputError):
    """Plan inputs that do not validate: each message by the field it names (`by_field`), and the
    rules that tie fields together (`general`), all in words; `tied` holds each such rule's
    message by the first field it names, for a form to show beside that field."""

    def __init__(
        self,
        by_field: dict[str, str],
        general: list[str],
        labels: Mapping[str, str],
        tied: dict[str, str] | None = None,
    ) -> None:
        self.by_field = by_field
        self.general = general
        self.tied = tied or {}
        lines = [
            f"{_short(labels[name])}: {message}" for name, message in by_field.items()
        ] + general
        super().__init__("the plan inputs were not changed: " + "; ".join(lines))


@dataclass(frozen=True, slots=True)
class PlanEdit:
    evaluation: Evaluation
    changed: tuple[str, ...] = field(default=())  # the labels of the inputs that changed


def _short(label: str) -> str:
    return label.split(" (")[0]


def plan_inputs(evaluation: Evaluation) -> tuple[PlanInput, ...]:
    """The inputs this evaluation's kind has: a serving workload's traffic and payment terms."""
    return INPUTS_OF_KIND[kind_of(evaluation).tag]


def _holder(evaluation: Evaluation) -> BaseModel:
    where = kind_of(evaluation).plan_field
    held: BaseModel = getattr(evaluation.workload, where) if where else evaluation.workload
    return held


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):
        return ", ".join(_text(v) for v in value)
    return str(value.normalize() if isinstance(value, Decimal) else value)


def current_texts(evaluation: Evaluation) -> dict[str, str]:
    """Each input's value as the form shows it (empty: not given)."""
    holder = _holder(evaluation)
    return {i.name: _text(getattr(holder, i.name)) for i in plan_inputs(evaluation)}


CHOICE_WORDS = {
    value: words for i in (*TRAINING_INPUTS, *SERVING_INPUTS) for value, words in i.choices
}
CHOICE_INPUTS = frozenset(i.name for i in (*TRAINING_INPUTS, *SERVING_INPUTS) if i.choices)
# A choice typed in the words the form shows (and a refusal lists) is the choice: per input,
# since two inputs may word a choice alike.
CHOICE_BY_WORDS = {
    i.name: {words.casefold(): value for value, words in i.choices}
    for i in (*TRAINING_INPUTS, *SERVING_INPUTS)
    if i.choices
}


def _in_words(message: str, labels: Mapping[str, str]) -> str:
    """A rule's message with field names and choices replaced by the words the form shows."""
    for name in sorted(labels, key=len, reverse=True):
        message = re.sub(rf"\b{re.escape(name)}\b", f"'{_short(labels[name])}'", message)
    for value, words in CHOICE_WORDS.items():
        message = message.replace(f"'{value}'", f"'{words}'")
    return message.removeprefix("Value error, ")


def first_named(message: str, names: Mapping[str, str]) -> str | None:
    """The input a rule's message names first ("average_requests_per_s (1000) cannot exceed
    peak_requests_per_s (120)": the average), or None when it names none."""
    found = [
        (match.start(), name)
        for name in names
        if (match := re.search(rf"\b{re.escape(name)}\b", message)) is not None
    ]
    return min(found)[1] if found else None


def _value(name: str, text: str) -> object:
    """The typed text as the model reads it: empty is not given; a list splits at commas (and
    spaces); a number drops its thousands commas."""
    if not text:
        return NOT_STATED if name == "serving_engine" else None
    if name in LIST_INPUTS:
        return [part for part in re.split(r"[,\s;]+", text) if part]
    if name in CHOICE_INPUTS:
        return CHOICE_BY_WORDS[name].get(" ".join(text.split()).casefold(), text)
    return text.replace(",", "")


def with_plan_inputs(evaluation: Evaluation, texts: Mapping[str, str]) -> PlanEdit:
    """The evaluation with these inputs (name -> text; names left out keep their value), fully
    validated. Raises PlanInputError naming each field that is wrong, and nothing changes."""
    inputs = plan_inputs(evaluation)
    labels = {i.name: i.label for i in inputs}
    unknown = sorted(set(texts) - set(labels))
    if unknown:
        raise InputError(
            f"{', '.join(unknown)}: not a plan input of this evaluation; the inputs are "
            + ", ".join(labels)
        )
    holder = _holder(evaluation)
    values = {name: getattr(holder, name) for name in type(holder).model_fields}
    for name, text in texts.items():
        text = text.strip()
        values[name] = _value(name, text)
    try:
        new_holder = type(holder).model_validate(values)  # lax: texts parse as numbers and dates
    except ValidationError as exc:
        by_field: dict[str, str] = {}
        general: list[str] = []
        tied: dict[str, str] = {}
        for error in exc.errors():
            name = str(error["loc"][0]) if error["loc"] else ""
            message = _in_words(error["msg"], labels)
            if name in labels:
                by_field.setdefault(name, message)
            else:
                general.append(message)
                named = first_named(error["msg"], labels)
                if named is not None:
                    tied.setdefault(named, message)
        raise PlanInputError(by_field, general, labels, tied) from None
    changed = tuple(
        _short(i.label) for i in inputs if getattr(new_holder, i.name) != getattr(holder, i.name)
    )
    workload = evaluation.workload
    parts = {name: getattr(workload, name) for name in type(workload).model_fields}
    where = kind_of(evaluation).plan_field
    new_workload = {**parts, where: new_holder} if where else new_holder
    try:
        return PlanEdit(rebuild(evaluation, workload=new_workload), changed)
    except ValidationError as exc:
        raise InputError(describe_validation_error(exc, "the plan inputs")) from None


def set_plan_inputs(document: EvaluationDocument, texts: Mapping[str, str]) -> PlanEdit:
    """Validate and record the new plan inputs in the document: one audited edit, or none."""
    edit = with_plan_inputs(document.evaluation, texts)
    if not edit.changed:
        return edit
    return PlanEdit(document.apply(edit.evaluation, EDIT_LABEL), edit.changed)
