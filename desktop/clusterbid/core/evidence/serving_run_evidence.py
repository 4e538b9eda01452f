"""A serving benchmark run as evidence: one replica's output tokens/s and batch (Little's law, or
the batch the officer read in the run's config), graded by who ran it, and where the run differs
from the service being bought, in words.

Apart from serving_readers.py (which reads each engine's output into a ServingRun) because this
judges a run already read: the CLI's and the app's attach call it with the officer's context."""

from __future__ import annotations

import hashlib

from pydantic import ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.evidence.serving_models import ModelShape, find_model, model_named
from clusterbid.core.evidence.serving_run import RunContext, ServingRun

# The most sequences one replica's evidence may hold (the Evidence model's batch_size bound).
MAX_SEQUENCES = 65_536


def _replica_figures(
    run: ServingRun, scale_gpus: int, context: RunContext, name: str
) -> tuple[float, int]:
    """(one replica's output tokens/s, the sequences it ran at once): Little's law where the run
    gives a time per output token, else the batch the officer read in the run's config."""
    tokens = run.output_tokens_per_s
    if run.whole_system:
        system = context.system_gpus
        if system is None or system % scale_gpus:
            raise EvidenceParseError(
                name,
                None,
                f"{run.engine} states the tokens/s of the whole system: give the "
                f"GPUs it ran on (--system-gpus), a multiple of the {scale_gpus} of one replica",
            )
        tokens = tokens * scale_gpus / system
    if run.tpot_ms is not None:
        # Sequences held at once (Little's law on one replica's tokens/s): under latency limits
        # (an MLPerf Server run) this is fewer than the engine's configured batch, which is only
        # its cap; the step the run measured is that of the sequences it held.
        held = tokens * run.tpot_ms / 1000.0
        if held > MAX_SEQUENCES:  # refused in words, never clamped to a figure nobody gave
            raise EvidenceParseError(
                name,
                None,
                f"{_rate(tokens)} output tokens/s at {run.tpot_ms:g} ms per output token means "
                f"{held:.3g} sequences at once on one replica, more than any engine runs "
                f"({MAX_SEQUENCES:,}): check the file's output throughput and time per output token",
            )
        return tokens, max(1, round(held))
    if context.batch is not None:
        return tokens, context.batch
    raise EvidenceParseError(
        name,
        None,
        f"{run.engine} states no time per output token, so the batch cannot be "
        "worked out: give the sequences one replica ran at once (--batch), from the run's "
        "config",
    )


def run_model(run: ServingRun, context: RunContext, name: str) -> ModelShape | None:
    """The run's model: the officer's (refused in words when the catalog lacks it), else the one
    the file names when the catalog knows it, else None (the run is taken as the workload's)."""
    if context.model is not None:
        try:
            return model_named(context.model, "the run's model")
        except InputError as exc:
            raise EvidenceParseError(name, None, str(exc)) from None
    return find_model(run.model_id)


def serving_evidence(
    run: ServingRun,
    scale_gpus: int,
    measured_by: str,
    artefact_name: str,
    artefact: bytes,
    context: RunContext | None = None,
) -> Evidence:
    """The run as serving evidence: a file is a raw artefact, so it is measured, by whoever ran it;
    the run's shape (lengths, precision, parallelism, engine, latency) travels with it."""
    context = context or RunContext()
    if (
        context.pipeline_parallel is not None
        and run.pipeline_parallel is not None
        and context.pipeline_parallel != run.pipeline_parallel
    ):
        raise EvidenceParseError(
            artefact_name,
            None,
            f"the report says PP Size {run.pipeline_parallel}, but the run was given "
            f"{context.pipeline_parallel} pipeline stages: leave them out or give the report's",
        )
    stages = context.pipeline_parallel or run.pipeline_parallel or 1
    if (
        context.engine is not None
        and run.engine_stated
        and context.engine.casefold() != run.engine.casefold()
    ):
        raise EvidenceParseError(
            artefact_name,
            None,
            f"the file names its engine ({run.engine}): leave the engine out, or give its "
            "version only",
        )
    # A replica is TP Size x pipeline stages (a review found a TP2 x PP2 run refused at 4 GPUs).
    if run.tensor_parallel is not None and run.tensor_parallel * stages != scale_gpus:
        raise EvidenceParseError(
            artefact_name,
            None,
            f"the report says TP Size {run.tensor_parallel}"
            + (f" with {stages} pipeline stages" if stages > 1 else "")
            + f", but the run was given as {scale_gpus} GPUs: give the GPUs of one replica"
            + (f" ({run.tensor_parallel * stages})" if stages > 1 else ""),
        )
    if measured_by not in ("buyer", "third_party", "provider"):
        raise EvidenceParseError(
            artefact_name,
            None,
            f"measured_by must be buyer, third_party or provider, not {measured_by[:40]!r}",
        )
    if not 1 <= scale_gpus <= 1_000_000:
        raise EvidenceParseError(
            artefact_name, None, f"the GPUs of one replica must be 1 to 1,000,000, not {scale_gpus}"
        )
    grade = (
        EvidenceGrade.MEASURED_PROVIDER
        if measured_by == "provider"
        else EvidenceGrade.MEASURED_INDEPENDENT
    )
    tokens_per_s, batch = _replica_figures(run, scale_gpus, context, artefact_name)
    if scale_gpus % stages:
        raise EvidenceParseError(
            artefact_name,
            None,
            f"{scale_gpus} GPUs per replica do not split into "
            f"{stages} pipeline stages: give the replica's GPUs (TP x PP)",
        )
    prompt = run.prompt_tokens or context.prompt_tokens
    model = run_model(run, context, artefact_name)
    served = f" of {model.id}" if model else ""
    lengths = ""
    if prompt and run.output_tokens:
        lengths = (
            f", {prompt:,.0f}-token prompts and {run.output_tokens:,.0f}-token outputs on average"
        )
    latency = f" at {run.tpot_ms:.1f} ms per output token" if run.tpot_ms else ""
    how = (
        "by Little's law (tokens/s x TPOT)"
        if run.tpot_ms is not None
        else "as given from the run's config"
    )
    if run.tpot_ms is not None and context.batch is not None and context.batch != batch:
        how += f"; the configured batch {context.batch:,} is the engine's cap, not what it held"
    try:
        return Evidence(
            kind=EvidenceKind.SERVING_DECODE_THROUGHPUT,
            description=(
                f"{run.engine} benchmark ({artefact_name}){served}: {_rate(tokens_per_s)} output "
                "tokens/s on "
                f"{scale_gpus} GPU(s){latency}{lengths}; {batch:,} sequences at once {how}"
            )[:2000],
            scale_gpus=scale_gpus,
            value=tokens_per_s,
            unit="tokens/s",
            grade=grade,
            batch_size=min(batch, MAX_SEQUENCES),
            measured_by=measured_by,
            artefact_name=artefact_name[:255],
            artefact_sha256=hashlib.sha256(artefact).hexdigest(),
            gpu_model=context.gpu_model,
            precision=context.precision or run.precision,
            tensor_parallel=scale_gpus // stages,
            pipeline_parallel=context.pipeline_parallel or run.pipeline_parallel,
            expert_parallel=context.expert_parallel,
            kv_cache_precision=context.kv_cache_precision or run.kv_cache_precision,
            prompt_tokens=prompt,
            output_tokens=run.output_tokens,
            context_cv=run.context_cv,
            engine=run.engine[:64] if run.engine_stated else context.engine,
            engine_version=(run.engine_version or context.engine_version),
            tpot_ms=run.tpot_ms,
            ttft_ms=run.ttft_ms,
            model_name=model.id if model else None,
            model_active_params_billions=model.active_billions if model else None,
        )
    except ValidationError as exc:  # a figure outside what evidence may hold (a 10^8-token prompt)
        # The field and pydantic's reason: its last line is a link, which a tester got alone.
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the run"
        raise EvidenceParseError(
            artefact_name, None, f"the run's {where}: {first['msg']}"[:300]
        ) from None


def _rate(tokens_per_s: float) -> str:
    """A rate as words print it: past a billion in powers of ten, never a 300-digit number."""
    return f"{tokens_per_s:,.0f}" if tokens_per_s < 1e9 else f"{tokens_per_s:.3g}"


def run_findings(
    run: ServingRun, prompt_tokens: int, output_tokens: int, tpot_target_ms: float
) -> list[str]:
    """Where the run differs from the service being bought, in words."""
    notes = []
    pairs = (
        ("prompts", run.prompt_tokens, prompt_tokens),
        ("outputs", run.output_tokens, output_tokens),
    )
    for name, measured, wanted in pairs:
        if measured is not None and not 0.75 <= measured / wanted <= 4 / 3:
            notes.append(
                f"the run's {name} average {measured:,.0f} tokens against the service's "
                f"{wanted:,}: "
                "the KV cache read per step differs, so the fitted efficiency carries over only "
                "roughly"
            )
    if run.tpot_ms is not None and run.tpot_ms > tpot_target_ms:
        notes.append(
            f"the run reached {run.tpot_ms:.1f} ms per output token, above the {tpot_target_ms:g} "
            "ms target: "
            "at the target the replica runs a smaller batch and fewer tokens/s"
        )
    return notes
