"""Value of information on the demo, re-derived in the test from the Monte Carlo samples with
plain numpy (sort by the input's draw, cut into equal groups, average each bid's cost per group)."""

from __future__ import annotations

import numpy as np
import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import run_monte_carlo
from clusterbid.core.uncertainty.sampling import sample_plan_costs
from clusterbid.core.uncertainty.spreads import Spreads
from clusterbid.core.uncertainty.value_of_information import value_from_samples

SAMPLES = 20_000
GROUPS = 50  # methodology section 10: 400 samples per bin at most 50 bins


@pytest.fixture(scope="module")
def demo():
    evaluation = demo_evaluation()
    plan = sample_plan_costs(evaluation, SAMPLES)
    return evaluation, plan, value_from_samples(plan)


def test_the_samples_are_the_monte_carlos_own(demo):
    """Same seed, same draws: the kept samples give run_monte_carlo's medians and win shares."""
    evaluation, plan, _ = demo
    mc = run_monte_carlo(evaluation, SAMPLES)
    assert plan.ids == tuple(mc.bids)
    cheapest = np.argmin(plan.cost, axis=0)
    for row, bid_id in enumerate(plan.ids):
        assert float(np.median(plan.cost[row])) == pytest.approx(mc.bids[bid_id].cost_p50, rel=1e-6)
        assert np.mean(cheapest == row) == pytest.approx(mc.bids[bid_id].win_probability, abs=1e-12)


def test_top_request_recomputed_from_the_samples(demo):
    _, plan, voi = demo
    top = voi.values[0]
    row = plan.ids.index(top.bid_id)
    cost = plan.cost.astype(np.float64)
    means = cost.mean(axis=1)
    now = int(np.argmin(means))
    groups = np.array_split(np.argsort(plan.factors[top.input][row]), GROUPS)
    # Which bids move with this draw: the measured bid, and for baseline MFU also every bid that
    # shares the market-wide shock (all demo bids use the workload's default MFU).
    moving = {row}
    if top.input == "baseline_mfu":
        moving |= {k for k, inputs in enumerate(plan.inputs) for i in inputs if i.name == "baseline_mfu" and i.shared_sigma > 0}
    conditional = np.array([[cost[j, g].mean() if j in moving else means[j] for g in groups] for j in range(len(means))])
    weight = np.array([len(g) for g in groups]) / cost.shape[1]
    best = conditional.argmin(axis=0)
    evpi = means[now] - np.sum(weight * conditional.min(axis=0))
    assert voi.choice == plan.ids[now]
    assert top.evpi == pytest.approx(evpi, rel=1e-9)
    assert top.change_probability == pytest.approx(weight[best != now].sum(), abs=1e-12)
    assert top.evpi > 0 and 0 < top.change_probability < 1  # on the demo the top request can change the choice
    # No single input is worth more than knowing everything: E[min] <= min E, by sample.
    total = means[now] - cost.min(axis=0).mean()
    assert voi.total_evpi == pytest.approx(total, rel=1e-9)
    assert all(v.evpi <= total + 1e-6 for v in voi.values)


def test_an_input_of_a_bid_that_cannot_win_is_worth_nothing(demo):
    """The legacy A100 bid is far behind: even in its best busbw group its expected cost is above
    the cheapest bid's, so measuring its busbw cannot change the choice."""
    _, plan, voi = demo
    legacy = next(v for v in voi.values if v.bid_id == "legacy-a100" and v.input == "busbw")
    row = plan.ids.index("legacy-a100")
    groups = np.array_split(np.argsort(plan.factors["busbw"][row]), GROUPS)
    best_case = min(plan.cost[row, g].astype(np.float64).mean() for g in groups)
    assert best_case > plan.cost.astype(np.float64).mean(axis=1).min()  # even its best busbw loses
    assert legacy.evpi == 0 and legacy.change_probability == 0


def test_without_spread_nothing_is_worth_measuring():
    plan = sample_plan_costs(demo_evaluation(), 2_000, spreads=Spreads.zero())
    voi = value_from_samples(plan)
    assert voi.total_evpi == pytest.approx(0, abs=1e-6)
    assert all(v.evpi == pytest.approx(0, abs=1e-6) and v.change_probability == 0 for v in voi.values)
