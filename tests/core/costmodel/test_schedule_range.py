"""An unstated interleave depth or micro-batch runs the best schedule the layout allows, flagged
as assumed, with its range drawn in the Monte Carlo (issue 36 item 4): before, a workload without
virtual_pipeline_stages silently ran v = 1, and an unstated micro-batch ran 1 with no range."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.costmodel.schedule_range import (
    INTERLEAVE_STREAM,
    MICRO_BATCH_STREAM,
    feasible_interleaves,
    schedule_range,
)
from clusterbid.core.costmodel.training import pipeline_bubble
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty.montecarlo import run_monte_carlo
from clusterbid.core.uncertainty.sampling import setup
from clusterbid.core.uncertainty.spreads import Spreads
from clusterbid.core.workload import Workload


def _unstated(**changes) -> Workload:
    data = workload_dict(num_layers=80, hidden_size=8192, **changes)
    del data["virtual_pipeline_stages"]  # the workload does not state it
    return Workload.model_validate(data)


def _stated(v: int) -> Workload:
    return Workload.model_validate(
        workload_dict(num_layers=80, hidden_size=8192, virtual_pipeline_stages=v)
    )


def test_feasible_depths_split_each_stage_s_layers_evenly():
    # 80 layers over PP 4: 20 per stage, so v in the divisors of 20.
    assert feasible_interleaves(_unstated()) == [1, 2, 4, 5, 10, 20]
    # Without the layer count only the workload's own depth is known to fit.
    assert feasible_interleaves(Workload.model_validate(workload_dict())) == [1]
    # Megatron-LM's interleaved schedule needs the micro-batches per step (here 1,024 sequences
    # over DP 16 = 64) to be a multiple of PP: at 1,040 sequences, m = 65 and only v = 1 runs.
    odd = _unstated(global_batch_tokens=1040 * 4096)
    assert odd.micro_batches_per_step == 65
    assert feasible_interleaves(odd) == [1]


def test_unstated_interleave_runs_the_fastest_feasible_depth():
    bid = Bid.model_validate(bid_dict())
    # The step time at each depth from full estimates of the workload stating that depth.
    steps = {v: estimate_training(_stated(v), [bid]).bids[0].step_s for v in (1, 2, 4, 5, 10, 20)}
    best = min(steps, key=steps.__getitem__)
    assert best > 1  # interleaving beats none on this layout (bubble 3/67 at v = 1)
    e = estimate_training(_unstated(), [bid]).bids[0]
    assert e.interleave == best
    assert e.step_s == pytest.approx(steps[best], rel=1e-12)
    # m = 64 micro-batches, pp 4: the bubble the step carries is 3 / (64 v + 3).
    assert e.bubble_fraction == pytest.approx(pipeline_bubble(4, best, 64))
    found = schedule_range(_unstated(), bid)
    assert not found.interleave_stated and found.assumed == (best, 1)
    # A stated depth is run as stated, even when another would be faster.
    assert estimate_training(_stated(1), [bid]).bids[0].interleave == 1


def test_the_officer_reads_the_assumed_schedule_and_its_range():
    workload, bid = _unstated(), Bid.model_validate(bid_dict())
    e = estimate_training(workload, [bid]).bids[0]
    row = next(a for a in bid_assumptions(e, workload) if a.name == "Pipeline schedule")
    assert row.value.startswith(f"interleave {e.interleave}, micro-batch 1 (assumed")
    assert "does not state the interleave)" in row.value
    assert "the layout allows interleave 1, 2, 4, 5, 10, 20;" in row.source
    e = estimate_training(_stated(5), [bid]).bids[0]
    assert "Pipeline schedule" not in {a.name for a in bid_assumptions(e, _stated(5))}


def _mfu_input(workload: Workload, bids: list[Bid] | None = None):
    bids = bids or [Bid.model_validate(bid_dict())]
    data = evaluation_dict([b.model_dump(mode="json") for b in bids])
    data["workload"] = workload.model_dump(mode="json", exclude_unset=True)
    drawn = setup(Evaluation.model_validate(data), 1, Spreads(), None)
    assert drawn is not None
    return [next(i for i in d if i.name == "baseline_mfu") for d in drawn.described]


def test_the_monte_carlo_draws_the_slowest_feasible_depth_at_p90():
    bid = Bid.model_validate(bid_dict())
    steps = {v: estimate_training(_stated(v), [bid]).bids[0].step_s for v in (1, 2, 4, 5, 10, 20)}
    expected = math.log(max(steps.values()) / min(steps.values())) / 1.2816
    unstated = _mfu_input(_unstated())[0]
    assert dict(unstated.shared_streams)[INTERLEAVE_STREAM] == pytest.approx(expected, rel=1e-9)
    assert unstated.sigma == 0.0  # not the bid's own draw: one schedule runs whichever bid wins
    # Drawn on the slow side only: nothing runs faster than the fastest feasible schedule.
    assert (INTERLEAVE_STREAM, pytest.approx(expected, rel=1e-9), 0.0) in unstated.two_piece
    assert "unstated interleave drawn across its feasible range" in unstated.source
    stated = _mfu_input(_stated(5))[0]  # a stated schedule adds no doubt
    assert INTERLEAVE_STREAM not in dict(stated.shared_streams)
    assert stated.source == "from the buyer's figure"


# Micro-batch: 70B, TP8 x PP4 on 512 H100 (80 GB), v = 1, 1,024 sequences of 4,096 over DP 16 =
# 64 sequences per replica, so the micro-batch is a divisor of 64; without recomputation the
# first stage's activations grow with it until the model's memory gate refuses the layout.
def _micro(**changes) -> Workload:
    data = workload_dict(num_layers=80, hidden_size=8192, software_stack="llm-foundry-2023")
    data.update(changes)
    data.pop("micro_batch_size") if "micro_batch_size" not in changes else None
    return Workload.model_validate(data)


def _fits(size: int) -> bool:
    estimate = estimate_training(_micro(micro_batch_size=size), [Bid.model_validate(bid_dict())])
    return estimate.bids[0].passes_gates


def test_an_unstated_micro_batch_runs_the_fastest_one_that_fits():
    bid = Bid.model_validate(bid_dict())
    feasible = [size for size in (1, 2, 4, 8, 16, 32, 64) if _fits(size)]
    assert feasible == [1, 2, 4]  # 8 sequences need more than 80 GB (the gate of a stated 8)
    steps = {
        size: estimate_training(_micro(micro_batch_size=size), [bid]).bids[0].step_s
        for size in feasible
    }
    e = estimate_training(_micro(), [bid]).bids[0]
    assert e.micro_batch == min(steps, key=steps.__getitem__)
    assert e.step_s == pytest.approx(min(steps.values()), rel=1e-12)
    row = next(a for a in bid_assumptions(e, _micro()) if a.name == "Pipeline schedule")
    assert "does not state the micro-batch)" in row.value
    assert "the layout allows micro-batch 1, 2, 4;" in row.source


def _hours_band(workload: Workload, bids: list[Bid]) -> dict[str, tuple[float, float]]:
    data = evaluation_dict([b.model_dump(mode="json") for b in bids])
    data["workload"] = workload.model_dump(mode="json", exclude_unset=True)
    evaluation = Evaluation.model_validate(data)
    # Every spread off but the schedule's (the stated stack publishes one figure: no spread).
    only_schedule = replace(Spreads.zero(), stack_spread_scale=1.0)
    found = run_monte_carlo(evaluation, 40_000, seed=3, spreads=only_schedule, precision=None)
    return {i: (b.hours_p10, b.hours_p90) for i, b in found.bids.items()}


def test_the_micro_batch_range_widens_the_band_by_its_step_times_common_to_every_bid():
    bids = [
        Bid.model_validate(bid_dict("b1")),
        Bid.model_validate(
            bid_dict("b2", fabric={"technology": "RoCEv2-400G", "nic_line_rate_gbit_s": 400})
        ),
    ]
    no_overlap = {"dp_comm_overlap": 0.0}  # exposed communication then does not move with MFU
    stated = _hours_band(_micro(micro_batch_size=1, **no_overlap), bids)
    unstated = _hours_band(_micro(**no_overlap), bids)
    for k, bid in enumerate(bids):
        points = {
            size: estimate_training(_micro(micro_batch_size=size, **no_overlap), [bid]).bids[0]
            for size in (1, 2, 4)
        }
        point = points[1]
        assert point.wall_hours == estimate_training(_micro(**no_overlap), bids).bids[k].wall_hours
        # Stated: nothing else is drawn, so the band is the point.
        assert stated[bid.id] == pytest.approx((point.wall_hours, point.wall_hours), rel=1e-5)
        # Unstated: the slowest feasible micro-batch (4) at P90 of the step time, drawn on the
        # MFU: at P90 the compute (pipelined) part stretches by step(4) / step(1), the exposed
        # communication stays, and the run's hours follow the step. Never faster than the best
        # feasible schedule, which the point already runs: half the draws sit on it, so P10 is
        # the point.
        stretch = points[4].step_s / point.step_s
        pipelined = point.step_s - point.exposed_comm_s
        slow_step = pipelined * stretch + point.exposed_comm_s
        burn_in = point.wall_hours - point.run_hours
        p10, p90 = unstated[bid.id]
        assert p90 == pytest.approx(burn_in + point.run_hours * slow_step / point.step_s, rel=2e-3)
        assert p10 == pytest.approx(point.wall_hours, rel=1e-5)
    # One stream for every bid: the bids' inputs name the same schedule stream.
    drawn = _mfu_input(_micro(), bids)
    assert {MICRO_BATCH_STREAM} == {
        owner for i in drawn for owner, _ in i.shared_streams if owner == MICRO_BATCH_STREAM
    }
    assert all(MICRO_BATCH_STREAM in dict(i.shared_streams) for i in drawn)


def test_the_schedule_line_reads_the_estimate_s_grid_instead_of_one_per_bid(monkeypatch):
    # Before, the Details and memo line of each bid built that bid's own grid: one cost-model
    # pass per feasible schedule, again for every bid, after the estimate had built one over all
    # of them. Counted here as cost-model passes (a count, not a time).
    import clusterbid.core.costmodel.schedule_range as module

    passes = []
    real = module.step_breakdown
    monkeypatch.setattr(module, "step_breakdown", lambda *a: passes.append(1) or real(*a))
    workload = _unstated(global_batch_tokens=1088 * 4096)  # a batch no earlier test gridded
    bids = [
        Bid.model_validate(bid_dict("n1")),
        Bid.model_validate(
            bid_dict("n2", fabric={"technology": "RoCEv2-400G", "nic_line_rate_gbit_s": 400})
        ),
        Bid.model_validate(bid_dict("n3", terms={"price_per_gpu_hour": 1.5})),
    ]
    estimates = estimate_training(workload, bids).bids
    after_estimate = len(passes)
    assert after_estimate == len(feasible_interleaves(workload))  # one pass per depth, all bids
    lines = [
        next(a for a in bid_assumptions(e, workload) if a.name == "Pipeline schedule")
        for e in estimates
    ]
    assert len(passes) == after_estimate  # no bid built a grid of its own
    # The same figures a grid of the bid alone gives (built here on purpose: one pass per depth).
    for e, line in zip(estimates, lines, strict=True):
        ran = (e.interleave, e.micro_batch)
        alone = schedule_range(workload, e.bid, ran, among=(e.bid,))
        shared = schedule_range(workload, e.bid, ran)
        assert shared.step_s == pytest.approx(alone.step_s, rel=1e-12)
        assert f"interleave {e.interleave}, micro-batch 1 (assumed" in line.value
