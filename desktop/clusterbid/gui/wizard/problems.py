"""Validate the wizard's values through the core models and route each problem to its field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation
from clusterbid.gui.wizard.officer_words import first_mentioned, officer_message

ASSUMPTION_OWNER = (
    "Say who assumes this figure: type 'who: why' beside it, "
    "e.g. 'J. Ruiz: the provider said so on the call'."
)
SECTIONS = (
    "quote",
    "capacity",
    "fabric",
    "topology",
    "reliability",
    "terms",
    "facility",
    "delivery",
)


@dataclass(frozen=True)
class Problem:
    """A problem the officer must fix, at a field path such as ('capacity', 'gpus_offered')."""

    path: tuple[str, ...]
    message: str
    kind: str  # pydantic's error type: 'missing' is hidden on untouched fields


@dataclass(frozen=True)
class Checked:
    """The outcome of one validation: the Bid when valid, else the problems."""

    bid: Bid | None
    problems: tuple[Problem, ...]
    evaluation: Evaluation | None = None


def _route(
    loc: tuple[str | int, ...], message: str, field_names: dict[str, list[str]]
) -> tuple[str, ...]:
    """Where an error belongs. Model-level errors (loc ends at a section or the bid) name the
    offending field in their text; the first field named is the one to fix."""
    if not loc:
        dotted = [f"{s}.{f}" for s in SECTIONS for f in field_names.get(s, [])]
        hit = first_mentioned(message, dotted)
        return tuple(hit.split(".")) if hit else ("bid",)
    head = str(loc[0])
    if head == "provenance" and len(loc) > 1:  # a figure's source: shown beneath the figure
        return tuple(str(loc[1]).split("."))
    if head == "evidence":
        return ("evidence",)
    if (
        head == "delivery" and len(loc) > 3 and loc[1] == "phases"
    ):  # one phase's field, by its index
        return ("delivery", "phases", str(loc[2]), str(loc[3]))
    if len(loc) == 1 and head in SECTIONS:
        hit = first_mentioned(message, field_names.get(head, []))
        return (head, hit) if hit else (head,)
    return (head, str(loc[1])) if len(loc) > 1 else (head,)


def check_bid(
    raw: dict[str, Any],  # the wizard's JSON-like fields; the model validates them
    evaluation: Evaluation,
    replaces: str | None,
    field_names: dict[str, list[str]],
    titles: dict[str, str],
) -> Checked:
    """Build the Bid from `raw`, then the evaluation with it added (or replacing `replaces`). A bid
    id another bid already uses is reported at once, on the page that holds the id, not only when
    the whole bid is complete."""
    taken = {b.id for b in evaluation.bids} - {replaces}
    duplicate = (
        [
            Problem(
                ("id",),
                f"Another bid already uses the id {raw.get('id')!r}: choose a new one.",
                "duplicate_id",
            )
        ]
        if raw.get("id") in taken
        else []
    )
    try:
        bid = Bid.model_validate(raw)
    except ValidationError as exc:
        problems = list(duplicate)
        for error in exc.errors():
            path = _route(tuple(error["loc"]), error["msg"], field_names)
            message = (
                ASSUMPTION_OWNER
                if error["loc"][:1] == ("provenance",)
                else officer_message(error, path, titles)
            )
            problems.append(Problem(path, message, error["type"]))
        return Checked(None, tuple(problems))
    try:
        evaluation = with_bid(evaluation, bid, replaces)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            message = error["msg"]
            # The evaluation's own rules: a bid id used twice, or a currency with no exchange rate.
            path = (
                ("id",)
                if "used twice" in message
                else ("terms", "currency")
                if "exchange_rates" in message
                else ("bid",)
            )
            problems.append(Problem(path, officer_message(error, path, titles), error["type"]))
        return Checked(None, tuple(problems))
    return Checked(bid, (), evaluation)


def with_bid(evaluation: Evaluation, bid: Bid, replaces: str | None) -> Evaluation:
    """The evaluation with `bid` in place of the bid `replaces` (or appended), validated again."""
    bids = list(evaluation.bids)
    index = next((i for i, b in enumerate(bids) if b.id == replaces), None)
    if index is None:
        bids.append(bid)
    else:
        bids[index] = bid
    data = {name: getattr(evaluation, name) for name in Evaluation.model_fields}
    return Evaluation.model_validate({**data, "bids": tuple(bids)})
