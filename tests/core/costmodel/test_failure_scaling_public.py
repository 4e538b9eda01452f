"""Reliability like real fleets (issue 36 item 6), each case against published figures.

Sources: Kokolis et al., "Revisiting Reliability in Large-Scale Machine Learning Research
Clusters" (Meta, 2024, arXiv 2410.21680; HPCA 2025): mean time to failure 47.7 days for 8-GPU
jobs, 7.9 hours for 1,024-GPU jobs, a projected 1.8 hours for 16,384 GPUs (their fitted 6.50
failures per 1,000 node-days). Dubey et al., "The Llama 3 Herd of Models" (Meta, 2024), section
3.3.4: 466 interruptions in 54 days on 16,384 GPUs (47 planned, 419 unexpected). Checked for
issue 36 against public accounts quoting both papers (the figures earlier passes used, 47 days
and 8 hours, were rounded from these).
"""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.costmodel.failure_model import job_failures_per_hour
from clusterbid.core.provenance.defaults import RELIABILITY_DEFAULTS
from clusterbid.core.workload import Workload

PUBLISHED_MTBF_HOURS = [
    (8, 47.7 * 24, "research clusters, 8-GPU jobs"),
    (1024, 7.9, "research clusters, 1,024-GPU jobs"),
    (16_384, 1.8, "research clusters, projection for 16,384 GPUs"),
    (16_384, 54 * 24 / 466, "Llama 3, every interruption"),
    (16_384, 54 * 24 / 419, "Llama 3, unexpected interruptions"),
]
DEFAULT_RATE = RELIABILITY_DEFAULTS["reliability.failures_per_1000_gpu_days"]
DEFAULT_PER_GPU_HOUR = DEFAULT_RATE.value / 1000 / 24  # the rate a bid that states none takes


@pytest.mark.parametrize(("gpus", "published_hours", "case"), PUBLISHED_MTBF_HOURS)
def test_job_mtbf_within_2x_of_meta_at_every_published_size(gpus, published_hours, case):
    mtbf = 1 / float(job_failures_per_hour(DEFAULT_PER_GPU_HOUR, gpus))
    assert 0.5 < mtbf / published_hours < 2.0, case


def test_the_cautious_default_is_the_research_clusters_single_node_rate():
    """Issue 31's rule: a figure left out takes the cautious end of what is published. 8-GPU
    jobs on Meta's research clusters failed once in 47.7 days: 1,000 / (47.7 x 8) = 2.62 per
    1,000 GPU-days. The former default, 2.0, sat below it; the default now rounds to it, and the
    typical Llama 3 figure (0.47 at 16,384 GPUs, read across the fleet) stays below it."""
    measured = 1000 / (47.7 * 8)
    assert DEFAULT_RATE.value == round(measured, 1) == DEFAULT_RATE.high
    llama3_at_16k = 419 / (54 * 16_384) * 1000
    fleet = (
        llama3_at_16k
        * float(job_failures_per_hour(1.0, 1024))
        / 1024
        / (float(job_failures_per_hour(1.0, 16_384)) / 16_384)
    )
    assert (
        DEFAULT_RATE.typical == pytest.approx(fleet, abs=0.05)
        and DEFAULT_RATE.typical < DEFAULT_RATE.value
    )
    assert 2.0 in DEFAULT_RATE.earlier  # older documents that hold it still open


def test_a_rate_linear_in_gpus_could_not_be():
    """Why the rate is not linear: the per-GPU rates the papers imply differ by 5x between 8-GPU
    jobs (1 / (47.7 days x 8)) and Llama 3 (419 / (54 days x 16,384)), more than any one constant
    within 2x of both can cover (2 x 2 = 4)."""
    small = 1 / (47.7 * 8)
    large = 419 / (54 * 16_384)
    assert small / large > 4
    # The model: flat to 1,024 GPUs, then the job's rate grows 7.9/1.8 times for 16 times the GPUs.
    flat = float(job_failures_per_hour(1.0, 1024)) / 1024
    assert flat == pytest.approx(float(job_failures_per_hour(1.0, 8)) / 8)
    assert float(job_failures_per_hour(1.0, 16_384)) / float(
        job_failures_per_hour(1.0, 1024)
    ) == pytest.approx(7.9 / 1.8)


def _estimate(bid_changes: dict, **workload):
    w = Workload.model_validate(
        workload_dict(
            checkpoint_interval_minutes=60,
            checkpoint_blocking_share=1.0,
            restart_minutes=15,
            **workload,
        )
    )
    return estimate_training(w, [Bid.model_validate(bid_dict(**bid_changes))]).bids[0]


def test_uptime_sla_is_not_counted_on_top_of_the_failures_it_covers():
    """512 GPUs, 2.4 per 1,000 GPU-days = 0.0512 failures an hour, no spare, 6 h repairs: the job
    is down 0.0512 x (restart + 0.766 x 6 h) / (1 + 0.0512 x lost) of the time, about 21%. A 95%
    SLA (5% down allowed) adds nothing; a perfect record of failures (rate 0) leaves the SLA's 95%."""
    reliability = {
        "failures_per_1000_gpu_days": 2.4,
        "node_replacement_hours": 6,
        "storage_write_gb_s": 98,
    }
    failing = _estimate(
        {
            "capacity": {"spare_pool_gpus": 0},
            "reliability": {**reliability, "uptime_sla_percent": 95},
        }
    )
    perfect = _estimate(
        {
            "capacity": {"spare_pool_gpus": 0},
            "reliability": {**reliability, "uptime_sla_percent": 100},
        }
    )
    assert failing.goodput == pytest.approx(perfect.goodput, rel=1e-12)
    never = _estimate(
        {
            "capacity": {"spare_pool_gpus": 0},
            "reliability": {
                **reliability,
                "failures_per_1000_gpu_days": 0,
                "uptime_sla_percent": 95,
            },
        }
    )
    write = 70e9 * 14 / 98e9  # 10 s; the longest interval, 3,600 s, when nothing fails
    assert never.goodput == pytest.approx(0.95 * 3600 / (3600 + write), rel=1e-12)


def test_without_a_spare_the_bid_states_a_pool_swap_or_the_job_waits_and_the_wait_is_priced():
    reliability = {
        "failures_per_1000_gpu_days": 2.4,
        "node_replacement_hours": 72,
        "storage_write_gb_s": 98,
        "uptime_sla_percent": 100,
    }
    waits = _estimate({"capacity": {"spare_pool_gpus": 0}, "reliability": reliability})
    pool = _estimate(
        {"capacity": {"spare_pool_gpus": 0}, "reliability": {**reliability, "pool_swap_hours": 2}}
    )
    rate = 2.4 / 1000 / 24 * 512
    restart = 0.25 + 10 / 3600  # 15 min and the 980 GB checkpoint read at 98 GB/s
    for e, node_wait in ((waits, 72.0), (pool, 2.0)):
        wait = 321 / 419 * node_wait  # the share of Llama 3's interruptions that took a node out
        lost = restart + e.checkpoint_interval_s / 7200 + wait
        assert e.hours_lost_per_failure == pytest.approx(lost)
        share = rate * wait / (1 + rate * lost)
        assert e.replacement_wait_hours == pytest.approx(e.run_hours * share)
        # The wait's cost: those hours on the job's 512 GPUs at the bid's $2.50.
        assert e.replacement_wait_cost == pytest.approx(e.run_hours * share * 512 * 2.50)
    assert pool.wall_hours < waits.wall_hours


def test_restart_reads_the_checkpoint_at_the_stated_storage_bandwidth():
    slow = _estimate({"reliability": {"storage_write_gb_s": 2}})
    fast = _estimate({"reliability": {"storage_write_gb_s": 200}})
    # 70e9 parameters x 14 bytes = 980 GB: 490 s at 2 GB/s, 4.9 s at 200 GB/s.
    assert slow.restart_hours == pytest.approx(0.25 + 490 / 3600)
    assert fast.restart_hours == pytest.approx(0.25 + 4.9 / 3600)


def test_the_wait_and_its_cost_are_shown_in_words_where_no_spare_is_on_hand():
    from clusterbid.core.assumptions import bid_assumptions

    reliability = {
        "failures_per_1000_gpu_days": 2.4,
        "node_replacement_hours": 72,
        "storage_write_gb_s": 98,
    }
    workload = Workload.model_validate(
        workload_dict(checkpoint_interval_minutes=60, restart_minutes=15)
    )
    waits = _estimate({"capacity": {"spare_pool_gpus": 0}, "reliability": reliability})
    shown = {a.name: a for a in bid_assumptions(waits, workload)}
    wait = shown["Waiting for failed nodes"]
    assert (
        wait.value
        == f"{waits.replacement_wait_hours:,.0f} h of the run, ${waits.replacement_wait_cost:,.0f} of GPU time"
    )
    assert (
        "waiting for the repair" in shown["Failures"].source and "_" not in shown["Failures"].source
    )
    pool = _estimate(
        {"capacity": {"spare_pool_gpus": 0}, "reliability": {**reliability, "pool_swap_hours": 2}}
    )
    assert (
        "2 h to continue on a node from the provider's pool"
        in {a.name: a for a in bid_assumptions(pool, workload)}["Failures"].source
    )
    spare = _estimate({"capacity": {"spare_pool_gpus": 8}, "reliability": reliability})
    assert "Waiting for failed nodes" not in {a.name for a in bid_assumptions(spare, workload)}
