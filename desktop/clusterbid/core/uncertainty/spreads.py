"""How uncertain each model input is, set by the grade and scale of the evidence behind it: each
bid's inputs as the Monte Carlo draws them, from the table of spreads in spread_table.py (whose
names are importable from here too).
"""

from __future__ import annotations

import math
from dataclasses import replace

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.schedule_range import INTERLEAVE_STREAM, MICRO_BATCH_STREAM
from clusterbid.core.costmodel.stack_efficiency import (
    baseline_reach,
    baseline_sigma,
    fp8_gain_reach,
    gain_follows_stack,
)
from clusterbid.core.evidence.model import Evidence, EvidenceGrade
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.provenance.defaults import RELIABILITY_DEFAULTS
from clusterbid.core.stack_names import NOT_STATED
from clusterbid.core.uncertainty.spread_table import (  # the table's names callers import here
    FAILURE_RATE_SIGMA,
    MARKET_MFU_SIGMA,
    MAX_MFU,
    MFU_SIGMA,
    P90_Z,
    UNVERIFIED_FAILURE_RATE_FACTOR,
    Spreads,
    UncertainInput,
)
from clusterbid.core.uncertainty.streams import MARKET, STACK, WITH_STACK

__all__ = ["FAILURE_RATE_SIGMA", "MARKET_MFU_SIGMA", "MAX_MFU", "MFU_SIGMA", "Spreads"]
__all__ += ["UncertainInput", "bid_inputs", "claim_centre", "failure_rate_input"]
__all__ += ["replacement_hours_input", "schedule_source"]


def _shared(
    name: str, point: float, median: float, own: float, streams, source: str, two_piece=()
) -> UncertainInput:
    pieces = tuple((owner, down, up) for owner, down, up in two_piece if max(down, up) > 0)
    streams = tuple((owner, sigma) for owner, sigma in streams if sigma > 0)
    streams += tuple((owner, max(down, up)) for owner, down, up in pieces)
    total = math.sqrt(sum(sigma**2 for _, sigma in streams))
    return UncertainInput(name, point, median, own, total, source, None, streams, pieces)


def _with_scale(
    sigma: float, evidence: Evidence, job_gpus: int, cap: float, per_doubling: float
) -> float:
    doublings = max(math.log2(job_gpus / evidence.scale_gpus), 0.0)
    return min(math.hypot(sigma, per_doubling * doublings), max(cap, sigma))


def _evidence_backed(
    name: str, point: float, evidence: Evidence | None, table: dict, job_gpus: int, spreads: Spreads
) -> UncertainInput:
    sigma = _with_scale(
        table[evidence.grade], evidence, job_gpus, table[None], spreads.sigma_per_doubling
    )
    if evidence.lower_bound is not None:
        sigma = math.hypot(sigma, spreads.lower_bound_sigma)  # an unsaturated sweep: a wider band
    return UncertainInput(name, point, 1.0, sigma, 0.0, evidence.grade.value, evidence)


def claim_centre(claimed: float, prior: float, haircut: float) -> float:
    """Where a claim is centred: its haircut figure, never below the prior (what the model predicts
    without it); a claim below the prior is taken as stated. Issue 31: honesty never hurts."""
    if claimed <= prior:
        return claimed
    return max(prior, haircut * claimed)


def _claimed(
    silent: UncertainInput, claimed: float, prior: float, evidence: Evidence, spreads: Spreads
) -> UncertainInput:
    """A claim drawn as the same bid without evidence (`silent`, the same streams and spread),
    centred where `claim_centre` puts it."""
    centre = claim_centre(claimed, prior, spreads.claim_median[silent.name])
    return UncertainInput(
        silent.name,
        claimed,
        centre / claimed,
        silent.sigma,
        silent.shared_sigma,
        evidence.grade.value,
        evidence,
        silent.shared_streams,
        silent.two_piece,
    )


def _range_sigma(low: float, high: float) -> float:
    """Log-space sigma that puts a documented range's ends at P10 and P90."""
    return math.log(high / low) / (2 * P90_Z)


def _reliability_input(
    name: str,
    point: float,
    drawn: float,
    bid,
    field_name: str,
    low_high: tuple[float, float],
    spreads: Spreads,
) -> UncertainInput:
    """`drawn`: the figure the factor multiplies (the hours, or the downtime in % for uptime)."""
    source = bid.provenance[field_name]
    if source.verified:  # stated by the provider or measured
        label = "bid statement" if source.kind == "provider" else source.label
        return UncertainInput(name, point, 1.0, spreads.stated_reliability_sigma, 0.0, label, None)
    if source.kind != "assumption":  # nobody stated it: the cautious default, spread as a statement
        return UncertainInput(
            name, point, 1.0, spreads.stated_reliability_sigma, 0.0, source.label, None
        )
    # A buyer's assumption is the buyer's own figure: centred on it, as wide as the documented range
    # (its ends at P10 and P90). An assumption of zero hours or 100% uptime stays as set.
    low, high = low_high
    sigma = spreads.default_range_scale * _range_sigma(low, high) if drawn > 0 else 0.0
    return UncertainInput(name, point, 1.0, sigma, 0.0, source.label, None)


def _reliability_inputs(bid, spreads: Spreads) -> tuple[UncertainInput, UncertainInput]:
    """Node replacement hours and the SLA's downtime (1 - uptime), each spread by its provenance."""
    figures = effective_reliability(bid)
    swap = RELIABILITY_DEFAULTS["reliability.node_replacement_hours"]
    sla = RELIABILITY_DEFAULTS["reliability.uptime_sla_percent"]
    downtime_range = (100.0 - sla.high, 100.0 - sla.low)  # 99.9-95% uptime: 0.1-5% down
    return (
        _reliability_input(
            "replacement_hours",
            figures.node_replacement_hours,
            figures.node_replacement_hours,
            bid,
            "reliability.node_replacement_hours",
            (swap.low, swap.high),
            spreads,
        ),
        _reliability_input(
            "uptime",
            figures.uptime_sla_percent,
            100.0 - figures.uptime_sla_percent,
            bid,
            "reliability.uptime_sla_percent",
            downtime_range,
            spreads,
        ),
    )


def _drawn(
    silent: UncertainInput,
    point: float,
    evidence: Evidence | None,
    table: dict,
    job_gpus: int,
    spreads: Spreads,
) -> UncertainInput:
    """One input as drawn: the spec figure's spread without evidence, a claim's as silence's
    (centred by `claim_centre`), a measurement's by its grade and scale."""
    if evidence is None:
        return silent
    if evidence.grade is EvidenceGrade.PROVIDER_CLAIM:
        # Already drawn as silence, the widest a figure gets (issue 31): a claim missing context
        # is not drawn wider still, which would make it worse than saying nothing.
        return _claimed(silent, point, silent.point, evidence, spreads)
    drawn = _evidence_backed(silent.name, point, evidence, table, job_gpus, spreads)
    if not evidence.missing_context:
        return drawn
    wider = math.hypot(
        drawn.sigma, spreads.missing_context_sigma * math.sqrt(len(evidence.missing_context))
    )
    return replace(drawn, sigma=wider)


SCHEDULE_KNOB_WORDS = {INTERLEAVE_STREAM: "interleave", MICRO_BATCH_STREAM: "micro-batch"}


def schedule_source(doubts: tuple[tuple[str, float], ...]) -> str:
    """What the band's source adds for an assumed schedule: the unstated knobs it draws."""
    knobs = [SCHEDULE_KNOB_WORDS[name] for name, sigma in doubts if sigma > 0]
    if not knobs:
        return ""
    its = "its" if len(knobs) == 1 else "their"
    return f", with the unstated {' and '.join(knobs)} drawn across {its} feasible range"


def bid_inputs(
    estimate: BidEstimate,
    job_gpus: int,
    spreads: Spreads,
    precision: str = "bf16",
    stack: str = NOT_STATED,
    schedule_doubts: tuple[tuple[str, float], ...] = (),
    buyer_mfu: float | None = None,
) -> tuple[UncertainInput, ...]:
    """The uncertain inputs of one bid: scale-out busbw, baseline MFU, failure rate, node
    replacement time and SLA uptime (drawn through its downtime). The software stack adds two
    shared two-piece streams to the spec MFU (costmodel/stack_efficiency): the stack's reach, and
    the FP8 gain's per GPU type when the stack does not publish its own; an unstated stack's gain
    is drawn from the stack's own numbers (streams.WITH_STACK), so the two move together. An assumed pipeline
    schedule (costmodel/schedule_range) adds `schedule_doubts`: (stream, log-space sigma) of each
    unstated knob, streams common to every bid (one schedule runs whichever bid wins).
    `buyer_mfu`: the workload's baseline as MFU, from which an unstated stack's two-piece draw
    reaches the lowest and the highest published stack (stack_efficiency.baseline_reach); without
    it the range's width is drawn symmetrically."""
    bid = estimate.bid
    gpu, fabric = f"gpu:{bid.capacity.gpu_model}", f"fabric:{bid.fabric.technology}"
    total, common = (
        spreads.busbw_sigma[None],
        min(spreads.fabric_shared_busbw_sigma, spreads.busbw_sigma[None]),
    )
    spec_busbw = _shared(
        "busbw",
        estimate.spec_node_busbw_gb_s,
        1.0,
        math.sqrt(total**2 - common**2),
        [(fabric, common)],
        "spec",
    )
    busbw = _drawn(
        spec_busbw,
        estimate.node_busbw_gb_s,
        estimate.busbw_evidence,
        spreads.busbw_sigma,
        job_gpus,
        spreads,
    )
    scale = spreads.stack_spread_scale
    reach = (
        (baseline_sigma(stack),) * 2
        if buyer_mfu is None
        else baseline_reach(stack, buyer_mfu, precision)
    )
    gain = fp8_gain_reach(stack, default_catalog().gpu(bid.capacity.gpu_model), precision)
    # Unstated: the gain follows the stack's draw (a fast stack takes the high gain, as published).
    gain_owner = f"{gpu}:{precision}:fp8 gain" + (
        WITH_STACK if stack == NOT_STATED and gain_follows_stack() else ""
    )
    spec_mfu = _shared(
        "baseline_mfu",
        estimate.spec_baseline_mfu,
        1.0,
        0.0,
        [
            (MARKET, spreads.market_mfu_sigma),
            (f"{gpu}:{precision}", spreads.mfu_sigma[None]),
        ],
        "from the buyer's figure" + schedule_source(schedule_doubts),
        [
            (STACK, scale * reach[0], scale * reach[1]),
            (gain_owner, scale * gain[0], scale * gain[1]),
            # One-sided: the model already runs the fastest feasible schedule, so an unstated
            # knob can only leave the run slower (lower MFU), never faster than that.
            *((stream, sigma, 0.0) for stream, sigma in schedule_doubts),
        ],
    )
    mfu = _drawn(
        spec_mfu,
        estimate.baseline_mfu,
        estimate.efficiency_evidence,
        spreads.mfu_sigma,
        job_gpus,
        spreads,
    )
    return (busbw, mfu, failure_rate_input(bid, spreads), *_reliability_inputs(bid, spreads))


def failure_rate_input(bid, spreads: Spreads) -> UncertainInput:
    """The failure rate as drawn: a part shared by every bid on the GPU type and the provider's
    own (serving's bands draw it too, issue 37). A rate the buyer assumed is twice as uncertain;
    one nobody stated is the cautious default, drawn as a statement is."""
    source = bid.provenance["reliability.failures_per_1000_gpu_days"]
    total = spreads.failure_rate_sigma * (
        UNVERIFIED_FAILURE_RATE_FACTOR if source.kind == "assumption" else 1.0
    )
    common = min(spreads.gpu_shared_failure_sigma, total)
    return _shared(
        "failure_rate",
        effective_reliability(bid).failures_per_1000_gpu_days,
        1.0,
        math.sqrt(total**2 - common**2),
        [(f"gpu:{bid.capacity.gpu_model}", common)],
        "bid statement" if source.kind == "provider" else source.label,
    )


def replacement_hours_input(bid, spreads: Spreads) -> UncertainInput:
    """Node replacement hours as training draws them (serving's SLA credit reads them too)."""
    return _reliability_inputs(bid, spreads)[0]
