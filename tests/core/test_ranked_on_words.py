"""The contract lines say what ranks the bids (issue 31): the point net cost where no Monte Carlo
ran, and once it has, the point called a point with the figure the bids rank on beside it, so the
officer is never sent to a figure that does not rank. Figures from the demo's Northwind term:
512 GPUs x 3 months x 730 h x $2.85."""

from __future__ import annotations

from clusterbid.core.contract_summary import contract_lines, decision_figure
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.decision import decide

COMMITMENT = "$3,195,648"


def _lines(scorecard, bid_id="northwind-ib"):
    score = next(s for s in scorecard.ranked if s.bid.id == bid_id)
    rows = contract_lines(score.estimate, "USD", ranked_on=decision_figure(scorecard, bid_id))
    return dict(rows)


def test_without_bands_the_point_ranks_and_says_so():
    lines = _lines(score_evaluation(demo_evaluation()))
    assert lines["Total commitment"].startswith(COMMITMENT)
    assert "(ranks the bids" in lines["Net cost of the plan"]
    assert "Ranked on" not in lines


def test_with_bands_the_ranked_figure_is_the_mean_and_the_point_is_called_a_point():
    evaluation = demo_evaluation()
    scorecard, uncertainty = decide(evaluation, 2_000, evaluation.policy.random_seed)
    lines = _lines(scorecard)
    assert "(the point estimate" in lines["Net cost of the plan"]
    assert "ranks the bids" not in lines["Net cost of the plan"]
    # The figure ranked on is the mean of the bid's own samples, not its point or its median.
    mean = scorecard.decision_costs["northwind-ib"]
    stats = uncertainty.bids["northwind-ib"]
    assert stats.cost_p10 < mean < stats.cost_p90
    assert lines["Ranked on"] == (
        f"${round(mean):,}, the expected net cost (the mean over the Monte Carlo samples)"
    )
