"""Issue 37 item 5: the serving Monte Carlo times, sizes and ranks each bid's own cells as
(cells x draws) arrays (serving_cells, serving_cheapest, serving_passes). Every pass is held,
draw by draw and to the last bit, against the path it replaced, written out here: the grid of
every live bid, degree and batch built per draw (serving.replica_grid), the cheapest fleet
chosen by the point estimate's own serving.fleet, and the check at peak by serving_slo's
meets_at_peak, on the demo, the demo with a traffic profile and burst prices, and the demo with
traffic growing 5% a month."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from whole_grid_reference import fleet_at_peak_month, meets_at_peak

from clusterbid.core.costmodel.serving import fleet, replica_grid
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty import serving_montecarlo as mc
from clusterbid.core.uncertainty import serving_passes
from clusterbid.core.uncertainty.serving_passes import PassResult

DEMO = (
    Path(__file__).resolve().parents[3] / "resources" / "examples" / "demo-serving-evaluation.json"
)


def _demo(variant: str) -> Evaluation:
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    if variant == "burst":  # 6 peak hours a day, every bid offering burst at $4.00 (issue 37)
        data["workload"]["peak_hours_per_day"] = 6
        for bid in data["bids"]:
            bid["terms"]["burst_price_per_gpu_hour"] = "4.00"
    if variant == "growth":
        data["workload"]["traffic_growth_percent_per_month"] = 5
    return Evaluation.model_validate(data)


def _tile(arrays, repeats):  # type: ignore[no-untyped-def]
    return arrays.replace(
        **{name: np.repeat(getattr(arrays, name), repeats) for name in arrays.__slots__}
    )


def _whole_grid_pass(inputs, d, start, stop):  # type: ignore[no-untyped-def]
    """One pass as the Monte Carlo ran it before the cells: rows are (live bid, draw) pairs."""
    w, base, batches, allowed, comm, fleets, exact = inputs
    n, live = stop - start, base.hbm_efficiency.size
    arrays = _tile(base, n)
    arrays = arrays.replace(
        hbm_efficiency=np.minimum(
            arrays.hbm_efficiency * d.mbu[:, start:stop].ravel(),
            np.maximum(arrays.hbm_efficiency, 1.0),
        ),
        compute_efficiency=np.minimum(
            arrays.compute_efficiency * d.compute[:, start:stop].ravel(),
            np.maximum(arrays.compute_efficiency, 1.0),
        ),
        payment_days=d.payment_days[:, start:stop].ravel(),
        traffic_growth=np.tile(d.growth[start:stop], live),
        sla_credit_share=d.credit[:, start:stop].ravel(),
    )
    grid = replica_grid(w, arrays, batches, comm.repeat(n))
    grid = replace(grid, feasible=grid.feasible & np.repeat(allowed, n, axis=0))
    plan = fleet(w, arrays, grid, exact_slots=exact)
    ok = plan.servable.reshape(live, n)
    needed, billed = fleet_at_peak_month(w, plan)
    return PassResult(
        np.where(ok, plan.cost_per_million_tokens.reshape(live, n), np.inf),
        np.where(ok, plan.monthly_cost.reshape(live, n), np.nan),
        np.stack(
            [np.where(ok, needed.reshape(live, n), 0), np.where(ok, billed.reshape(live, n), 0)]
        ),
        meets_at_peak(w, grid, fleets, n, exact, d.growth[start:stop]),
    )


@pytest.mark.parametrize("variant", ["demo", "burst", "growth"])
def test_every_draw_of_every_pass_is_the_whole_grids_to_the_last_bit(monkeypatch, variant):
    demo = _demo(variant)
    estimates = estimate_serving(demo.workload, demo.bids)
    inputs: list[tuple[object, ...]] = []
    passes = []

    def capture(*args):  # type: ignore[no-untyped-def]
        inputs.append(args)
        return serving_passes.search_cells(*args)

    def both(cells, d, start, stop):  # type: ignore[no-untyped-def]
        new = serving_passes.run_pass(cells, d, start, stop)
        passes.append((new, _whole_grid_pass(inputs[-1], d, start, stop)))
        return new

    monkeypatch.setattr(mc, "search_cells", capture)
    monkeypatch.setattr(mc, "run_pass", both)
    monkeypatch.setattr(mc, "draws_per_pass", lambda cells: 350)  # several passes, one short
    result = mc.serving_uncertainty(estimates, samples=1200, seed=11)
    assert result.samples == 1200 and len(passes) == 4
    servable = 0
    for new, old in passes:
        np.testing.assert_array_equal(new.per_million, old.per_million)
        np.testing.assert_array_equal(new.monthly, old.monthly)
        np.testing.assert_array_equal(new.gpus, old.gpus)
        np.testing.assert_array_equal(new.slo, old.slo)
        servable += int(np.isfinite(old.per_million).sum())
    # Not a vacuous match: most (bid, draw) pairs serve, and the check at peak goes both ways.
    assert servable > 0.7 * 1200 * len(estimates.bids)
    slo = np.concatenate([old.slo for _, old in passes], axis=1)
    assert slo.any() and not slo.all()


def test_the_bands_are_unchanged_by_how_many_draws_a_pass_holds(monkeypatch):
    demo = _demo("demo")
    estimates = estimate_serving(demo.workload, demo.bids)
    wide = mc.serving_uncertainty(estimates, samples=900, seed=3)
    monkeypatch.setattr(mc, "draws_per_pass", lambda cells: 7)
    narrow = mc.serving_uncertainty(estimates, samples=900, seed=3)
    assert repr(wide) == repr(narrow)  # every figure, nan (never servable) included
