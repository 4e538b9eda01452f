"""The acceptance tests of the nodes and the run: DCGM diagnostics, the burn-in soak held to the
stated failure rate, a node replacement timed against the stated hours, the reference training
step time at the workload's layout, and the handover date."""

from __future__ import annotations

from clusterbid.core.acceptance.model import NOT_STATED, AcceptanceTest
from clusterbid.core.acceptance.thresholds import (
    MIN_SOAK_HOURS,
    allowed_failures,
    share_for,
    share_words,
)
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.evidence.formats import formats_measuring
from clusterbid.core.evidence.model import GRADE_WORDS
from clusterbid.core.evidence_request.recipe import RECIPE, training_runs
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.workload import Workload

# dcgmi diag run levels (NVIDIA DCGM user guide): 1 quick checks, 2 medium, 3 long (targeted
# stress, memory bandwidth, PCIe), 4 extended. Level 3 is what providers gate "validating" on.
DCGM_LEVEL = 3


def _reliability_source(bid: Bid, name: str, unit: str) -> tuple[float, str, bool]:
    """The figure scored, in words, and whether the provider stated it (never a default as theirs)."""
    shown = float(getattr(effective_reliability(bid), name))
    source = bid.provenance.get(f"reliability.{name}")
    stated = getattr(bid.reliability, name) is not None and (source is None or source.verified)
    label = "stated by the provider" if stated else (source.label if source else "default")
    return shown, f"{shown:g}{unit}, {label}", stated


def dcgm_test() -> AcceptanceTest:
    return AcceptanceTest(
        test_id="ACC-dcgm",
        claim="healthy GPUs",
        title=f"DCGM diagnostics at level {DCGM_LEVEL} on every node",
        steps=[
            f"dcgmi diag -r {DCGM_LEVEL} on every node before the soak; return what it prints on "
            "each node, unchanged, as ACC-dcgm_<node name>.txt (one file per node), or what "
            f"dcgmi diag -r {DCGM_LEVEL} -j prints as ACC-dcgm_<node name>.json.",
            "Every NVLink and InfiniBand port reports its rated speed (ibstat, nvidia-smi nvlink "
            "-s).",
        ],
        scored_source="every GPU offered is healthy (implied by the bid)",
        unit="tests failed or warned",
        comparison="at most",
        threshold=0.0,
        threshold_basis="every test of every node reports Pass: one Fail or Warn fails the node",
        remedy=NOT_STATED,
        reads=["dcgm-diag"],
    )


def soak_test(bid: Bid) -> AcceptanceTest:
    rate, words, stated = _reliability_source(
        bid, "failures_per_1000_gpu_days", " per 1,000 GPU-days"
    )
    burn_in = float(effective_reliability(bid).burn_in_hours)
    hours = max(MIN_SOAK_HOURS, burn_in)
    gpus = bid.capacity.gpus_offered
    expected = rate / 1000.0 * gpus * hours / 24.0
    allowed = allowed_failures(expected)
    return AcceptanceTest(
        test_id="ACC-soak",
        claim="failure rate",
        title=f"Burn-in soak of {hours:g} hours on all {gpus:,} GPUs",
        steps=[
            "Run the whole-cluster nccl-tests command and a GPU stress load in turns for the soak.",
            "Record every job-interrupting GPU or node failure, and the XID, ECC and link error "
            "counters at the start and the end: they must not grow.",
            "Return the soak log as ACC-soak_log.csv (format: evidence-formats.md, 'Soak log'): "
            "its start, end and GPUs, and one row per failure or error counter that grew.",
        ],
        scored=rate,
        unit=("failure" if allowed == 1 else "failures") + " in the soak",
        scored_source=words,
        soak_hours=hours,
        comparison="at most",
        threshold=float(allowed),
        threshold_basis=(
            f"at {rate:g} per 1,000 GPU-days, {gpus:,} GPUs for {hours:g} hours expect "
            f"{expected:.3f} failures; {allowed} or fewer happen 95 times in 100 at that rate"
            + ("" if stated else " (the rate is not the provider's statement: agree it first)")
        ),
        remedy=NOT_STATED,
        reads=["soak-log"],
    )


def replacement_test(bid: Bid) -> AcceptanceTest:
    hours, words, stated = _reliability_source(bid, "node_replacement_hours", " hours")
    return AcceptanceTest(
        test_id="ACC-replacement",
        claim="node replacement time",
        unit="hours",
        title="A node taken out during the soak is replaced by a healthy one in the job",
        steps=[
            "Drain one node during the soak; time from the drain to a healthy replacement that "
            "passes DCGM level 3 and rejoins the whole-cluster nccl-tests run."
        ],
        scored=hours,
        scored_source=words,
        comparison="at most",
        threshold=hours,
        threshold_basis="the hours the evaluation used, which become the contract's term: no margin"
        + ("" if stated else " (not the provider's statement: agree it first)"),
        remedy=NOT_STATED,
    )


def step_time_test(workload: Workload, bid: Bid, estimate: BidEstimate) -> AcceptanceTest:
    chosen = estimate.efficiency_evidence
    grade = chosen.grade if chosen is not None else None
    share = share_for(grade)
    basis = f"{share:.0%} of the figure scored, which rests on the buyer's assumed efficiency"
    layout = (
        f"TP {workload.tensor_parallel}, PP {workload.pipeline_parallel}, CP "
        f"{workload.context_parallel}, "
        f"virtual stages {workload.virtual_pipeline_stages}, micro-batch "
        f"{workload.micro_batch_size}"
    )
    return AcceptanceTest(
        test_id="ACC-step-time",
        claim="step time at the workload's layout",
        unit="s",
        title=f"Reference training step time on the job's {workload.job_gpus:,} GPUs at {layout}",
        runs=[
            run
            for run in training_runs(
                workload,
                bid.capacity.gpus_per_node,
                workload.job_gpus,
                "ACC-step-time_throughput.csv",
            )
            if run.gpus == workload.job_gpus
        ],
        steps=_step_time_steps(workload, layout),
        scored=round(estimate.step_s, 4),
        scored_source=_step_time_source(estimate),
        comparison="at most",
        threshold=round(estimate.step_s / share, 4),
        threshold_basis=(
            f"throughput at least {share_words(grade) if chosen is not None else basis}: "
            f"step time at most {estimate.step_s:.3f} s / {share:.2f}"
        ),
        remedy=NOT_STATED,
        reads=formats_measuring("throughput"),
    )


def _step_time_source(estimate: BidEstimate) -> str:
    """Where the step time scored comes from: the evidence chosen, or the buyer's baseline."""
    chosen = estimate.efficiency_evidence
    if chosen is not None:
        return (
            f"{estimate.step_s:.3f} s per step, from {GRADE_WORDS[chosen.grade]} evidence on "
            f"{chosen.scale_gpus:,} GPUs carried to the job's size"
        )
    return (
        f"{estimate.step_s:.3f} s per step, from the workload's baseline efficiency "
        f"({estimate.baseline_mfu:.1%} MFU, the buyer's assumption) on this bid's GPUs and "
        "fabric"
    )


def _step_time_steps(workload: Workload, layout: str) -> list[str]:
    """What the provider runs and returns: the request's own recipe at the job's size."""
    return [
        f"Train '{workload.name}' at {workload.precision}, sequence "
        f"{workload.sequence_length:,}, "
        f"global batch {workload.global_batch_tokens:,} tokens, {layout}, on "
        f"{workload.job_gpus:,} GPUs; "
        f"synthetic data allowed; at least 50 optimizer steps after warm-up ({RECIPE}: the "
        "request for evidence's own command at the job's size, given above).",
        "Return one CSV row as ACC-step-time_throughput.csv in the request packs' throughput "
        "format "
        "(evidence-formats.md, 'Training throughput'), step_time_s filled in, with the "
        "num_attention_heads, vocab_size and container_image (name@sha256:<digest>) the run "
        "used: a run of another shape or in another container than pinned is not counted.",
    ]


def handover_test(bid: Bid) -> AcceptanceTest:
    day = bid.capacity.available_from
    when = day.isoformat() if day else "not stated"
    return AcceptanceTest(
        test_id="ACC-handover",
        claim="handover date",
        title="Every test above passed by the handover date",
        steps=["The acceptance certificate is dated when the last test passes."],
        scored_source=(
            f"handover {when} "
            f"({'stated by the provider' if day else 'not stated: the plan start date was used'})"
        ),
        threshold_basis=f"the certificate dated on or before {when}",
        remedy=NOT_STATED,
    )
