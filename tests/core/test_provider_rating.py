"""Issue 39, item 6: a third party's dated rating of the provider, scored as its own criterion.

Two bids alike but for price: A at $2.40, B at $2.50 per GPU-hour (same job, same fabric, no
credit stated), so the cost criterion is 1 for A and 2.40/2.50 = 0.96 for B and every other
criterion is equal. With the default weights (70 + 8 + 5 + 5 + 3 + 4 + 5 = 100) A leads B by
70 x 0.04 / 100 = 0.028. B's provider is rated Platinum (1.0), A's Bronze (0.25): at a rating
weight w, B gains w x 0.75 / (100 + w) on A, so B overtakes once 0.75 w > 2.8, w > 3.73."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.delivery_lines import rating_row
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.tipping import tipping_points

A = bid_dict("a", terms={"price_per_gpu_hour": "2.40"})
B = bid_dict("b")
RATINGS = [
    {
        "provider": "Provider a",
        "tier": "bronze",
        "rated_on": "2025-11-01",
        "source": "SemiAnalysis ClusterMAX 2.0",
        "categories": {"Networking": "Silver"},
    },
    {
        "provider": "Provider b",
        "tier": "platinum",
        "rated_on": "2025-11-01",
        "source": "SemiAnalysis ClusterMAX 2.0",
    },
]


def _scores(weight: float | None, ratings: list[dict] | None = RATINGS) -> dict[str, float]:
    data = evaluation_dict([A, B], provider_ratings=ratings or [])
    if weight is not None:
        data["policy"] = {"weights": {"provider_rating": weight}}
    card = score_evaluation(Evaluation.model_validate(data))
    return {s.bid.id: s.weighted_score for s in card.ranked} | {"first": card.ranked[0].bid.id}


def test_at_the_default_weight_0_a_rating_changes_nothing():
    unrated, rated = _scores(None, None), _scores(None)
    assert rated == unrated
    assert rated["first"] == "a"
    assert rated["a"] - rated["b"] == pytest.approx(0.70 * 0.04, abs=1e-12)


@pytest.mark.parametrize("weight, first", [(3, "a"), (5, "b"), (20, "b")])
def test_a_weight_moves_the_ranking_as_computed_by_hand(weight, first):
    scores = _scores(weight)
    cost_gap = 70 * (
        1.0 - 0.96
    )  # raw weight x criterion gap; the other criteria are equal and cancel
    gap = (cost_gap + weight * (0.25 - 1.0)) / (100 + weight)
    assert scores["a"] - scores["b"] == pytest.approx(gap, abs=1e-12)
    assert scores["first"] == first


def test_the_tipping_point_is_where_the_hand_figure_says():
    data = evaluation_dict([A, B], provider_ratings=RATINGS)
    point = tipping_points(score_evaluation(Evaluation.model_validate(data)))["provider_rating"]
    assert point.upper == pytest.approx(2.8 / 0.75)
    assert point.winner_above == "b"


def test_ratings_stay_apart_from_the_bid_and_are_kept_one_per_provider():
    with pytest.raises(
        ValidationError, match="provider_rating"
    ):  # a bid cannot carry a rating of itself
        Evaluation.model_validate(
            evaluation_dict([bid_dict("a", provider_rating={"tier": "platinum"})])
        )
    with pytest.raises(ValidationError, match="rates Provider a more than once"):
        Evaluation.model_validate(
            evaluation_dict([A, B], provider_ratings=[RATINGS[0], RATINGS[0]])
        )
    label, text = rating_row(
        Evaluation.model_validate(evaluation_dict([A], provider_ratings=RATINGS)).provider_ratings[
            0
        ]
    )
    assert text.startswith("Bronze (SemiAnalysis ClusterMAX 2.0, 2025-11-01); Networking Silver")
    assert "third-party evidence" in text
