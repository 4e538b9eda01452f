"""Issue 34 item 3 for serving: page 1's rival is the bid likeliest to cost less than the one
recommended, counted pair by pair in the same draws, not the bid most often cheapest of all."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.serving_page_one import rivals_row
from clusterbid.core.serving_scoring import score_serving_evaluation


def _demo(keep: int | None = None) -> Evaluation:
    data = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text())
    if keep is not None:
        data["bids"] = data["bids"][:keep]
    return Evaluation.model_validate(data)


def test_with_two_bids_cheaper_than_the_other_is_cheapest_of_all():
    """Two bids that both serve in every draw: 'cheapest of all' and 'cheaper than the other' are
    the same event, counted two ways (argmin over the draws vs a pairwise comparison)."""
    scorecard = score_serving_evaluation(_demo(keep=2))
    a, b = (s.bid.id for s in scorecard.scores)
    draws = scorecard.uncertainty
    assert all(scorecard.band(i).chance_servable == 1.0 for i in (a, b))
    tie = 1.0 / draws.samples  # argmin gives a tie to the first; the pairwise count to neither
    assert abs(draws.chance_cheaper(a, b) - scorecard.band(a).chance_cheapest) <= tie
    assert abs(draws.chance_cheaper(a, b) + draws.chance_cheaper(b, a) - 1.0) <= tie


def test_page_one_names_the_rival_likeliest_to_cost_less_than_the_recommended_bid():
    scorecard = score_serving_evaluation(_demo())
    chosen = scorecard.ranked[0]
    others = [s for s in scorecard.ranked[1:]]
    shares = {
        s.bid.id: scorecard.uncertainty.chance_cheaper(s.bid.id, chosen.bid.id) for s in others
    }
    likeliest = max(others, key=lambda s: shares[s.bid.id])
    row = rivals_row(scorecard, chosen)
    # each bid as the officer knows it: provider, GPU model (issue 38: never its id)
    words = {
        s.bid.id: f"{s.bid.quote.provider}, {s.bid.capacity.gpu_model}" for s in (likeliest, chosen)
    }
    assert row.startswith(words[likeliest.bid.id])
    assert f"costs less than {words[chosen.bid.id]} in {shares[likeliest.bid.id]:.1%}" in row
    # Every pair's two shares and the draws where neither serves add up to every draw.
    for s in others:
        both = shares[s.bid.id] + scorecard.uncertainty.chance_cheaper(chosen.bid.id, s.bid.id)
        assert both <= 1.0 + 1e-12
