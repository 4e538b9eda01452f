"""Bring an open document to a target snapshot with the document's own audited edits."""

from __future__ import annotations

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument


def apply_snapshot(document: EvaluationDocument, target: Evaluation) -> Evaluation:
    """Issue the fewest audited edits that turn the document's evaluation into `target`.

    One user action differs in one part (a bid, the workload or the policy), so this is one
    commit in practice; each commit is all-or-nothing in the store.
    """
    current = document.evaluation
    if target.workload != current.workload:
        document.set_workload(target.workload)
    if target.policy != current.policy:
        document.set_policy(target.policy)
    wanted = {bid.id: bid for bid in target.bids}
    for bid in current.bids:
        if bid.id not in wanted:
            document.remove_bid(bid.id)
    have = {bid.id: bid for bid in document.evaluation.bids}
    for bid in target.bids:
        if bid.id in have and have[bid.id] != bid:
            document.replace_bid(bid.id, bid)
    added = [bid for bid in target.bids if bid.id not in have]
    if added:
        document.add_bids(added)
    return document.evaluation
