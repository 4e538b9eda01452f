"""What differs between a memo's attachment and what it is checked against: the printed results
against a re-score of the attached inputs, and the attached evaluation against one the verifier
gives (read through this version's schema first, so a memo signed before a field was added is not
reported as differing), each difference in words.

Apart from verification.py (the verdict over signatures, pages and inputs) because these are
plain comparisons of JSON, with no PDF or signature in them."""

from __future__ import annotations

import json

from clusterbid.core.evaluation import Evaluation


def compare_results(printed: object, rescored: dict) -> list[str]:
    if not isinstance(printed, dict):
        return ["the attached inputs hold no printed results to compare with"]
    differences = []
    if printed.get("ranking") != rescored["ranking"]:
        differences.append(
            f"ranking: printed {printed.get('ranking')}, re-scored {rescored['ranking']}"
        )
    if printed.get("excluded") != rescored["excluded"]:
        differences.append(
            f"excluded bids: printed {printed.get('excluded')}, re-scored {rescored['excluded']}"
        )
    printed_bids = printed.get("bids") if isinstance(printed.get("bids"), dict) else {}
    for bid_id in sorted(set(printed_bids) | set(rescored["bids"])):
        old, new = printed_bids.get(bid_id) or {}, rescored["bids"].get(bid_id) or {}
        for name in sorted(set(old) | set(new)):
            if old.get(name) != new.get(name):
                differences.append(
                    f"bid {bid_id} {name}: printed {old.get(name)}, re-scored {new.get(name)}"
                )
    return differences


def as_this_version_writes_it(attached: dict) -> dict:
    """The attached evaluation read through this version's schema and written back: a memo signed
    before a field was added holds no key for it, and a missing optional field is not a difference
    in what was decided. Anything the schema refuses is compared as it stands."""
    try:
        return json.loads(Evaluation.model_validate(attached).model_dump_json())
    except (ValueError, TypeError):  # pydantic's ValidationError is a ValueError
        return attached


def compare_evaluation(attached: object, evaluation: Evaluation) -> list[str]:
    given = json.loads(evaluation.model_dump_json())
    if not isinstance(attached, dict):
        return ["the attached inputs hold no evaluation"]
    attached = as_this_version_writes_it(attached)
    differences = [
        f"{name} differs"
        for name in sorted(set(given) | set(attached))
        if name != "bids" and given.get(name) != attached.get(name)
    ]
    memo_bids = {b.get("id"): b for b in attached.get("bids", []) if isinstance(b, dict)}
    given_bids = {b["id"]: b for b in given.get("bids", [])}
    for bid_id in sorted(set(memo_bids) | set(given_bids), key=str):
        if bid_id not in given_bids:
            differences.append(f"bid {bid_id} is in the memo but not in the evaluation")
        elif bid_id not in memo_bids:
            differences.append(f"bid {bid_id} is in the evaluation but not in the memo")
        elif memo_bids[bid_id] != given_bids[bid_id]:
            differences.append(f"bid {bid_id} differs")
    if not differences and [b.get("id") for b in attached.get("bids", [])] != list(given_bids):
        differences.append("the bids are in a different order")
    return differences
