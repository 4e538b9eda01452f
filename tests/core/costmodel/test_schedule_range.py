"""An unstated interleave depth is said, with how far it moves the step time (issue 36 item 4,
in part): before, a workload without virtual_pipeline_stages silently ran v = 1."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.costmodel.schedule_range import feasible_interleaves, schedule_range
from clusterbid.core.costmodel.training import pipeline_bubble
from clusterbid.core.workload import Workload


def _unstated(**changes) -> Workload:
    data = workload_dict(num_layers=80, hidden_size=8192, **changes)
    del data["virtual_pipeline_stages"]  # the workload does not state it
    return Workload.model_validate(data)


def test_feasible_depths_split_each_stage_s_layers_evenly():
    # 80 layers over PP 4: 20 per stage, so v in the divisors of 20.
    assert feasible_interleaves(_unstated()) == [1, 2, 4, 5, 10, 20]
    # Without the layer count only the workload's own depth is known to fit.
    assert feasible_interleaves(Workload.model_validate(workload_dict())) == [1]


def test_the_range_is_the_model_s_step_time_at_each_depth():
    workload, bid = _unstated(), Bid.model_validate(bid_dict())
    found = schedule_range(workload, bid)
    assert not found.stated and found.assumed == 1
    # Check two depths against a full estimate of the stated workload at that depth.
    for v in (1, 5):
        stated = Workload.model_validate(
            workload_dict(num_layers=80, hidden_size=8192, virtual_pipeline_stages=v)
        )
        e = estimate_training(stated, [bid]).bids[0]
        assert found.step_s_by_interleave[v] == pytest.approx(e.step_s, rel=1e-12)
        # m = 64 micro-batches, pp 4: the bubble the step carries is 3 / (64 v + 3).
        assert e.bubble_fraction == pytest.approx(pipeline_bubble(4, v, 64))
    # Interleaving shrinks the bubble from 3/67 toward 0: some depth beats none.
    assert found.step_s_by_interleave[found.fastest] < found.step_s_by_interleave[1]


def test_the_officer_reads_the_assumed_depth_and_its_range():
    workload, bid = _unstated(), Bid.model_validate(bid_dict())
    e = estimate_training(workload, [bid]).bids[0]
    row = next(a for a in bid_assumptions(e, workload) if a.name == "Pipeline schedule")
    assert row.value == "interleave 1 (assumed: the workload does not state it)"
    assert "the layout allows 1, 2, 4, 5, 10, 20" in row.source
    stated = Workload.model_validate(
        workload_dict(num_layers=80, hidden_size=8192, virtual_pipeline_stages=5)
    )
    e = estimate_training(stated, [bid]).bids[0]
    assert "Pipeline schedule" not in {a.name for a in bid_assumptions(e, stated)}
