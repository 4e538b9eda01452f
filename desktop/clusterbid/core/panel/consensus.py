"""The panel's meeting: the agreed value of a disputed item (or the median accepted), why, and who
dissents, each recorded by name in one `panel_consensus` row of the lead's trail. A later row for
the same item settles it again; the earlier one stays on record."""

from __future__ import annotations

import json
from typing import Any

from clusterbid.core.errors import InputError
from clusterbid.core.panel.divergence import Divergence, Item
from clusterbid.core.panel.model import SCORE_RANGE, criterion_words
from clusterbid.core.store import EvaluationDocument, audit

MAX_TEXT = 2000


def item_words(item: Item | dict[str, Any]) -> str:
    criterion = item.criterion if isinstance(item, Item) else item["criterion"]
    bid = item.bid if isinstance(item, Item) else item["bid"]
    words = criterion_words(criterion)
    return f"weight of {words}" if bid is None else f"{words} score of {bid}"


def value_words(item: Item | dict[str, Any], value: float) -> str:
    bid = item.bid if isinstance(item, Item) else item["bid"]
    return f"{value:.1f}%" if bid is None else f"{value:.1f} of 10"


def spread_words(item: Item) -> str:
    return f"{item.spread:.1f} percentage points" if item.bid is None else f"{item.spread:g} points"


def find_item(divergence: Divergence, criterion: str, bid: str | None) -> Item:
    for item in divergence.items:
        if item.criterion == criterion and item.bid == bid and item.values:
            return item
    what = item_words({"criterion": criterion, "bid": bid})
    raise InputError(f"the panel has judged no {what}: merge the evaluators' copies first")


def settled(lead: EvaluationDocument) -> dict[str, dict[str, Any]]:
    """Each settled item's latest consensus, by item key."""
    found: dict[str, dict[str, Any]] = {}
    for row in lead.panel_rows():
        if row.action == audit.PANEL_CONSENSUS:
            payload = json.loads(row.new_json or "{}")
            found[payload["item"]] = {**payload, "seq": row.seq, "who": row.who}
    return found


def _text(what: str, value: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise InputError(f"{what} must be text of 1-{MAX_TEXT} characters")
    return value.strip()


def record_consensus(
    lead: EvaluationDocument,
    divergence: Divergence,
    item: Item,
    value: float | None,
    rationale: str,
    dissent: list[tuple[str, str]],
) -> dict[str, Any]:
    """Settle `item` at `value` (None: the evaluators' median) with a rationale; `dissent`:
    (evaluator, reason) for each who does not agree. Refused with words when anything is off."""
    if lead.copy_stamp() is not None:
        raise InputError(
            f"{lead.path.name} is an evaluator's copy; the consensus is recorded in the lead "
            "document"
        )
    rationale = _text("the rationale", rationale)
    agreed = item.median if value is None else float(value)
    limit = 100.0 if item.bid is None else SCORE_RANGE[1]
    if not 0.0 <= agreed <= limit:
        raise InputError(
            f"the agreed {item_words(item)} must be from 0 to {limit:g} (got {agreed:g})"
        )
    panel = set(item.values)
    names = [name for name, _ in dissent]
    strangers = [name for name in names if name not in panel]
    if strangers:
        raise InputError(
            f"only evaluators who judged the {item_words(item)} can dissent: "
            f"{', '.join(strangers)} did not ({', '.join(sorted(panel))} did)"
        )
    if len(set(names)) != len(names):
        raise InputError("each evaluator's dissent is recorded once per item")
    payload = {
        "item": item.key,
        "criterion": item.criterion,
        "bid": item.bid,
        "value": agreed,
        "median_accepted": value is None,
        "rationale": rationale,
        "values": dict(sorted(item.values.items())),
        "dissent": [
            {"evaluator": name, "reason": _text(f"{name}'s dissent", reason)}
            for name, reason in dissent
        ],
    }
    payload["words"] = item_words(item)  # what the audit trail shows (the store words no criterion)
    lead.record_panel([(audit.PANEL_CONSENSUS, item_words(item), payload)])
    return payload
