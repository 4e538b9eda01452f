"""New evaluation snapshots for the window's edits, each fully validated (never model_copy)."""

from __future__ import annotations

import re

from pydantic import ValidationError

from clusterbid.core.bid import Bid
from clusterbid.core.documents import describe_validation_error
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.workload import Workload


def rebuilt(evaluation: Evaluation, what: str, **changes: object) -> Evaluation:
    """The evaluation with `changes`; InputError naming each broken rule if it does not validate."""
    fields = {name: getattr(evaluation, name) for name in Evaluation.model_fields}
    try:
        return Evaluation.model_validate({**fields, **changes})
    except ValidationError as exc:
        raise InputError(describe_validation_error(exc, what)) from None


def with_weights(evaluation: Evaluation, weights: dict[str, float]) -> Evaluation:
    policy = evaluation.policy.model_dump()
    policy["weights"] = weights
    return rebuilt(evaluation, "the new weights", policy=policy)


def with_workload(evaluation: Evaluation, workload: Workload) -> Evaluation:
    return rebuilt(evaluation, "the edited workload", workload=workload)


def with_bids_added(
    evaluation: Evaluation, bids: list[Bid] | tuple[Bid, ...], what: str
) -> Evaluation:
    return rebuilt(evaluation, what, bids=(*evaluation.bids, *bids))


def with_bid_replaced(evaluation: Evaluation, bid_id: str, bid: Bid) -> Evaluation:
    bids = tuple(bid if b.id == bid_id else b for b in evaluation.bids)
    return rebuilt(evaluation, f"the edited bid {bid.id}", bids=bids)


def without_bid(evaluation: Evaluation, bid_id: str) -> Evaluation:
    return rebuilt(
        evaluation, f"removing {bid_id}", bids=tuple(b for b in evaluation.bids if b.id != bid_id)
    )


def copy_id(bid_id: str, taken: set[str]) -> str:
    """'acme' -> 'acme-copy', then 'acme-copy-2', ... within the 64-character id limit."""
    base = re.sub(r"-copy(-\d+)?$", "", bid_id)[:50] + "-copy"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def with_bid_duplicated(evaluation: Evaluation, bid_id: str) -> tuple[Evaluation, str]:
    original = next(b for b in evaluation.bids if b.id == bid_id)
    new_id = copy_id(bid_id, {b.id for b in evaluation.bids})
    data = original.model_dump()
    data["id"] = new_id
    return with_bids_added(evaluation, [Bid.model_validate(data)], f"the copy of {bid_id}"), new_id
