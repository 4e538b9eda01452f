"""Build one bid's acceptance plan from the figures the evaluation scored it on."""

from __future__ import annotations

import datetime as dt

from clusterbid.core.acceptance.fabric_tests import block_test, busbw_tests
from clusterbid.core.acceptance.model import AcceptancePlan
from clusterbid.core.acceptance.node_tests import (
    dcgm_test,
    handover_test,
    replacement_test,
    soak_test,
    step_time_test,
)
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.workload import Workload


def scored_estimate(evaluation: Evaluation, bid_id: str) -> BidEstimate:
    """The bid's figures as the evaluation scored them (excluded bids too: an officer may plan
    the acceptance of a runner-up)."""
    if evaluation.workload.kind != "training":
        raise InputError("an inference evaluation: acceptance plans cover training bids only")
    if bid_id not in {b.id for b in evaluation.bids}:
        known = ", ".join(b.id for b in evaluation.bids) or "none"
        raise InputError(f"--bid {bid_id!r}: no such bid in this evaluation (bids: {known})")
    scorecard = score_evaluation(evaluation)
    return next(s.estimate for s in scorecard.scores if s.bid.id == bid_id)


def build_plan(evaluation: Evaluation, bid_id: str, issued_on: dt.date) -> AcceptancePlan:
    estimate = scored_estimate(evaluation, bid_id)
    bid, workload = estimate.bid, evaluation.workload
    assert isinstance(workload, Workload)  # scored_estimate refused an inference evaluation
    tests = [
        *busbw_tests(workload, bid, estimate),
        block_test(workload, bid),
        dcgm_test(),
        soak_test(bid),
        replacement_test(bid),
        step_time_test(workload, bid, estimate),
        handover_test(bid),
    ]
    notes = [
        "Each threshold is derived from the figure the evaluation scored: the share held depends "
        "on how "
        "that figure was known (measured by the buyer: 95%; measured by the provider, claimed, or "
        "derived "
        "from the specs: 90%), as each test's basis says.",
        "A returned file is matched to its test by its name: it begins with the test's id "
        "(for example ACC-busbw-2nodes_allreduce_ring.log).",
        "No remedy for a failed acceptance test is stated in this bid: each says 'negotiate'. "
        f"The bid's SLA credit ({bid.reliability.sla_credit_percent or 0:g}% at the first breach "
        "tier) "
        "covers downtime after acceptance, not a failed acceptance.",
    ]
    return AcceptancePlan(
        evaluation=evaluation.title,
        provider=bid.quote.provider,
        bid_id=bid_id,
        issued_on=issued_on,
        tests=tests,
        notes=notes,
    )
