"""Property tests: better inputs never make a bid more expensive to finish (hypothesis)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

LINE_RATES = st.sampled_from([100, 200, 400, 800])


def _cost(workload: dict, bid: dict) -> float:
    return (
        estimate_training(Workload.model_validate(workload), [Bid.model_validate(bid)])
        .bids[0]
        .plan_cost
    )


@st.composite
def scenarios(draw):
    pp = draw(st.sampled_from([1, 2, 4]))
    dp = draw(st.sampled_from([2, 4, 8, 16]))
    job = 8 * pp * dp
    workload = workload_dict(
        job_gpus=job,
        tensor_parallel=8,
        pipeline_parallel=pp,
        global_batch_tokens=dp * 64 * 4096,
        baseline_mfu=draw(st.floats(0.1, 0.6)),
        dp_comm_overlap=draw(st.floats(0, 1)),
    )
    bid = bid_dict(
        capacity={
            "gpus_offered": job,
            "largest_contiguous_block_gpus": job,
            "spare_pool_gpus": draw(st.sampled_from([0, 8])),
        },
        fabric={
            "technology": "RoCEv2-400G",
            "nics_per_node": draw(st.integers(1, 8)),
            "nic_line_rate_gbit_s": draw(LINE_RATES),
        },
        topology={
            "oversubscription_ratio": draw(st.floats(1, 4)),
            "leaf_domain_gpus": min(draw(st.sampled_from([8, 64, job])), job),
        },
        reliability={
            "failures_per_1000_gpu_days": draw(st.floats(0, 20)),
            "uptime_sla_percent": draw(st.floats(95, 100)),
            "storage_write_gb_s": draw(st.floats(1, 1000)),
        },
        terms={"price_per_gpu_hour": str(draw(st.decimals("0.50", "10.00", places=2)))},
    )
    return workload, bid


@given(scenarios(), st.floats(1.01, 4))
def test_more_fabric_bandwidth_never_raises_cost(scenario, factor):
    workload, bid = scenario
    faster = {
        **bid,
        "fabric": {
            **bid["fabric"],
            "nic_line_rate_gbit_s": bid["fabric"]["nic_line_rate_gbit_s"] * factor,
        },
    }
    assert _cost(workload, faster) <= _cost(workload, bid) * (1 + 1e-12)


@given(scenarios(), st.floats(0.01, 0.2))
def test_higher_mfu_never_raises_cost(scenario, step):
    workload, bid = scenario
    better = {**workload, "baseline_mfu": min(workload["baseline_mfu"] + step, 0.85)}
    assert _cost(better, bid) <= _cost(workload, bid) * (1 + 1e-12)


@given(scenarios(), st.floats(0.0, 1.0))
def test_higher_goodput_never_raises_cost(scenario, share):
    workload, bid = scenario
    rel = bid["reliability"]
    fewer_failures = {
        **bid,
        "reliability": {
            **rel,
            "failures_per_1000_gpu_days": rel["failures_per_1000_gpu_days"] * share,
        },
    }
    more_uptime = {
        **bid,
        "reliability": {
            **rel,
            "uptime_sla_percent": rel["uptime_sla_percent"]
            + (100 - rel["uptime_sla_percent"]) * share,
        },
    }
    assert _cost(workload, fewer_failures) <= _cost(workload, bid) * (1 + 1e-12)
    assert _cost(workload, more_uptime) <= _cost(workload, bid) * (1 + 1e-12)


@given(scenarios(), st.decimals("0.01", "0.49", places=2))
def test_lower_price_never_raises_cost(scenario, cut):
    workload, bid = scenario
    cheaper = {
        **bid,
        "terms": {
            **bid["terms"],
            "price_per_gpu_hour": str(
                max(Decimal(bid["terms"]["price_per_gpu_hour"]) - cut, Decimal("0.01"))
            ),
        },
    }
    assert _cost(workload, cheaper) <= _cost(workload, bid)


@given(st.sampled_from([8, 16, 32, 64, 128]), st.sampled_from([2, 4, 8]))
def test_larger_job_never_lowers_total_flops(job, factor):
    small = Workload.model_validate(
        workload_dict(
            job_gpus=job, tensor_parallel=8, pipeline_parallel=1, global_batch_tokens=1024 * 4096
        )
    )
    large = Workload.model_validate(
        workload_dict(
            job_gpus=job * factor,
            tensor_parallel=8,
            pipeline_parallel=1,
            global_batch_tokens=1024 * 4096,
        )
    )
    assert large.total_training_flops >= small.total_training_flops
