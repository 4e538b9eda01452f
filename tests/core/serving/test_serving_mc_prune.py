"""Issue 37 item 5: the serving Monte Carlo leaves out the cells of a draw's grid that cannot be its
cheapest fleet (serving_prune) before sizing any. Exact: every band and chance is the same to the
last digit with the pruning switched off, on the demo and on variants that exercise the other
paths of a bill (burst billing, traffic growth, a committed floor, no spare)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty import serving_montecarlo as mc
from clusterbid.core.uncertainty import serving_prune

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def _demo(variant: str) -> Evaluation:
    data = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text(encoding="utf-8"))
    if variant == "burst":  # 6 peak hours a day, every bid offering burst at $4.00
        data["workload"]["peak_hours_per_day"] = 6
        for bid in data["bids"]:
            bid["terms"]["burst_price_per_gpu_hour"] = "4.00"
    elif variant == "growth":  # traffic growing 5% a month, judged at month 1 and the last
        data["workload"]["traffic_growth_percent_per_month"] = 5
    elif variant == "bare":  # no spare, no margin: the bounds at their tightest
        data["workload"]["spare_replicas"] = 0
        data["workload"]["forecast_margin_percent"] = 0
    return Evaluation.model_validate(data)


def _whole_grid(w, b, grid):  # type: ignore[no-untyped-def]
    """The pruning switched off: every feasible cell sized, as before issue 37's cut."""
    return grid.feasible


@pytest.mark.parametrize("variant", ["demo", "burst", "growth", "bare"])
def test_pruning_changes_no_figure_of_the_serving_bands(monkeypatch, variant):
    demo = _demo(variant)
    estimates = estimate_serving(demo.workload, demo.bids)
    kept, feasible = [0], [0]

    def counted(w, b, grid):  # type: ignore[no-untyped-def]
        keep = serving_prune.could_be_cheapest(w, b, grid)
        kept[0] += int(keep.sum())
        feasible[0] += int((grid.feasible & (grid.tokens_per_s > 0)).sum())
        return keep

    monkeypatch.setattr(mc, "could_be_cheapest", counted)
    pruned = mc.serving_uncertainty(estimates, samples=600, seed=11)
    monkeypatch.setattr(mc, "could_be_cheapest", _whole_grid)
    whole = mc.serving_uncertainty(estimates, samples=600, seed=11)
    # Not a vacuous match: most candidate fleets were left out unsized.
    assert kept[0] < 0.5 * feasible[0], (kept, feasible)
    assert pruned.samples == whole.samples
    assert pruned.cheaper_than == whole.cheaper_than
    for cut, full in zip(pruned.bands, whole.bands, strict=True):
        assert cut.bid_id == full.bid_id
        np.testing.assert_array_equal(cut.cost_per_million, full.cost_per_million)
        np.testing.assert_array_equal(cut.monthly_cost, full.monthly_cost)
        assert cut.chance_cheapest == full.chance_cheapest
        assert cut.chance_servable == full.chance_servable
        np.testing.assert_array_equal(cut.mean_cost_per_million, full.mean_cost_per_million)
        np.testing.assert_array_equal(cut.point_percentile, full.point_percentile)
        assert cut.fleet_at_percentile == full.fleet_at_percentile
        np.testing.assert_array_equal(cut.chance_meets_slo_at_peak, full.chance_meets_slo_at_peak)


def test_the_gpus_a_bill_allows_are_the_bill_solved_by_hand():
    """$2.00 an hour with 10% fees, $500 a month of fixed fees and $1,200 one-off over 12 months:
    a bill of $50,000 allows (50,000 - 500 - 100) / (2.00 x 1.1) GPU-hours, over the month's
    hours; a price of nil never limits the GPUs."""

    class Row:
        recurring_fees_per_month = np.array([500.0, 0.0])
        one_off_fees = np.array([1200.0, 0.0])
        price_per_gpu_hour = np.array([2.0, 0.0])
        fee_share = np.array([0.1, 0.0])

    class Months:
        service_months = 12

    gpus = serving_prune._most_gpus_within(Row, Months, np.array([50_000.0, 50_000.0]))  # type: ignore[arg-type]
    assert gpus[0] == pytest.approx((50_000 - 500 - 100) / 2.2 / HOURS_PER_MONTH)
    assert gpus[1] == np.inf
