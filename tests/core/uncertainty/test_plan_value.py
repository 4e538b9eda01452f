"""Issue 31, item 7: the value of the buyer's own plan figures. Worked by hand: the 8-GPU job
(H hours on either bid, no failures) on demand at $2.50, or on a 24-month reservation of 8 GPUs at
$1.20 shared with the further runs the buyer states. The plan states one further run."""

from __future__ import annotations

import pytest
from tests.core.uncertainty.helpers import evaluation, no_failure_bid, one_node_workload

from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.plan_value import plan_assumption_values
from clusterbid.core.uncertainty.presentation import plan_value_lines

TERM_HOURS = 24 * 730


def _card(**plan):
    on_demand = no_failure_bid(
        "on-demand", terms={"price_per_gpu_hour": "2.50", "billing": "on-demand"}
    )
    reserved = no_failure_bid(
        "reserved",
        capacity={"spare_pool_gpus": 0},
        terms={
            "price_per_gpu_hour": "1.20",
            "billing": "reserved",
            "term_months": 24,
            "reserved_gpus": 8,
            "price_escalation_percent_per_year": 0,
        },
    )
    workload = one_node_workload()
    workload["plan"] = {"idle_use": "more-runs", "further_runs": 1, **plan}
    return score_evaluation(evaluation([on_demand, reserved], workload))


def test_the_value_of_knowing_how_many_runs_will_fill_the_term_by_hand():
    card = _card()
    hours = card.scores[0].estimate.wall_hours
    on_demand = 8 * hours * 2.50
    # The term holds 17,520 / H = 3.56 jobs, so r further runs share it 1 + r ways (r <= 2).
    reserved = lambda r: 8 * TERM_HOURS * 1.20 / (1 + r)  # noqa: E731
    assert {s.bid.id: s.estimate.plan_cost for s in card.scores} == pytest.approx(
        {"on-demand": on_demand, "reserved": reserved(1)}
    )
    values = {v.name: v for v in plan_assumption_values(card)}
    runs = values["further_runs"]
    # Both bids pay on the buyer's own terms (net 30): its cost of capital moves no cost here.
    capital = values["cost_of_capital_percent_per_year"]
    assert (capital.stated, capital.low, capital.high, capital.value) == (8.0, 4.0, 12.0, 0.0)
    assert (runs.name, runs.stated, runs.low, runs.high) == ("further_runs", 1.0, 0.0, 2.0)
    # Nine values 0, 0.25 ... 2. Today's choice is the reservation ($84,096 at one run); on demand
    # is cheaper at 0, 0.25 and 0.5 runs ($168,192, $134,554 and $112,128 against 8 x H x $2.50).
    grid = [k / 4 for k in range(9)]
    assert [r for r in grid if reserved(r) > on_demand] == [0.0, 0.25, 0.5]
    expected = sum(reserved(r) - min(on_demand, reserved(r)) for r in grid) / 9
    assert runs.value == pytest.approx(expected, rel=1e-9)
    assert runs.change_share == pytest.approx(3 / 9)
    assert runs.choice_after == pytest.approx({"on-demand": 3 / 9, "reserved": 6 / 9})
    line = plan_value_lines(card, lambda v: f"${v:,.0f}")[2]
    assert line == (
        f"  Further runs in reserved time: 1 now, moved across 0 to 2; knowing it better is worth "
        f"${expected:,.0f}: the cheapest choice changes over 33% of the range (Provider reserved, "
        "H100-SXM over 67%; Provider on-demand, H100-SXM over 33%)"
    )  # words, never ids (issue 38)


def test_a_stated_alternative_price_and_its_decline_are_valued_too():
    card = _card(alternative_price_per_gpu_hour="1.00")
    names = {v.name for v in plan_assumption_values(card)}
    assert names == {
        "further_runs",
        "alternative_price_per_gpu_hour",
        "alternative_price_decline_percent_per_year",
        "cost_of_capital_percent_per_year",
    }
    prices = next(
        v for v in plan_assumption_values(card) if v.name == "alternative_price_per_gpu_hour"
    )
    assert (prices.low, prices.high) == (0.5, 1.5)
