"""Run the training cost model over an evaluation's bids and package one result per bid."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import Catalog, default_catalog
from clusterbid.core.costmodel.bid_rows import same_workload
from clusterbid.core.costmodel.calibration import calibrate
from clusterbid.core.costmodel.contract_findings import ScheduleDates, contract_findings, schedule
from clusterbid.core.costmodel.gates import Finding, evaluate_gates, evaluate_warnings
from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars, build_bid_arrays
from clusterbid.core.costmodel.scaling import ScalingCurve, scaling_curves
from clusterbid.core.costmodel.schedule_range import scheduled
from clusterbid.core.costmodel.training import finish, goodput, step_breakdown
from clusterbid.core.costmodel.workload_fit import serving_grade_finding
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.workload import Workload


@dataclass(frozen=True, slots=True)
class BidEstimate:
    """What the model says about one bid for the buyer's job, with the inputs it used."""

    bid: Bid
    gates: tuple[Finding, ...]
    warnings: tuple[Finding, ...]
    calibration_notes: tuple[str, ...]
    busbw_evidence: Evidence | None
    efficiency_evidence: Evidence | None
    price_per_gpu_hour: float  # evaluation currency
    exchange_rate: float
    peak_tflops: float
    baseline_mfu: float
    spec_baseline_mfu: float  # the workload's figure carried to this GPU, before any evidence
    spec_node_busbw_gb_s: float
    node_busbw_gb_s: float
    dp_busbw_gb_s: float
    step_latency_us: float
    compute_s: float
    bubble_fraction: float
    dp_comm_s: float
    exposed_comm_s: float
    tp_comm_s: float
    pp_comm_s: float
    gather_comm_s: float
    moe_comm_s: float
    step_s: float
    effective_mfu: float
    scaling_efficiency: float
    failures_per_hour: float
    hours_lost_per_failure: float
    spare_on_hand: bool
    restart_hours: float  # per failure: the workload's restart and reading the checkpoint back
    replacement_wait_hours: float  # wall-clock hours of the run spent waiting for failed nodes
    replacement_wait_cost: float  # those hours on the job's GPUs at the bid's price
    checkpoint_write_s: float
    checkpoint_interval_s: float
    goodput: float
    run_hours: float
    wall_hours: float
    usage_hours: float  # hours billed per job GPU (rounded up, minimums)
    job_cost: float  # the cost of the planned job: its GPU-hours and fees while it runs
    commitment: float  # the total the contract commits the buyer to: what the signature approves
    capacity_gpu_hours: float  # GPU-hours the commitment pays for
    used_gpu_hours: float
    idle_gpu_hours: float
    idle_value: float
    exit_cost: float  # inf where the contract has no early exit
    leaves_early: bool
    plan_cost: float  # net cost of the buyer's compute plan: ranks the bids
    jobs_in_commitment: float
    outlasts_term: bool
    cost_if_plan_fails: float  # net cost if idle reserved time is worth nothing (issue 31)
    delay_cost: float  # the buyer's cost of finishing past the deadline, in plan_cost (issue 31)
    cash_cost: float  # the cost of cash of the payment terms, in plan_cost (payment_terms.py)
    late_remedy: float  # issue 39: owed for a late block, off plan_cost (0 at the stated dates)
    sla_credit: float  # issue 39: the SLA credit expected to be collected, off plan_cost
    sla_headline_credit: float  # the same breaches paid at the stated credit: shown, not counted
    effective_price_per_useful_gpu_hour: float
    scaling: ScalingCurve
    dates: ScheduleDates
    interleave: int = 1  # the depth the model ran: the workload's, or the best one when unstated
    micro_batch: int = 1  # the micro-batch the model ran, likewise (schedule_range)

    @property
    def passes_gates(self) -> bool:
        return not self.gates


@dataclass(frozen=True, slots=True)
class TrainingEstimates:
    workload: Workload
    bids: tuple[BidEstimate, ...]


def estimate_training(
    workload: Workload,
    bids: list[Bid] | tuple[Bid, ...],
    rates: list[float] | None = None,
    catalog: Catalog | None = None,
) -> TrainingEstimates:
    """Score every bid for the workload with the one shared model (vectorised over bids)."""
    catalog = catalog or default_catalog()
    bids = list(bids)
    if (
        not bids
    ):  # a new evaluation before its first bid: nothing to estimate (numpy cannot reduce nothing)
        return TrainingEstimates(workload, ())
    rates = rates or [1.0] * len(bids)
    # An edit that leaves the workload, every bid and its rate as they were (the weights, a
    # must-have, a rating) gets the estimates already made: 50 ms CPU at 500 bids (issue 32).
    key = (workload, tuple(bids), tuple(rates), catalog)
    kept = _LAST.get("kept")
    if kept is not None and _same_inputs(kept[0], key):
        return kept[1]
    run = scheduled(workload, bids)  # unstated schedule knobs: the best the layout allows
    # The scaling curves share a grid of GPU counts up to the largest block of all the bids.
    largest = max(b.capacity.largest_contiguous_block_gpus for b in bids)
    estimates = _estimate_reusing(workload, (run, largest), bids, rates, catalog, kept)
    _LAST["kept"] = (key, estimates, (run, largest))
    return estimates


# The last estimates made, with their inputs and the schedule the model ran: bids, workloads and
# catalogs are frozen models.
_LAST: dict[str, tuple[tuple, TrainingEstimates, tuple[Workload, int]]] = {}


def _estimate_reusing(
    workload: Workload,
    shared: tuple[Workload, int],
    bids: list[Bid],
    rates: list[float],
    catalog: Catalog,
    kept: tuple[tuple, TrainingEstimates, tuple[Workload, int]] | None,
) -> TrainingEstimates:
    """The estimates of the bids kept from the last call (the same bid object at the same rate,
    the same workload, catalog and what all the bids share: the schedule and the scaling grid)
    as they were; only the other bids go through the model, which is elementwise over bids once
    those are fixed, so an edit to one bid re-runs one bid (issue 32 item 1)."""
    run, largest = shared
    previous: dict[int, tuple[BidEstimate, float]] = {}
    if (
        kept is not None
        and kept[0][3] is catalog
        and same_workload(kept[0][0], workload)
        and same_workload(kept[2][0], run)
        and kept[2][1] == largest
    ):
        previous = {id(e.bid): (e, r) for e, r in zip(kept[1].bids, kept[0][2], strict=True)}

    def kept_estimate(bid: Bid, rate: float) -> BidEstimate | None:
        found = previous.get(id(bid))
        return found[0] if found is not None and found[0].bid is bid and found[1] == rate else None

    made = [kept_estimate(bid, rate) for bid, rate in zip(bids, rates, strict=True)]
    fresh = [i for i, estimate in enumerate(made) if estimate is None]
    if len(fresh) == len(bids):
        return _estimate(workload, bids, rates, catalog, run, largest)
    if fresh:
        new = _estimate(
            workload, [bids[i] for i in fresh], [rates[i] for i in fresh], catalog, run, largest
        ).bids
        for i, estimate in zip(fresh, new, strict=True):
            made[i] = estimate
    return TrainingEstimates(workload, tuple(e for e in made if e is not None))


def _same_inputs(kept: tuple, key: tuple) -> bool:
    return (
        kept[3] is key[3]
        and kept[2] == key[2]
        and len(kept[1]) == len(key[1])
        and all(a is b for a, b in zip(kept[1], key[1], strict=True))
        and same_workload(kept[0], key[0])
    )


def _estimate(
    workload: Workload,
    bids: list[Bid],
    rates: list[float],
    catalog: Catalog,
    run: Workload,
    largest_block: int,
) -> TrainingEstimates:
    w = WorkloadScalars.from_workload(run)
    spec = build_bid_arrays(run, bids, catalog, rates)
    arrays, calibration = calibrate(w, spec, bids, run)
    step = step_breakdown(w, arrays, w.job_gpus)
    good = goodput(w, arrays, w.job_gpus)
    done = finish(w, arrays, step, good)
    fabric_names = [catalog.fabric(b.fabric.technology).name for b in bids]
    gates = evaluate_gates(w, arrays, fabric_names)
    warnings = evaluate_warnings(w, arrays, [b.fabric.gpudirect_rdma for b in bids])
    for found, bid in zip(warnings, bids, strict=True):
        found.extend(f for f in [serving_grade_finding(bid, catalog, workload.job_gpus)] if f)
    curves = scaling_curves(w, arrays, largest_block)
    columns = _columns(len(bids), arrays, spec, step, good, done)
    results = []
    for i, bid in enumerate(bids):
        figures = {name: values[i] for name, values in columns.items()}
        dates = schedule(workload.plan, bid, figures["wall_hours"], workload.job_gpus)
        contract_gates, contract_warnings = contract_findings(workload, bid, figures, dates)
        gates[i].extend(contract_gates)
        warnings[i].extend(contract_warnings)
        results.append(
            BidEstimate(
                bid=bid,
                gates=tuple(gates[i]),
                warnings=tuple(warnings[i]),
                calibration_notes=tuple(calibration.notes[i]),
                busbw_evidence=calibration.busbw[i],
                efficiency_evidence=calibration.efficiency[i],
                exchange_rate=rates[i],
                scaling=curves[i],
                dates=dates,
                interleave=run.virtual_pipeline_stages,
                micro_batch=run.micro_batch_size,
                **figures,
            )
        )
    return TrainingEstimates(workload, tuple(results))


CONTRACT_FIGURES = (
    "usage_hours",
    "job_cost",
    "commitment",
    "capacity_gpu_hours",
    "used_gpu_hours",
    "idle_gpu_hours",
    "idle_value",
    "exit_cost",
    "leaves_early",
    "plan_cost",
    "jobs_in_commitment",
    "outlasts_term",
    "cost_if_plan_fails",
    "delay_cost",
    "cash_cost",
    "late_remedy",
    "sla_credit",
    "sla_headline_credit",
)


def _columns(count: int, a: BidArrays, spec: BidArrays, step, good, done) -> dict[str, list]:
    """Each reported figure as a plain list over bids; workload-only terms (the bubble) are
    scalars and are repeated."""
    raw = {
        "price_per_gpu_hour": a.price_per_gpu_hour,
        "peak_tflops": a.peak_flops / 1e12,
        "baseline_mfu": a.baseline_mfu,
        "spec_baseline_mfu": spec.baseline_mfu,
        "spec_node_busbw_gb_s": spec.node_busbw_gb_s,
        "node_busbw_gb_s": a.node_busbw_gb_s,
        "dp_busbw_gb_s": step.dp_busbw_gb_s,
        "step_latency_us": a.step_latency_s * 1e6,
        "compute_s": step.compute_s,
        "bubble_fraction": step.bubble_fraction,
        "dp_comm_s": step.dp_comm_s,
        "exposed_comm_s": step.exposed_comm_s,
        "tp_comm_s": step.tp_comm_s,
        "pp_comm_s": step.pp_comm_s,
        "gather_comm_s": step.gather_comm_s,
        "moe_comm_s": step.moe_comm_s,
        "step_s": step.step_s,
        "effective_mfu": step.effective_mfu,
        "scaling_efficiency": step.effective_mfu / a.baseline_mfu,
        "failures_per_hour": good.failures_per_hour,
        "hours_lost_per_failure": good.hours_lost_per_failure,
        "spare_on_hand": good.spare_on_hand,
        "restart_hours": good.restart_hours,
        "replacement_wait_hours": done.run_hours * good.wait_share,
        "replacement_wait_cost": done.run_hours
        * good.wait_share
        * step.n_gpus
        * a.price_per_gpu_hour,
        "checkpoint_write_s": good.checkpoint_write_s,
        "checkpoint_interval_s": good.checkpoint_interval_s,
        "goodput": good.goodput,
        "run_hours": done.run_hours,
        "wall_hours": done.wall_hours,
        "effective_price_per_useful_gpu_hour": done.effective_price_per_useful_gpu_hour,
        **{name: getattr(done.contract, name) for name in CONTRACT_FIGURES},
    }
    return {name: np.broadcast_to(values, (count,)).tolist() for name, values in raw.items()}
