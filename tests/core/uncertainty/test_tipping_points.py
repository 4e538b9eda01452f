"""Tipping points: solved by hand on two bids, and checked by re-scoring just either side."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import bid_dict
from tests.core.uncertainty.helpers import evaluation

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import analyse_sensitivity
from clusterbid.core.uncertainty.tipping import tipping_points

EPS = 1e-6


def two_bids(
    price_b: str = "2.75", support_weight: float = 3.0, cost_weight: float = 70.0
) -> Evaluation:
    """Identical offers but for price and support: a at $2.50 with basic support (score 0), b
    dearer with enterprise support (score 1). Same hardware, so cost to finish ~ price."""
    bids = [
        bid_dict("a", terms={"price_per_gpu_hour": "2.50", "support_tier": "basic"}),
        bid_dict("b", terms={"price_per_gpu_hour": price_b, "support_tier": "enterprise"}),
    ]
    weights = {"cost_to_finish": cost_weight, "support": support_weight}
    return evaluation(bids, policy={"weights": weights})


def with_weight(ev: Evaluation, name: str, value: float) -> Evaluation:
    data = ev.model_dump()
    data["policy"]["weights"][name] = value
    return Evaluation.model_validate(data)


def winner(ev: Evaluation) -> str:
    return score_evaluation(ev).ranked[0].bid.id


def test_two_bids_by_hand():
    # Numerators: a = 70 x 1 + w x 0; b = 70 x 2.50/2.75 + w x 1; equal at w = 70 x 0.25/2.75.
    points = tipping_points(score_evaluation(two_bids()))
    support = points["support"]
    assert support.current == 3.0
    assert support.upper == pytest.approx(70 * 0.25 / 2.75)
    assert support.lower is None and support.winner_above == support.winner_then == "b"
    # The other criteria score the two bids alike: no weight of theirs can change the winner.
    for name in ("sla", "datacenter_tier", "certifications", "contract_terms", "evidence"):
        assert (
            points[name].lower is None
            and points[name].upper is None
            and points[name].winner_then is None
        )


def test_the_cost_weight_has_its_tipping_point_too():
    # Numerators: a = c x 1 + 3 x 0; b = c x 2.50/2.75 + 3 x 1; equal at c = 3 / (1 - 2.50/2.75) = 33.
    cost = tipping_points(score_evaluation(two_bids()))["cost_to_finish"]
    assert cost.current == 70.0 and cost.lower == pytest.approx(33.0)
    assert cost.upper is None and cost.winner_below == cost.winner_then == "b"


def test_from_above_the_tipping_point_the_lower_bound_is_reported():
    support = tipping_points(score_evaluation(two_bids(support_weight=10.0)))["support"]
    assert support.lower == pytest.approx(70 * 0.25 / 2.75)
    assert support.upper is None and support.winner_below == support.winner_then == "a"


def _check_by_rescoring(ev: Evaluation, name: str, point) -> None:
    now = winner(ev)
    if point.upper is not None:
        assert winner(with_weight(ev, name, max(point.upper - EPS, point.current))) == now
        if point.upper + EPS <= 100:
            assert winner(with_weight(ev, name, point.upper + EPS)) == point.winner_above
    if point.lower is not None:
        assert winner(with_weight(ev, name, min(point.lower + EPS, point.current))) == now
        if point.lower - EPS >= 0:
            assert winner(with_weight(ev, name, point.lower - EPS)) == point.winner_below
    if point.upper is None:
        assert winner(with_weight(ev, name, 100.0)) == now
    if point.lower is None:
        assert winner(with_weight(ev, name, 0.0)) == now


def test_demo_tipping_points_hold_when_rescored():
    ev = demo_evaluation()
    points = analyse_sensitivity(ev).tipping_points
    assert set(points) == {
        "cost_to_finish",
        "sla",
        "datacenter_tier",
        "certifications",
        "support",
        "contract_terms",
        "evidence",
    }
    assert any(
        p.upper is not None for p in points.values()
    )  # the demo has a winner that can be overtaken
    for name, point in points.items():
        _check_by_rescoring(ev, name, point)


@settings(max_examples=25, deadline=None)
@given(
    price_b=st.decimals("2.51", "4.00", places=2),
    support=st.floats(0, 100),
    cost=st.floats(1, 100),
)
def test_any_two_bid_tipping_point_holds_when_rescored(price_b, support, cost):
    ev = two_bids(str(price_b), support, cost)
    _check_by_rescoring(ev, "support", tipping_points(score_evaluation(ev))["support"])


def test_a_single_ranked_bid_has_no_tipping_points():
    points = tipping_points(score_evaluation(evaluation([bid_dict()])))
    assert all(p.lower is None and p.upper is None for p in points.values())


def test_a_tipping_point_prints_the_same_for_either_kind_but_for_who_wins_then():
    # Issue 33 item 2: one printer for training's and serving's tipping points (score --json).
    from clusterbid.core.uncertainty.tipping import TippingPoint

    point = TippingPoint(30.0, 12.345678, None, "ridge", "quarry", None)
    assert point.as_json() == {
        "current": 30.0,
        "lower": 12.3457,  # four decimals
        "upper": None,
        "winner_then": "ridge",
        "winner_below": "quarry",
        "winner_above": None,
    }
    served = point.as_json(winner_then=False)
    assert list(served) == ["current", "lower", "upper", "winner_below", "winner_above"]
