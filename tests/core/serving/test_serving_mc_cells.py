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
from hypothesis import event, given, settings
from hypothesis import strategies as st
from serving_builders import serving_bid, serving_workload
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


def _passes_both_ways(estimates, samples, seed, per_pass):  # type: ignore[no-untyped-def]
    """Every pass of a run, (the cells', the whole grid's) on the same draws."""
    inputs: list[tuple[object, ...]] = []
    passes = []

    def capture(*args):  # type: ignore[no-untyped-def]
        inputs.append(args)
        return serving_passes.search_cells(*args)

    def both(cells, d, start, stop):  # type: ignore[no-untyped-def]
        new = serving_passes.run_pass(cells, d, start, stop)
        passes.append((new, _whole_grid_pass(inputs[-1], d, start, stop)))
        return new

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(mc, "search_cells", capture)
        patched.setattr(mc, "run_pass", both)
        patched.setattr(mc, "draws_per_pass", lambda cells: per_pass)
        result = mc.serving_uncertainty(estimates, samples=samples, seed=seed)
    assert result.samples == samples
    return passes


def _assert_same(passes) -> None:  # type: ignore[no-untyped-def]
    for new, old in passes:
        np.testing.assert_array_equal(new.per_million, old.per_million)
        np.testing.assert_array_equal(new.monthly, old.monthly)
        np.testing.assert_array_equal(new.gpus, old.gpus)
        np.testing.assert_array_equal(new.slo, old.slo)


@pytest.mark.parametrize("variant", ["demo", "burst", "growth"])
def test_every_draw_of_every_pass_is_the_whole_grids_to_the_last_bit(variant):
    demo = _demo(variant)
    estimates = estimate_serving(demo.workload, demo.bids)
    passes = _passes_both_ways(estimates, 1200, 11, 350)  # several, one short
    assert len(passes) == 4
    _assert_same(passes)
    servable = 0
    for _, old in passes:
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


GPUS = ["H100-SXM", "H200-SXM", "L40S", "MI300X"]
bids = st.lists(
    st.fixed_dictionaries(
        {
            "gpu": st.sampled_from(GPUS),
            "price": st.decimals("0.50", "6.00", places=2),
            "gpus_offered": st.sampled_from([8, 16, 48, 128, 512]),
            "committed": st.sampled_from([0, 20_000, 400_000]),  # a floor under the bill
            "recurring": st.sampled_from(["0", "15000"]),
        }
    ),
    min_size=1,
    max_size=4,
)
workloads = st.fixed_dictionaries(
    {
        "total_params_billions": st.floats(7, 200),
        "precision": st.sampled_from(["bf16", "fp8"]),
        "prompt_tokens": st.integers(100, 8_000),
        "output_tokens": st.integers(50, 2_000),
        "ttft_target_ms": st.floats(200, 5_000),
        "tpot_target_ms": st.floats(10, 120),
        "peak_requests_per_s": st.floats(0.5, 200),
        "traffic_growth_percent_per_month": st.sampled_from([0, 4]),
    }
)


@settings(max_examples=40, deadline=None)
@given(workloads, bids, st.integers(0, 2**31 - 1))
def test_the_cells_equal_the_whole_grid_draw_for_draw_on_any_workload_and_bids(
    params, offers, seed
):
    """Random services and offers (floors under the bill, offers too small for some fleets,
    several degrees and GPUs): every draw the Monte Carlo's cells give is the whole grid's."""
    workload = serving_workload(**params, average_requests_per_s=params["peak_requests_per_s"] / 2)
    offered = [
        serving_bid(
            f"b{i}",
            o["gpu"],
            str(o["price"]),
            capacity={"gpus_offered": o["gpus_offered"]},
            topology={"nvlink_domain_gpus": 1 if o["gpu"] == "L40S" else 8},
            terms={
                "committed_gpu_hours": o["committed"],
                "term_months": 12,
                "recurring_fees_per_month": o["recurring"],
            },
        )
        for i, o in enumerate(offers)
    ]
    estimates = estimate_serving(workload, offered)
    passes = _passes_both_ways(estimates, 240, seed, 70)
    _assert_same(passes)
    served = sum(int(np.isfinite(new.per_million).sum()) for new, _ in passes)
    event(f"share of (bid, draw) pairs served: {served / 240 / len(offers):.1f}")
