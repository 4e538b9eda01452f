"""Run the serving model over an evaluation's bids and package one result per bid."""

from __future__ import annotations

import math
from dataclasses import dataclass

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import Catalog, default_catalog
from clusterbid.core.costmodel.contract_findings import unstated_fee_findings
from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.costmodel.serving import MAX_BATCH, SECONDS_PER_MONTH, fleet, replica_grid
from clusterbid.core.costmodel.serving_calibration import calibrate_serving
from clusterbid.core.costmodel.serving_evidence_shape import carry_notes
from clusterbid.core.costmodel.serving_flagged import both_ways_notes
from clusterbid.core.costmodel.serving_gates import serving_gates
from clusterbid.core.costmodel.serving_growth_words import (
    MONTH_FIGURES,
    outgrown_finding,
    term_figures,
)
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays
from clusterbid.core.costmodel.workload_fit import unused_fabric_finding
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.serving_workload import InferenceWorkload


@dataclass(frozen=True, slots=True)
class ServingEstimate:
    """What the serving model says about one bid; figures are None when the bid cannot serve."""

    bid: Bid
    gates: tuple[Finding, ...]
    warnings: tuple[Finding, ...]
    calibration_notes: tuple[str, ...]
    throughput_evidence: Evidence | None
    price_per_gpu_hour: float  # evaluation currency
    exchange_rate: float
    hbm_bandwidth_tb_s: float
    hbm_efficiency: float
    compute_efficiency: float  # the workload's, or scaled with the HBM one by serving evidence
    tensor_parallel: int | None
    batch: int | None
    batch_limit: str | None  # what stops a larger batch
    memory_bound: bool | None
    decode_step_ms: float | None
    tp_fabric_latency_ms: float | None  # per forward pass, when a replica spans nodes
    tpot_ms: float | None
    ttft_ms: float | None
    replica_tokens_per_s: float | None
    tokens_per_s_per_gpu: float | None
    replicas: int | None
    replicas_for_mean: int | None  # without queueing headroom
    queue_wait_ms: float | None  # at the TTFT percentile, at peak
    slot_utilisation: float | None
    tp_allreduce_ms: float | None  # per decode step, all tensor-parallel all-reduces
    gpus_needed: int | None
    gpus_billed: int | None
    monthly_cost: float | None
    cost_per_million_tokens: float | None
    fabric_cost_per_month: float | None
    # Issue 31: the cost of cash of the payment terms, inside the cost per million tokens and never
    # in the monthly bill (it is not paid to the provider): a month's, and its share per million.
    cash_cost_per_month: float | None = None
    cash_cost_per_million_tokens: float | None = None
    # Issue 37: the reserved base and the on-demand GPU-hours a month above it (the whole fleet
    # and 0 unless the bid offers burst and the workload states its traffic profile).
    reserved_gpus: int | None = None
    burst_gpu_hours: float | None = None
    # Issue 37: the SLA credit a month the buyer can expect to claim (in the cost per million
    # tokens, never in the monthly bill) and the headline credit (shown, never counted).
    sla_credit_per_month: float | None = None
    sla_headline_credit_per_month: float | None = None
    # Issue 37: month by month over the term when the traffic grows (None when it does not): the
    # bill, the fleet the month's peak needs and the reserved base (serving_growth).
    monthly_bills: tuple[float, ...] | None = None
    gpus_at_peak_by_month: tuple[int, ...] | None = None
    reserved_by_month: tuple[int, ...] | None = None
    # Issue 37: the replicas each month's peak needs (spares included), and the fleet at the term's
    # peak month (the month of most traffic at the stated growth), where its size is judged.
    replicas_by_month: tuple[int, ...] | None = None
    peak_month: int | None = None
    gpus_needed_at_peak_month: int | None = None
    gpus_billed_at_peak_month: int | None = None
    # The HBM efficiency the bid was assumed to reach before its serving evidence (the workload's,
    # or the stated engine's published figure): the memo's "engine at k x the assumed" divides by
    # it, as the calibration note does (a tester saw the memo print 0.96x where the note said 1.16x).
    assumed_hbm_efficiency: float = float("nan")
    assumed_compute_efficiency: float = float("nan")  # likewise, the matmuls' share of peak

    @property
    def bursts(self) -> bool:
        return bool(self.burst_gpu_hours) or (
            self.reserved_gpus is not None
            and self.gpus_billed is not None
            and self.reserved_gpus < self.gpus_billed
        )

    @property
    def passes_gates(self) -> bool:
        return not self.gates


@dataclass(frozen=True, slots=True)
class ServingEstimates:
    workload: InferenceWorkload
    bids: tuple[ServingEstimate, ...]


def _batch_limit(grid, w: ServingScalars, i: int, t: int, k: int) -> str:
    """Which constraint the next larger batch would break."""
    if k + 1 >= MAX_BATCH:
        return f"batch cap ({MAX_BATCH})"
    nxt = (i, t, k + 1)
    if grid.feasible[nxt]:
        return "cost (a larger batch needs no fewer GPUs once queueing headroom is added)"
    if not grid.fits_hbm[nxt]:
        return "HBM capacity"
    if grid.tpot_s[nxt] > w.tpot_target_s:
        return "time per output token"
    return "time to first token"


def estimate_serving(
    workload: InferenceWorkload,
    bids: list[Bid] | tuple[Bid, ...],
    rates: list[float] | None = None,
    catalog: Catalog | None = None,
    currency: str = "USD",
) -> ServingEstimates:
    """Cost per million output tokens of serving the workload on every bid (vectorised over bids)."""
    catalog = catalog or default_catalog()
    bids = list(bids)
    rates = rates or [1.0] * len(bids)
    w = ServingScalars.from_workload(workload)
    spec = build_serving_arrays(workload, bids, catalog, rates)
    arrays, evidence, notes = calibrate_serving(w, spec, bids, catalog=catalog)
    grid = replica_grid(w, arrays)
    plan = fleet(w, arrays, grid)
    for i, note in both_ways_notes(w, spec, arrays, plan, bids, catalog, currency).items():
        notes[i].append(note)
    gates = serving_gates(w, arrays, grid, plan, workload.precision)
    results = []
    for i, bid in enumerate(bids):
        figures = _figures(grid, plan, w, i) if not gates[i] else {}
        tp = figures.get("tensor_parallel")
        spans = tp is not None and tp > arrays.fast_domain_gpus[i]
        if evidence[i] is not None:
            notes[i] += carry_notes(evidence[i], tp, bid.capacity.gpu_model, w)
        grown = figures.get("fabric_cost_per_month") if figures.get("peak_month") else None
        fit = unused_fabric_finding(
            bid, catalog, spans, figures.get("gpus_billed"), currency, rates[i], grown
        )
        results.append(
            ServingEstimate(
                bid=bid,
                gates=tuple(gates[i]),
                warnings=_warnings(bid, fit, figures),
                calibration_notes=tuple(notes[i]),
                throughput_evidence=evidence[i],
                price_per_gpu_hour=float(arrays.price_per_gpu_hour[i]),
                exchange_rate=rates[i],
                hbm_bandwidth_tb_s=float(arrays.hbm_bandwidth_bytes_s[i]) / 1e12,
                hbm_efficiency=float(arrays.hbm_efficiency[i]),
                compute_efficiency=float(arrays.compute_efficiency[i]),
                assumed_hbm_efficiency=float(spec.hbm_efficiency[i]),
                assumed_compute_efficiency=float(spec.compute_efficiency[i]),
                **{name: figures.get(name) for name in _FIGURES},
            )
        )
    return ServingEstimates(workload, tuple(results))


def _warnings(bid: Bid, fit: Finding | None, figures: dict) -> tuple[Finding, ...]:
    """A serving fleet bills whole months: of the unstated terms only fees move its cost; then a
    fabric the service does not use, and a fleet that outgrows the GPUs offered."""
    return (
        ((fit,) if fit else ())
        + tuple(f for f in unstated_fee_findings(bid) if f.code == "fees_not_stated")
        + outgrown_finding(bid, figures.get("gpus_at_peak_by_month"))
    )


_FIGURES = (
    "tensor_parallel",
    "batch",
    "batch_limit",
    "memory_bound",
    "decode_step_ms",
    "tp_fabric_latency_ms",
    "tpot_ms",
    "ttft_ms",
    "replica_tokens_per_s",
    "tokens_per_s_per_gpu",
    "replicas",
    "replicas_for_mean",
    "queue_wait_ms",
    "slot_utilisation",
    "tp_allreduce_ms",
    "gpus_needed",
    "gpus_billed",
    "monthly_cost",
    "cost_per_million_tokens",
    "fabric_cost_per_month",
    "cash_cost_per_month",
    "cash_cost_per_million_tokens",
    "reserved_gpus",
    "burst_gpu_hours",
    "sla_credit_per_month",
    "sla_headline_credit_per_month",
    "monthly_bills",
    "gpus_at_peak_by_month",
    "reserved_by_month",
    *MONTH_FIGURES[3:],
)


def _fabric_part_ms(grid, i: int, t: int, k: int) -> float:
    """The scale-out fabric's share of one decode step at the chosen batch: nil unless the replica spans NVLink
    domains (the rest of the all-reduce time stays inside NVLink)."""
    return float(grid.fabric_comm_s[i, t, k]) * 1000


def _figures(grid, plan, w: ServingScalars, i: int) -> dict:
    t, k = int(plan.tp_index[i]), int(plan.batch_index[i])
    at = (i, t, k)
    tp = w.tp_choices[t]
    fabric = float(plan.fabric_cost_per_month[i])
    return {
        "tensor_parallel": tp,
        "batch": k + 1,
        "batch_limit": _batch_limit(grid, w, i, t, k),
        "memory_bound": bool(grid.weights_read_s[at] >= grid.compute_s[at]),
        "decode_step_ms": float(grid.step_s[at]) * 1000,
        "tp_fabric_latency_ms": _fabric_part_ms(grid, i, t, k),
        "tp_allreduce_ms": float(grid.comm_s[at]) * 1000,
        "tpot_ms": float(grid.tpot_s[at]) * 1000,
        "ttft_ms": float(grid.ttft_s[at]) * 1000,
        "replica_tokens_per_s": float(plan.replica_tokens_per_s[i]),
        "tokens_per_s_per_gpu": float(plan.replica_tokens_per_s[i]) / tp,
        "replicas": int(plan.replicas[i]),
        "replicas_for_mean": int(plan.replicas_for_mean[i]),
        "queue_wait_ms": float(plan.queue_wait_s[i]) * 1000,
        "slot_utilisation": float(plan.slot_utilisation[i]),
        "gpus_needed": int(plan.gpus_needed[i]),
        "gpus_billed": int(plan.gpus_billed[i]),
        "monthly_cost": float(plan.monthly_cost[i]),
        "cost_per_million_tokens": float(plan.cost_per_million_tokens[i]),
        "fabric_cost_per_month": None if math.isnan(fabric) else fabric,
        "cash_cost_per_month": float(plan.cash_cost_per_month[i]),
        "cash_cost_per_million_tokens": float(plan.cash_cost_per_month[i])
        / (w.average_output_tokens_s * SECONDS_PER_MONTH)
        * 1e6,
        "reserved_gpus": int(plan.reserved_gpus[i]),
        "burst_gpu_hours": float(plan.burst_gpu_hours[i]),
        "sla_credit_per_month": float(plan.sla_credit_per_month[i]),
        "sla_headline_credit_per_month": float(plan.sla_headline_credit_per_month[i]),
        **term_figures(plan, i, tp),
    }
