"""How uncertain each model input is, set by the grade and scale of the evidence behind it.

Every uncertain input is a log-normal multiplier on the figure the point estimate used:
`factor = median * exp(sigma * z)` with `z` standard normal. Sigmas are in log space, so 0.10
is roughly +/-10% at one standard deviation and P10-P90 spans exp(+/-1.2816 sigma). The figures
are judgements, documented in resources/methodology.md ("Uncertainty"); the reasons are here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.schedule_range import INTERLEAVE_STREAM, MICRO_BATCH_STREAM
from clusterbid.core.costmodel.stack_efficiency import (
    baseline_reach,
    baseline_sigma,
    fp8_gain_reach,
)
from clusterbid.core.evidence.model import Evidence, EvidenceGrade
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.provenance.defaults import RELIABILITY_DEFAULTS
from clusterbid.core.stack_names import NOT_STATED
from clusterbid.core.uncertainty.streams import MARKET, STACK

# Log-space sigma of the scale-out bus bandwidth by the grade that set it. An independent
# nccl-tests plateau varies a few percent run to run; a provider's own run with the output
# attached can be checked but was chosen by the provider; a claim cannot be checked for the
# Avg-line, Tree/NVLS inflation or sub-1 GiB sweeps; the spec figure (NICs x rate x typical
# efficiency) says nothing about this provider's configuration (congestion control, rails, GDR).
BUSBW_SIGMA = {
    EvidenceGrade.MEASURED_INDEPENDENT: 0.03,
    EvidenceGrade.MEASURED_PROVIDER: 0.05,
    EvidenceGrade.PROVIDER_CLAIM: 0.12,
    None: 0.15,
}
# A busbw from a sweep that stops below 1 GiB (Evidence.lower_bound) is the largest size's figure,
# not the plateau: the project's public 2x8 H100 TCPXO log (tests/data/nccl-tests/public) reads
# 153.76 GB/s busbw at 128 MiB and 338.82 at 8 GiB, so the shortfall can exceed 2x on a slow fabric
# and is a few percent on NVLink. The figure stays as measured (conservative: cost is over-, not
# under-stated) and the grade's log-space sigma is widened in quadrature by this much.
LOWER_BOUND_BUSBW_SIGMA = 0.20
# Baseline MFU per bid. Without evidence the bid inherits the buyer's stack figure; the part of
# that doubt that is about the buyer's own stack is shared by every such bid (MARKET_MFU_SIGMA).
MFU_SIGMA = {
    EvidenceGrade.MEASURED_INDEPENDENT: 0.05,
    EvidenceGrade.MEASURED_PROVIDER: 0.08,
    EvidenceGrade.PROVIDER_CLAIM: 0.15,
    None: 0.15,
}
# One shock common to every bid that uses the workload's baseline MFU: if the buyer's stack
# reaches less than planned inside one NVLink domain, it does so on every such bid.
MARKET_MFU_SIGMA = 0.10
# Without evidence a bid's MFU is the workload's figure times the catalog's factor for its GPU
# and precision: the doubt about that factor (MFU_SIGMA[None]) is one draw per GPU type and
# precision, shared by every bid on that GPU, never an independent draw per bid; otherwise two
# identical offers, one 3% cheaper, split the win probability almost evenly.
# The spec busbw (NICs x rate x the fabric's typical efficiency) is doubted mostly through that
# typical efficiency, which is the fabric kind's: shared by fabric technology, with a smaller
# residual per bid for the provider's own configuration (rails, congestion control, GDR).
FABRIC_SHARED_BUSBW_SIGMA = 0.12
# Failure rates: fleet-wide behaviour of a GPU generation (shared by GPU type) and the
# provider's own operation; together FAILURE_RATE_SIGMA.
GPU_SHARED_FAILURE_SIGMA = 0.4
# Claims without artefacts are best cases: the median is shifted down. Busbw: a claim near line
# rate is 5-10% above what public nccl-tests runs reach (370-390 of 400 GB/s on 8x NDR400), and a
# Tree/NVLS 2-node run overstates a ring further. MFU: claims are the best configuration, and a
# sparse-peak denominator (1,979 instead of 989 TFLOP/s on H100) doubles the figure.
# Honesty never hurts (issue 31): the haircut only takes back the part of a claim above what the
# model predicts without it (the prior), so a claim is never centred below silence, and a claim
# cannot be checked, so it is drawn exactly as the same bid without evidence is (the same shared
# streams and spread). A claim equal to the prediction gives the very draws silence gives; a claim
# below it is a statement against interest and is taken as stated.
CLAIM_MEDIAN = {"busbw": 0.90, "baseline_mfu": 0.85}
# Evidence measured far below the job size says less about the job: sigma grows in quadrature by
# this much per doubling from the measured scale to the job, capped at the no-evidence sigma.
SIGMA_PER_DOUBLING = 0.03
# Each item of context a training run does not record (GPU, precision, model size, sequence, layout,
# batch, FLOPs basis) could hide a difference the fit rule would have caught (costmodel/evidence_fit):
# its threshold, a model twice as large or small, moves an MFU about 10% (flops.WIDTH_H0), so each
# missing item adds 0.10 in quadrature to a measurement's own spread (issue 36: never silently
# matched). A measurement of the provider's missing context falls to a claim, drawn as silence.
MISSING_CONTEXT_SIGMA = 0.10
# No evidence kind exists for failure rates: the bid's figure is a statement, and published fleet
# figures (Llama 3, 16k H100: about 0.47 per 1,000 GPU-days) are single data points.
FAILURE_RATE_SIGMA = 0.5
# A figure the buyer assumed is wider still: the fleet it came from is not this provider's (issue
# 14: spread follows provenance). A figure nobody stated takes the cautious default (issue 31): its
# doubt is in the centre, so it is drawn as a statement is, never wider (a wider log-normal would
# also draw optimistic tails a silent bid did not earn).
UNVERIFIED_FAILURE_RATE_FACTOR = 2.0
# A stack beyond this share of dense peak is not credible (the calibration's cap).
MAX_MFU = 0.85
# Node replacement time and SLA uptime (issue 23): a figure the provider wrote into its bid is a
# commitment it can be held to, so its doubt is modest (a factor 1.5 at P90). A figure it did not
# state takes the documented default, the cautious end of its range (issue 31), drawn with the
# same spread as a statement around it: never centred better than an honest statement of a
# typical figure. A buyer's assumption is centred on the buyer's figure, as wide as the range
# (read as P10-P90). Uptime is drawn through its downtime, 1 - uptime, so a draw never passes 100%.
STATED_RELIABILITY_SIGMA = 0.3
P90_Z = 1.2816


@dataclass(frozen=True, slots=True)
class Spreads:
    """The whole table of spreads; tests pass a zero table to check the plumbing by hand."""

    busbw_sigma: dict = field(default_factory=lambda: dict(BUSBW_SIGMA))
    mfu_sigma: dict = field(default_factory=lambda: dict(MFU_SIGMA))
    market_mfu_sigma: float = MARKET_MFU_SIGMA
    claim_median: dict = field(default_factory=lambda: dict(CLAIM_MEDIAN))
    sigma_per_doubling: float = SIGMA_PER_DOUBLING
    failure_rate_sigma: float = FAILURE_RATE_SIGMA
    fabric_shared_busbw_sigma: float = FABRIC_SHARED_BUSBW_SIGMA
    gpu_shared_failure_sigma: float = GPU_SHARED_FAILURE_SIGMA
    stated_reliability_sigma: float = STATED_RELIABILITY_SIGMA
    default_range_scale: float = 1.0  # 0 in the zero table: a default's range adds no spread
    lower_bound_sigma: float = LOWER_BOUND_BUSBW_SIGMA
    missing_context_sigma: float = MISSING_CONTEXT_SIGMA
    stack_spread_scale: float = 1.0  # 0 in the zero table: the stack adds no spread
    term_ranges: bool = True  # False in the zero table: unwritten terms stay at their point figure

    @classmethod
    def zero(cls) -> Spreads:
        """No spread and no haircut: every sample equals the point estimate."""
        return cls(
            busbw_sigma={g: 0.0 for g in BUSBW_SIGMA},
            mfu_sigma={g: 0.0 for g in MFU_SIGMA},
            market_mfu_sigma=0.0,
            claim_median={name: 1.0 for name in CLAIM_MEDIAN},
            sigma_per_doubling=0.0,
            failure_rate_sigma=0.0,
            fabric_shared_busbw_sigma=0.0,
            gpu_shared_failure_sigma=0.0,
            stated_reliability_sigma=0.0,
            default_range_scale=0.0,
            lower_bound_sigma=0.0,
            missing_context_sigma=0.0,
            stack_spread_scale=0.0,
            term_ranges=False,
        )


@dataclass(frozen=True, slots=True)
class UncertainInput:
    """One input of one bid as the Monte Carlo draws it."""

    name: str  # "busbw", "baseline_mfu", "failure_rate", "replacement_hours", "uptime"
    point: float  # the figure the point estimate used (failure rate: per 1,000 GPU-days; uptime: %)
    median_factor: float  # < 1: a claim's haircut
    sigma: float  # log-space, this bid's own draw
    shared_sigma: float  # log-space, all draws common to other bids together
    source: str  # the evidence grade, "spec", "from the buyer's figure" or "bid statement"
    evidence: Evidence | None
    # (stream owner, log-space sigma) of each draw common to every bid with the same owner:
    # the market (the buyer's stack), a GPU type and precision, a fabric technology.
    shared_streams: tuple[tuple[str, float], ...] = ()
    # (owner, down, up) of the streams drawn in two pieces: z < 0 scaled by `down`, z > 0 by
    # `up` (the stream's sigma above is the larger); an unstated stack's reach (issue 36).
    two_piece: tuple[tuple[str, float, float], ...] = ()


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
    the FP8 gain's per GPU type when the stack does not publish its own. An assumed pipeline
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
    reach = (baseline_sigma(stack),) * 2 if buyer_mfu is None else baseline_reach(stack, buyer_mfu)
    gain = fp8_gain_reach(stack, default_catalog().gpu(bid.capacity.gpu_model), precision)
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
            (f"{gpu}:{precision}:fp8 gain", scale * gain[0], scale * gain[1]),
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
