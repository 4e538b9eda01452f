"""The table of spreads the Monte Carlo draws each input with (spreads.py reads it per bid).

Every uncertain input is a log-normal multiplier on the figure the point estimate used:
`factor = median * exp(sigma * z)` with `z` standard normal. Sigmas are in log space, so 0.10
is roughly +/-10% at one standard deviation and P10-P90 spans exp(+/-1.2816 sigma). The figures
are judgements, documented in resources/methodology.md ("Uncertainty"); the reasons are here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clusterbid.core.evidence.model import Evidence, EvidenceGrade

# Log-space sigma of the scale-out bus bandwidth by the grade that set it. An independent
# nccl-tests plateau varies a few percent run to run; a provider's own run with the output
# attached can be checked but was chosen by the provider; a claim cannot be checked for the
# Avg-line, Tree/NVLS inflation or sub-1 GiB sweeps; the spec figure (NICs x rate x typical
# efficiency) says nothing about this provider's configuration (congestion control, rails, GDR).
BUSBW_SIGMA: dict[EvidenceGrade | None, float] = {
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
MFU_SIGMA: dict[EvidenceGrade | None, float] = {
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

    busbw_sigma: dict[EvidenceGrade | None, float] = field(
        default_factory=lambda: dict(BUSBW_SIGMA)
    )
    mfu_sigma: dict[EvidenceGrade | None, float] = field(default_factory=lambda: dict(MFU_SIGMA))
    market_mfu_sigma: float = MARKET_MFU_SIGMA
    claim_median: dict[str, float] = field(default_factory=lambda: dict(CLAIM_MEDIAN))
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
