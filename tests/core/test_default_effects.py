"""Issue 14: per bid, how far each unverified input can move its cost and its cost rank."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.report import scorecard_to_json
from clusterbid.core.scoring import score_evaluation

# The job uses all 512 GPUs offered, so a failed node waits for replacement (72 h) unless a
# spare node (8 GPUs) is on hand: spares decide the goodput.
EXACT_FIT = {
    "gpu_model": "H100-SXM",
    "gpus_offered": 512,
    "gpus_per_node": 8,
    "largest_contiguous_block_gpus": 512,
    "spare_pool_gpus": 0,
}
SLOW_SWAP = {"node_replacement_hours": 72}
CHEAPER = {"price_per_gpu_hour": "2.40", "currency": "USD"}


def _unsure(**provenance):
    return bid_dict(
        "unsure", capacity=EXACT_FIT, reliability=SLOW_SWAP, terms=CHEAPER, provenance=provenance
    )


def _report(*bids):
    return {
        b["bid_id"]: b
        for b in scorecard_to_json(
            score_evaluation(Evaluation.model_validate(evaluation_dict(list(bids))))
        )["bids"]
    }


def _cost(row) -> float:
    return float(row["figures"]["net_plan_cost"]["amount"])


def test_a_bid_whose_spares_are_not_stated_ranks_differently_at_the_ends_of_the_range():
    rival = bid_dict("rival", reliability=SLOW_SWAP)  # 16 spares stated, $2.50
    by_id = _report(_unsure(**{"capacity.spare_pool_gpus": {"kind": "not_stated"}}), rival)
    spares = by_id["unsure"]["rank_depends_on"][0]  # the only input that moves its rank comes first
    assert spares["field"] == "capacity.spare_pool_gpus" and spares["kind"] == "not_stated"
    assert (spares["low"], spares["high"], spares["range_from"]) == (0, 16, "documented range")
    assert (spares["cost_rank_low"], spares["cost_rank_high"]) == (2, 1)
    # At 16 spares the bid runs exactly like the rival (same hardware, a spare node on hand) at
    # $2.40 instead of $2.50 an hour: 96% of the rival's cost.
    assert spares["cost_high"] == pytest.approx(_cost(by_id["rival"]) * 2.40 / 2.50, abs=0.02)
    # At 0 spares it costs what the same bid stating 0 spares costs, scored the ordinary way.
    stated_zero = _report(_unsure(), rival)["unsure"]
    assert spares["cost_low"] == pytest.approx(_cost(stated_zero), abs=0.02)
    assert spares["cost_swing"] == pytest.approx(spares["cost_low"] - spares["cost_high"], abs=0.02)
    # The point estimate takes the default (no spares): the bid is second on cost.
    assert by_id["unsure"]["cost_rank"] == 2


def test_a_provider_statement_moves_by_15_percent_and_measured_figures_are_left_out():
    by_id = _report(bid_dict("only"))
    rows = {row["field"]: row for row in by_id["only"]["rank_depends_on"]}
    assert rows["reliability.node_replacement_hours"]["low"] == pytest.approx(4 * 0.85)
    assert rows["reliability.node_replacement_hours"]["high"] == pytest.approx(4 * 1.15)
    # Uptime moves through the downtime it allows: 0.1% +/- 15% -> 99.885% .. 99.915%.
    assert rows["reliability.uptime_sla_percent"]["low"] == pytest.approx(99.885)
    assert rows["reliability.uptime_sla_percent"]["high"] == pytest.approx(99.915)
    # The SLA credit enters the net cost only as the credit expected to be claimed (issue 39): it is
    # not moved across a range here.
    assert "reliability.sla_credit_percent" not in rows
    swings = [row["cost_swing"] for row in by_id["only"]["rank_depends_on"]]
    assert swings == sorted(swings, reverse=True)  # one bid: no rank can move, so by swing


def test_a_figure_marked_not_stated_that_holds_a_value_is_refused_with_the_field_named():
    from pydantic import ValidationError

    from clusterbid.core.bid import Bid

    data = bid_dict(
        "odd", provenance={"capacity.spare_pool_gpus": {"kind": "not_stated"}}
    )  # holds 16
    with pytest.raises(
        ValidationError, match="capacity.spare_pool_gpus is marked not stated but holds 16"
    ):
        Bid.model_validate(data)


def test_the_memo_lists_the_deciding_default_first_and_the_recommended_bids_risks_name_it():
    from clusterbid.core.memo.bid_pages import bid_page, unverified_items

    not_stated = {"capacity.spare_pool_gpus": {"kind": "not_stated"}}
    # At $4.00 the rival costs 4.00 / 2.40 = 1.67x the unsure bid with a spare node on hand: the
    # unsure bid wins at either end of its spares range, and its risks still name the default.
    dear_rival = bid_dict(
        "rival", reliability=SLOW_SWAP, terms={"price_per_gpu_hour": "4.00", "currency": "USD"}
    )
    scorecard = score_evaluation(
        Evaluation.model_validate(evaluation_dict([_unsure(**not_stated), dear_rival]))
    )
    winner = next(s for s in scorecard.scores if s.rank == 1)
    assert winner.bid.id == "unsure"
    risks = bid_page(winner, scorecard, None).risks
    assert any(
        r.startswith("Rests on a figure that is not stated (default used): spare GPUs; across 0-16")
        and r.endswith("its cost rank stays 1.")
        for r in risks
    )
    # Against the $2.50 rival the same default decides the order, and is listed first for the bid.
    scorecard = score_evaluation(
        Evaluation.model_validate(
            evaluation_dict([_unsure(**not_stated), bid_dict("rival", reliability=SLOW_SWAP)])
        )
    )
    own = [i for i in unverified_items(scorecard) if i.startswith("Provider unsure") and " = " in i]
    assert own[0].startswith(
        "Provider unsure, H100-SXM: spare GPUs = 0 is not stated (default used) (plausible 0-16)"
    )
    assert own[0].endswith("its cost rank goes from 2 to 1, so the ranking depends on it.")
    assert not any("spare GPUs = 0 is stated by the provider" in i for i in own)


def test_an_assumed_spare_pool_is_tried_across_the_documented_range_like_a_default():
    """A buyer's assumption of 0 spares is no better checked than the default: +/-15% of 0 would
    never move it, so it is tried over the documented 0-16 range and found to decide the rank."""
    rival = bid_dict("rival", reliability=SLOW_SWAP)
    assumed = {"kind": "assumption", "who": "J. Ruiz", "why": "none mentioned on the call"}
    spares = _report(_unsure(**{"capacity.spare_pool_gpus": assumed}), rival)["unsure"][
        "rank_depends_on"
    ][0]
    assert (spares["field"], spares["kind"]) == ("capacity.spare_pool_gpus", "assumption")
    assert (spares["low"], spares["high"], spares["range_from"]) == (0, 16, "documented range")
    assert (spares["cost_rank_low"], spares["cost_rank_high"]) == (2, 1)
