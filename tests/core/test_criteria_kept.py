"""The non-cost criteria kept per bid object (scoring.non_cost_criteria): the same object under
the same policy gives what scoring it afresh gives; an edited bid (a new object) or another
policy is scored again; and a caller changing the returned values changes nothing kept."""

from __future__ import annotations

from clusterbid.core import scoring
from clusterbid.core.criteria import CriterionInputs, bid_scores
from clusterbid.core.demo import demo_evaluation


def test_kept_scores_are_fresh_scores_and_an_edit_or_a_policy_is_scored_again():
    bid = demo_evaluation().bids[1]  # Cumulus: SOC2 only
    required = ("SOC2", "ISO27001")
    first = scoring.non_cost_criteria(bid, required)
    first["certifications"] = -1.0  # the caller's copy
    again = scoring.non_cost_criteria(bid, required)
    assert again == bid_scores(bid, CriterionInputs(required, {}))
    # By hand: one of the two required certifications held.
    assert again["certifications"] == 0.5
    assert scoring.non_cost_criteria(bid, ("SOC2",))["certifications"] == 1.0
    held = ["SOC2", "ISO27001"]
    edited = bid.model_copy(
        update={"facility": bid.facility.model_copy(update={"certifications": held})}
    )
    assert scoring.non_cost_criteria(edited, required)["certifications"] == 1.0
    assert scoring.non_cost_criteria(bid, required)["certifications"] == 0.5
