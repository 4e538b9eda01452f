"""Small valid evaluations and bids for the store tests, built from the catalog's real ids."""

from __future__ import annotations

from decimal import Decimal

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import CriteriaWeights, Evaluation, ScoringPolicy
from clusterbid.core.workload import Workload


def make_workload(name: str = "Dense 70B pre-training", job_gpus: int = 1024) -> Workload:
    return Workload(
        name=name,
        total_params_billions=70,
        active_params_billions=70,
        training_tokens_billions=2000,
        job_gpus=job_gpus,
        tensor_parallel=8,
        global_batch_tokens=4 * 1024 * 1024,
        sequence_length=8192,
        baseline_mfu=0.42,
    )


def make_bid(
    bid_id: str = "acme-1",
    *,
    price: str = "2.49",
    provider: str = "Acme GPU Cloud",
    gpus: int = 1024,
    currency: str = "USD",
) -> Bid:
    return Bid.model_validate(
        {
            "id": bid_id,
            "quote": {
                "provider": provider,
                "reference": f"Q-{bid_id}",
                "quoted_on": "2026-03-01",
                "valid_until": "2026-06-30",
            },
            "capacity": {
                "gpu_model": "H100-SXM",
                "gpus_offered": gpus,
                "gpus_per_node": 8,
                "largest_contiguous_block_gpus": gpus,
            },
            "fabric": {
                "technology": "IB-NDR400",
                "nics_per_node": 8,
                "nic_line_rate_gbit_s": 400,
                "gpudirect_rdma": True,
                "sharp": True,
            },
            "topology": {
                "kind": "rail-optimised",
                "leaf_domain_gpus": min(gpus, 256),
                "nvlink_domain_gpus": 8,
            },
            "reliability": {
                "uptime_sla_percent": 99.5,
                "failures_per_1000_gpu_days": 0.47,
                "storage_write_gb_s": 200,
            },
            "terms": {
                "price_per_gpu_hour": price,
                "currency": currency,
                "term_months": 6,
                "one_off_fees": "15000",
                "recurring_fees_per_month": "0",
            },
            "facility": {"datacenter_tier": 3, "certifications": ["SOC2", "ISO27001"]},
        }
    )


def make_evaluation(n_bids: int = 2, title: str = "Q3 training cluster") -> Evaluation:
    bids = tuple(
        make_bid(f"bid-{i}", price=f"{2 + i / 100:.2f}", provider=f"Provider {i}")
        for i in range(n_bids)
    )
    return Evaluation(
        title=title,
        workload=make_workload(),
        bids=bids,
        policy=ScoringPolicy(exchange_rates={"EUR": Decimal("1.08")}),
    )


def make_policy(cost_weight: float) -> ScoringPolicy:
    return ScoringPolicy(
        weights=CriteriaWeights(cost_to_finish=cost_weight), exchange_rates={"EUR": Decimal("1.08")}
    )
