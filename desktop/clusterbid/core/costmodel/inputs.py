"""Turn validated models into the numpy arrays the cost model runs on, one entry per bid."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.billing_kinds import spec_of
from clusterbid.core.catalog import Catalog
from clusterbid.core.costmodel.bid_rows import ROWS
from clusterbid.core.costmodel.communication import nvlink_busbw_gb_s
from clusterbid.core.costmodel.contract import BILLING_CODES, HOURS_PER_MONTH
from clusterbid.core.costmodel.contract_findings import schedule
from clusterbid.core.costmodel.delivery_cost import delivery_row
from clusterbid.core.costmodel.sla_credit import sla_row
from clusterbid.core.costmodel.stack_efficiency import mfu_factor as stack_mfu_factor
from clusterbid.core.costmodel.workload_scalars import (  # re-exported
    WorkloadScalars,
    baseline_model_mfu,
    idle_plan,
)
from clusterbid.core.provenance import effective_reliability, effective_terms, unstated_fee_shares
from clusterbid.core.workload import Workload

__all__ = [
    "HOURS_PER_MONTH",
    "BidArrays",
    "WorkloadScalars",
    "baseline_model_mfu",
    "build_bid_arrays",
    "idle_plan",
]
# Without GPUDirect RDMA the NICs read and write host bounce buffers: a public nccl-tests pair on
# 2 GH200 nodes with 4x 200 Gb/s reports all_reduce busbw 79.72 GB/s without GDR and 96.07 with
# it (NVIDIA/nccl issue 1579, 2 GB in place), so 0.83 of the spec figure.
NO_GPUDIRECT_BUSBW_FACTOR = 79.72 / 96.07


def sharp_busbw_factor(nodes) -> float:
    """InfiniBand SHARP reduces in the switches: each node sends its shard once and receives the
    result once, where a ring moves 2(k-1)/k of it over k nodes. At the same link rate the
    nccl-tests busbw (algbw x 2(k-1)/k) therefore rises by 2(k-1)/k over the nodes a
    data-parallel group spans; 1 for two nodes or fewer."""
    k = max(float(nodes), 2.0)
    return 2.0 * (k - 1.0) / k


@dataclass(frozen=True, slots=True)
class BidArrays:
    """Per-bid inputs, each an array of shape (bids,); Monte Carlo may broadcast a sample axis."""

    peak_flops: np.ndarray  # dense FLOP/s per GPU at the workload's precision (nan: unsupported)
    hbm_gb: np.ndarray
    nvlink_busbw_gb_s: np.ndarray
    nvlink_domain_gpus: np.ndarray
    gpus_per_node: np.ndarray
    node_busbw_gb_s: np.ndarray  # scale-out busbw per node: NICs x rate x efficiency, or measured
    nic_gb_s_per_gpu: np.ndarray  # point-to-point and all-to-all: the GPU's NIC share, no SHARP
    step_latency_s: np.ndarray
    oversubscription_ratio: np.ndarray
    leaf_domain_gpus: np.ndarray
    contiguous_block_gpus: np.ndarray
    gpus_offered: np.ndarray
    spare_pool_gpus: np.ndarray
    multi_node_training_ok: np.ndarray  # bool
    failures_per_gpu_hour: np.ndarray
    node_replacement_hours: np.ndarray
    pool_swap_hours: np.ndarray  # a node from the provider's pool when none is on hand (nan: waits)
    uptime: np.ndarray  # fraction
    storage_write_gb_s: np.ndarray
    burn_in_hours: np.ndarray
    price_per_gpu_hour: np.ndarray  # in the evaluation currency
    committed_gpu_hours: np.ndarray
    one_off_fees: np.ndarray
    recurring_fees_per_month: np.ndarray
    # Fees the bid does not state, as fractions of its GPU bill (issue 31: never free).
    one_off_fee_share: np.ndarray
    recurring_fee_share: np.ndarray
    # The contract (contract.py): how it bills, what for how long, and its exit terms.
    billing_kind: np.ndarray  # BILLING_CODES
    billed_gpus: np.ndarray  # reserved/block: GPUs billed for the term, spares included unless free
    term_hours: np.ndarray  # reserved and committed deals: months x 730; block: days x 24
    committed_spend: np.ndarray
    billing_increment_hours: np.ndarray
    minimum_billed_hours: np.ndarray
    escalation_per_year: np.ndarray  # fraction
    exit_allowed: np.ndarray  # bool
    exit_fee_share: np.ndarray  # fraction of the remaining term's value
    payment_days: np.ndarray  # invoices due this many days after issue (not stated: on invoice)
    baseline_mfu: np.ndarray  # the workload's x the catalog's GPU/precision factor, or calibrated
    busbw_spans_leaves: np.ndarray  # bool: node_busbw was measured on a run across leaves
    # Wall-clock hours from the bid's start to the end of the deadline day (inf: no deadline or no
    # start known): the hours beyond it cost the plan's delay cost (issue 31).
    hours_to_deadline: np.ndarray
    # Issue 39: a late block (slip 0 at the point, drawn in the Monte Carlo) and its remedies
    # (delivery_cost.py); what the SLA pays out (sla_credit.py). Their meanings are there.
    slip_hours: np.ndarray
    billed_through_slip: np.ndarray
    late_credit_per_week: np.ndarray
    late_damages_per_hour: np.ndarray
    late_remedy_cap: np.ndarray
    sla_allowance_hours: np.ndarray
    sla_claimable_share: np.ndarray
    sla_headline_share: np.ndarray

    def replace(self, **changes: np.ndarray) -> BidArrays:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return BidArrays(**values)


BOOLEAN_COLUMNS = ("multi_node_training_ok", "exit_allowed", "busbw_spans_leaves")


def _contract_row(bid: Bid, rate: float) -> dict[str, float]:
    terms = effective_terms(bid)  # a term nobody stated: its cautious default (issue 31)
    term_hours = (
        terms.block_days * 24.0
        if spec_of(terms.billing_kind).needs_block_days
        else terms.term_months * HOURS_PER_MONTH
    )
    one_off_share, recurring_share = unstated_fee_shares(bid)
    return {
        "one_off_fees": float(terms.one_off_fees or 0) * rate,
        "recurring_fees_per_month": float(terms.recurring_fees_per_month or 0) * rate,
        "one_off_fee_share": one_off_share,
        "recurring_fee_share": recurring_share,
        "billing_kind": BILLING_CODES[terms.billing_kind],
        "billed_gpus": bid.billed_gpus,
        "term_hours": term_hours,
        "committed_spend": float(terms.committed_spend) * rate,
        "billing_increment_hours": terms.billing_increment_hours,
        "minimum_billed_hours": terms.minimum_billed_hours,
        "escalation_per_year": terms.price_escalation_percent_per_year / 100.0,
        "exit_allowed": terms.exit_clause,
        "exit_fee_share": terms.early_exit_fee_percent / 100.0,
        "payment_days": terms.payment_terms_days,
    }


def build_bid_arrays(
    workload: Workload, bids: list[Bid], catalog: Catalog, rates: list[float]
) -> BidArrays:
    """Read every bid once into columns; `rates` converts each bid's currency to the evaluation's.
    A bid unchanged since the last build keeps the row read then (bid_rows.py, issue 32)."""
    rows = ROWS.rows(
        workload, catalog, bids, rates, lambda bid, rate: _bid_row(workload, bid, catalog, rate)
    )
    arrays = {
        f.name: np.asarray(
            [row[f.name] for row in rows], dtype=bool if f.name in BOOLEAN_COLUMNS else float
        )
        for f in fields(BidArrays)
    }
    return BidArrays(**arrays)


def _bid_row(workload: Workload, bid: Bid, catalog: Catalog, rate: float) -> dict[str, Any]:
    """One bid's inputs, a function of these four arguments only (what bid_rows.py keys on)."""
    gpu = catalog.gpu(bid.capacity.gpu_model)
    fabric = catalog.fabric(bid.fabric.technology)
    peak = gpu.dense_tflops(workload.precision)
    reliability = effective_reliability(bid)  # not-stated figures take their documented default
    return {
        "peak_flops": np.nan if peak is None else peak * 1e12,
        "hbm_gb": gpu.hbm_gb,
        "nvlink_busbw_gb_s": float(nvlink_busbw_gb_s(gpu.nvlink_bandwidth_gb_s)),
        "nvlink_domain_gpus": bid.topology.nvlink_domain_gpus,
        "gpus_per_node": bid.capacity.gpus_per_node,
        "node_busbw_gb_s": _spec_node_busbw(workload, bid, fabric),
        "nic_gb_s_per_gpu": _spec_nic_per_gpu(bid, fabric),
        "step_latency_s": fabric.ring_step_latency_us * 1e-6,
        "oversubscription_ratio": bid.topology.oversubscription_ratio,
        "leaf_domain_gpus": bid.topology.leaf_domain_gpus,
        "contiguous_block_gpus": bid.capacity.largest_contiguous_block_gpus,
        "gpus_offered": bid.capacity.gpus_offered,
        "spare_pool_gpus": bid.capacity.spare_pool_gpus,
        "multi_node_training_ok": fabric.multi_node_training,
        "failures_per_gpu_hour": reliability.failures_per_1000_gpu_days / 1000.0 / 24.0,
        "node_replacement_hours": reliability.node_replacement_hours,
        "pool_swap_hours": np.nan
        if bid.reliability.pool_swap_hours is None
        else bid.reliability.pool_swap_hours,
        "uptime": reliability.uptime_sla_percent / 100.0,
        "storage_write_gb_s": reliability.storage_write_gb_s,
        "burn_in_hours": reliability.burn_in_hours,
        "price_per_gpu_hour": float(bid.terms.price_per_gpu_hour) * rate,
        "committed_gpu_hours": bid.terms.committed_gpu_hours,
        **_contract_row(bid, rate),
        "baseline_mfu": baseline_model_mfu(workload)
        * stack_mfu_factor(workload.software_stack, gpu, workload.precision),
        "busbw_spans_leaves": False,
        "hours_to_deadline": deadline_hours(workload.plan, bid, workload.job_gpus),
        **delivery_row(bid, rate),
        **sla_row(bid),
    }


def deadline_hours(plan, bid: Bid, job_gpus: int | None = None) -> float:
    """Hours from the bid's start to the end of the plan's deadline day (inf without either): the
    job is on time when it ends before the day after the deadline."""
    start = schedule(plan, bid, 0.0, job_gpus).start
    if plan.deadline is None or start is None:
        return float("inf")
    return ((plan.deadline - start).days + 1) * 24.0


def _spec_nic_per_gpu(bid: Bid, fabric) -> float:
    """What one GPU sends point to point over its share of the NICs: the aggregate at the
    fabric's typical efficiency, less without GPUDirect RDMA; SHARP reduces, it does not move
    point-to-point or all-to-all bytes faster."""
    rate = bid.fabric.aggregate_gb_s * fabric.typical_efficiency / bid.capacity.gpus_per_node
    return rate * (
        NO_GPUDIRECT_BUSBW_FACTOR if fabric.rdma and not bid.fabric.gpudirect_rdma else 1.0
    )


def _spec_node_busbw(workload: Workload, bid: Bid, fabric) -> float:
    """NICs x line rate x the fabric's typical ring efficiency, less without GPUDirect RDMA, more
    with SHARP on InfiniBand (measured evidence replaces all of it)."""
    busbw = bid.fabric.aggregate_gb_s * fabric.typical_efficiency
    if fabric.rdma and not bid.fabric.gpudirect_rdma:
        busbw *= NO_GPUDIRECT_BUSBW_FACTOR
    if bid.fabric.sharp and fabric.id.startswith("IB-"):
        replica = workload.tensor_parallel * workload.pipeline_parallel * workload.context_parallel
        nodes = min(workload.job_gpus // replica, workload.job_gpus / bid.capacity.gpus_per_node)
        busbw *= sharp_busbw_factor(nodes)
    return busbw
