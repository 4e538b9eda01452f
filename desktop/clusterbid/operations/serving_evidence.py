"""Attach a serving benchmark file to a serving bid: the one operation behind `clusterbid
serving-evidence attach` and the serving window's Attach Serving Benchmark.

The file is read and parsed first, then flagged where it reads above the model's ceiling for this
bid and workload (issue 37: flagged, never refused), and only a file that reads cleanly is kept
with the bid's new evidence, in one transaction of the open document (an audit row for the file
and one for the bid). What happened is returned in words for either door to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.evidence.model import Evidence
    from clusterbid.core.store import EvaluationDocument

MAX_BYTES = 32 * 1024 * 1024  # one run's JSON or printed report is far smaller


@dataclass(frozen=True)
class ServingRunOptions:
    """What the run was, where the file does not say (the CLI's options, the app's dialog)."""

    # GPUs of the one replica the benchmark ran on; None (the app's empty field): as the file
    # says (a trtllm-bench "TP Size"), else refused asking for them (`usual_gpus` is the hint)
    gpus: int | None
    measured_by: str = "provider"  # provider, buyer or third_party
    gpu_model: str | None = None
    precision: str | None = None
    kv_cache_precision: str | None = None
    pipeline_parallel: int | None = None
    expert_parallel: int | None = None
    engine_version: str | None = None
    engine: str | None = None  # the serving engine, when the file names none
    prompt_tokens: int | None = None
    batch: int | None = None
    system_gpus: int | None = None
    # A run of another model than the service (a provider's 70B benchmark for an 8B service): the
    # calibration scales weights and matmuls by it; unstated, the run is taken as the workload's.
    model_active_params_billions: float | None = None
    # The run's model by name (resources/catalog/models.toml): its layers and KV heads carry the
    # KV cache per token too; unstated, the model the file names, if the catalog knows it.
    model: str | None = None
    # The replica the bid is priced on (the workload's TP, else the one the cost model chose for
    # the bid): the GPUs of a run whose file does not say them, when none are given.
    usual_gpus: int | None = None


ENGINE_CHARACTERS = 64  # the evidence's engine field holds this many


@dataclass(frozen=True)
class ServingReading:
    data: bytes
    run: Any  # the parsed run (core/evidence/serving_run.py)
    evidence: Evidence
    gpus_from: str | None = None  # where the GPUs came from when none were given, in words


@dataclass(frozen=True)
class AttachedServingEvidence:
    name: str  # the file's name, as kept in the document
    evidence: Evidence
    flag: str | None  # reads above the model's ceiling, in words; None when it does not
    notes: tuple[str, ...]  # what the run says about the workload's prompt, output and latency
    evaluation: Evaluation  # the document's evaluation after the attach
    request: str | None = None  # the request for evidence the file's name answers, and its state
    gpus_from: str | None = None  # where the replica's GPUs came from when none were given


def read_serving_file(path: Path, options: ServingRunOptions) -> ServingReading:
    """The file's bytes, its run and the evidence it yields; InputError naming the file and the
    problem (nothing is written)."""
    from clusterbid.core.evidence.evidence_file import size_over
    from clusterbid.core.evidence.serving_readers import read_serving_benchmark, serving_evidence
    from clusterbid.core.evidence.serving_run import RunContext
    from clusterbid.core.safe_read import read_regular

    try:
        data = read_regular(path, MAX_BYTES)  # devices and FIFOs refused before any read
        if len(data) > MAX_BYTES:
            raise InputError(
                f"{path}: {size_over(path.stat().st_size, MAX_BYTES)} is larger than the "
                f"{MAX_BYTES // 2**20} MiB limit for a serving benchmark: not one run"
            )
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(
            f"{path}: not UTF-8 text; give the benchmark's JSON or its printed report"
        ) from None
    run = read_serving_benchmark(text, str(path))
    context = RunContext(
        gpu_model=options.gpu_model,
        precision=options.precision,
        kv_cache_precision=options.kv_cache_precision,
        pipeline_parallel=options.pipeline_parallel,
        expert_parallel=options.expert_parallel,
        engine_version=options.engine_version,
        engine=_engine(path, options),
        prompt_tokens=options.prompt_tokens,
        batch=options.batch,
        system_gpus=options.system_gpus,
        model=options.model,
    )
    gpus, gpus_from = replica_gpus(path, run.tensor_parallel, options, run.pipeline_parallel)
    evidence = serving_evidence(run, gpus, options.measured_by, path.name, data, context)
    sized = _sized(path, evidence, options.model_active_params_billions)
    return ServingReading(data, run, sized, gpus_from)


def _engine(path: Path, options: ServingRunOptions) -> str | None:
    """The engine the officer gives for a file that names none: blank is none, a name over 64
    characters is refused in words (a tester saw a long name cut silently)."""
    given = " ".join((options.engine or "").split())
    if len(given) > ENGINE_CHARACTERS:
        raise InputError(
            f"{path}: the serving engine's name is {len(given):,} characters; give at most "
            f"{ENGINE_CHARACTERS} (--engine)"
        )
    return given or None


def replica_gpus(
    path: Path, stated: int | None, options: ServingRunOptions, stated_stages: int | None = None
) -> tuple[int, str | None]:
    """(the GPUs of the run's replica, where they came from in words when none were given): the
    officer's, else the file's TP Size; InputError asking for them when neither says. Never the
    replica the bid is priced on: that guess made a run on another replica look carried nowhere
    and drew it as tightly as a stated one (review); it is only offered as a hint."""
    if options.gpus is not None:
        return options.gpus, None
    if stated is not None:
        stages = options.pipeline_parallel or stated_stages or 1
        return stated * stages, (
            f"{stated * stages:,} GPU(s) per replica, as the file's TP Size says"
            + (f" x its {stages} pipeline stages" if stages > 1 else "")
        )
    hint = (
        f" (the bid is priced on {options.usual_gpus:,} GPU(s) per replica: type that if the run "
        "used the same)"
        if options.usual_gpus is not None
        else ""
    )
    raise InputError(
        f"{path}: the file does not say how many GPUs one replica ran on: give them{hint}"
    )


def _sized(path: Path, evidence: Evidence, size: float | None) -> Evidence:
    """The evidence with the model size the officer gave (`--model-billions`), refused when out
    of range or at odds with the model the run names."""
    if size is None:
        return evidence
    if not 0 < size <= 100_000:
        raise InputError(
            f"{path}: the run's model size must be above 0 and at most 100,000 billion "
            f"active parameters, not {size:g}"
        )
    named = evidence.model_active_params_billions
    if named is not None and not 0.95 <= size / named <= 1.05:
        raise InputError(
            f"{path}: the run's model is named {evidence.model_name} ({named:g} billion "
            f"parameters), but the model size given is {size:g} billion: name the model it "
            "served or leave the size out"
        )
    return evidence.model_copy(update={"model_active_params_billions": size})


def flag_above_model(
    evaluation: Evaluation, bid_id: str, evidence: Evidence, reason: str | None
) -> tuple[Evidence, str | None]:
    """(the evidence, with its flag and the officer's reason where it reads above the model's
    ceiling for this bid and workload; the flag in words or None). Issue 37: never refused."""
    from clusterbid.core.catalog import default_catalog
    from clusterbid.core.costmodel.serving_flagged import ceiling_flag
    from clusterbid.core.evidence.model import Evidence
    from clusterbid.core.serving_workload import InferenceWorkload

    bid = next((b for b in evaluation.bids if b.id == bid_id), None)
    if bid is None or not isinstance(evaluation.workload, InferenceWorkload):
        return (
            evidence,
            None,
        )  # the store names a missing bid; training documents have no ceiling here
    flag = ceiling_flag(evaluation.workload, bid, evidence, default_catalog())
    if flag is None:
        return evidence, None
    changes = {"suspect": flag[:1000], "suspect_override": reason[:500] if reason else None}
    return Evidence.model_validate(evidence.model_dump() | changes), flag


def attach_serving_evidence(
    document: EvaluationDocument,
    bid_id: str,
    path: Path,
    options: ServingRunOptions,
    *,
    use_above_model: str | None = None,
) -> AttachedServingEvidence:
    """Parse `path`, then keep it with bid `bid_id`'s new evidence in `document` (open, as the CLI
    opens it or as the window holds it). InputError, with nothing written, when the file cannot
    be read as a serving benchmark or the document refuses it (an unknown bid, a file already
    attached)."""
    from clusterbid.core.evidence.serving_readers import run_findings
    from clusterbid.core.serving_workload import InferenceWorkload

    path = Path(path)
    reading = read_serving_file(path, options)
    evidence, flag = flag_above_model(
        document.evaluation, bid_id, reading.evidence, use_above_model
    )
    media_type = "application/json" if reading.data.lstrip().startswith(b"{") else "text/plain"
    evaluation = document.attach_evidence(
        bid_id, path.name, reading.data, [evidence], media_type=media_type
    )
    notes: tuple[str, ...] = ()
    w = evaluation.workload
    if isinstance(w, InferenceWorkload):
        notes = tuple(run_findings(reading.run, w.prompt_tokens, w.output_tokens, w.tpot_target_ms))
    if evidence.engine and not reading.run.engine_stated:  # said back, as the GPUs are
        notes = (f"engine {evidence.engine}, as you gave it (the file names none)", *notes)
    elif evidence.engine_version and not evidence.engine:  # a lone version is kept, not matched
        notes = (
            f"engine version {evidence.engine_version} kept, but the file names no engine: give "
            "the engine too for the version to count (--engine)",
            *notes,
        )
    from clusterbid.core.evidence_request.status import match_file

    request = match_file(document, bid_id, path.name)  # a file named after a request answers it
    return AttachedServingEvidence(
        path.name, evidence, flag, notes, evaluation, request, reading.gpus_from
    )


def flag_decision(attached: AttachedServingEvidence, unused: str) -> str:
    """The decision on a flagged figure, in words the CLI and the app share: used for the reason
    recorded; never used when no engine factor can reproduce it, whatever the reason (a tester saw
    "Decision: used" printed for a figure the score then said was not used); else `unused`, the
    caller's words for how to record a reason."""
    from clusterbid.core.costmodel.serving_calibration import UNREPRODUCIBLE

    if attached.flag and UNREPRODUCIBLE in attached.flag:
        return "not used: no engine factor can reproduce it, so no reason can make it count"
    reason = attached.evidence.suspect_override
    return f"used, for the reason recorded: {reason}" if reason else unused
