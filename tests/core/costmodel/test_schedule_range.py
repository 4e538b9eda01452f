"""An unstated interleave depth runs the best schedule the layout allows, flagged as assumed, with
its range drawn in the Monte Carlo (issue 36 item 4): before, a workload without
virtual_pipeline_stages silently ran v = 1."""

from __future__ import annotations

import math

import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.costmodel.schedule_range import feasible_interleaves, schedule_range
from clusterbid.core.costmodel.training import pipeline_bubble
from clusterbid.core.evaluation import Evaluation
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
    assert not found.stated and found.assumed == best
    # A stated depth is run as stated, even when another would be faster.
    assert estimate_training(_stated(1), [bid]).bids[0].interleave == 1


def test_the_officer_reads_the_assumed_schedule_and_its_range():
    workload, bid = _unstated(), Bid.model_validate(bid_dict())
    e = estimate_training(workload, [bid]).bids[0]
    row = next(a for a in bid_assumptions(e, workload) if a.name == "Pipeline schedule")
    assert row.value.startswith(f"interleave {e.interleave}, micro-batch 1 (assumed")
    assert "the layout allows 1, 2, 4, 5, 10, 20" in row.source
    e = estimate_training(_stated(5), [bid]).bids[0]
    assert "Pipeline schedule" not in {a.name for a in bid_assumptions(e, _stated(5))}


def test_the_monte_carlo_draws_the_distance_to_no_interleaving():
    bid = Bid.model_validate(bid_dict())
    steps = {v: estimate_training(_stated(v), [bid]).bids[0].step_s for v in (1, 2, 4, 5, 10, 20)}
    best = min(steps.values())
    expected = abs(math.log(steps[1] / best)) / 1.2816  # v = 1 at P90 of the step time

    def own_mfu_sigma(workload: Workload) -> float:
        data = evaluation_dict([bid.model_dump(mode="json")])
        data["workload"] = workload.model_dump(mode="json", exclude_unset=True)
        evaluation = Evaluation.model_validate(data)
        drawn = setup(evaluation, 1, Spreads(), None)
        assert drawn is not None
        return next(i for i in drawn.described[0] if i.name == "baseline_mfu").sigma

    assert own_mfu_sigma(_unstated()) == pytest.approx(expected, rel=1e-9)
    assert own_mfu_sigma(_stated(5)) == 0.0  # a stated schedule adds no doubt
