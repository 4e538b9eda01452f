"""Read serving benchmark output that buyers and providers actually have, into serving evidence.

Formats (documented in resources/evidence-formats.md, "Serving benchmarks"):
- vLLM `benchmarks/benchmark_serving.py --save-result` (and `vllm bench serve`) result JSON:
  keys `output_throughput`, `mean_tpot_ms` / `median_tpot_ms`, `total_input_tokens`,
  `total_output_tokens`, `completed` (vLLM 0.4 to 0.11 write these names).
- vLLM's console summary ("Serving Benchmark Result": "Output token throughput (tok/s):",
  "Mean TPOT (ms):", "Total input tokens:", "Total generated tokens:", "Successful requests:").
- NVIDIA GenAI-Perf / AIPerf `profile_export_genai_perf.json` / `profile_export_aiperf.json`:
  metric objects `output_token_throughput`, `inter_token_latency`, `time_to_first_token`,
  `input_sequence_length`, `output_sequence_length`, each with `avg` (and `unit`).
- TensorRT-LLM `trtllm-bench throughput` report (v0.17 to 1.x): "Total Output Throughput
  (tokens/sec):", "Average time-per-output-token [TPOT] (ms):", optional "TP Size:",
  "Average Input Length (tokens):", "Average Output Length (tokens):".

A run gives the replica's output tokens/s at a measured time per output token; by Little's law
the sequences decoding at once are throughput x TPOT, which is the batch the serving model is
calibrated at (core/costmodel/serving_calibration.py), so the bid's engine factor (its HBM and
compute efficiencies) is fitted at the latency the run actually reached.
"""

from __future__ import annotations

import hashlib
import json
import re

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.evidence.serving_run import RunContext, ServingRun
from clusterbid.core.evidence.serving_run import positive_number as _number
from clusterbid.core.evidence.serving_run_readers import (
    LLMPERF_MARK,
    length_spread,
    llmperf_summary,
    other_format,
)

MAX_CHARS = 32 * 1024 * 1024  # vLLM result JSON carries per-request lists; a big run is a few MB
FORMATS = (
    "vLLM or SGLang benchmark_serving result JSON (or JSON lines) or console summary, "
    "GenAI-Perf/AIPerf "
    "profile JSON or CSV, LLMPerf summary JSON, trtllm-bench report, MLPerf Inference "
    "mlperf_log_summary.txt"
)


def _vllm_json(data: dict, source: str) -> ServingRun:
    tpot = data.get("mean_tpot_ms", data.get("median_tpot_ms"))
    completed = _number(data.get("completed"), "completed (requests)", source)
    backend = str(data.get("backend", ""))
    return ServingRun(
        engine="SGLang" if backend.startswith("sglang") else "vLLM",
        output_tokens_per_s=_number(data.get("output_throughput"), "output_throughput", source),
        tpot_ms=_number(tpot, "mean_tpot_ms", source),
        prompt_tokens=_number(data.get("total_input_tokens"), "total_input_tokens", source)
        / completed,
        output_tokens=_number(data.get("total_output_tokens"), "total_output_tokens", source)
        / completed,
        ttft_ms=_number(data.get("mean_ttft_ms"), "mean_ttft_ms", source, required=False),
        tensor_parallel=None,
        context_cv=length_spread(data.get("input_lens"), data.get("output_lens")),
    )


def _avg(data: dict, key: str, source: str, required: bool = True) -> float | None:
    metric = data.get(key)
    if metric is None and not required:
        return None
    if not isinstance(metric, dict):
        raise EvidenceParseError(
            source, None, f"{key} must be an object with an 'avg' figure (GenAI-Perf/AIPerf export)"
        )
    return _number(metric.get("avg"), f"{key}.avg", source, required=required)


def _genai_perf_json(data: dict, source: str) -> ServingRun:
    return ServingRun(
        engine="GenAI-Perf",
        output_tokens_per_s=_avg(data, "output_token_throughput", source),
        tpot_ms=_avg(data, "inter_token_latency", source),
        prompt_tokens=_avg(data, "input_sequence_length", source, required=False),
        output_tokens=_avg(data, "output_sequence_length", source, required=False),
        ttft_ms=_avg(data, "time_to_first_token", source, required=False),
        tensor_parallel=None,
    )


def _labelled(text: str, labels: dict[str, str], source: str) -> dict[str, tuple[float, int]]:
    """Figures after `label:` on their own lines, with the line they sit on."""
    found: dict[str, tuple[float, int]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        for key, label in labels.items():
            match = re.match(rf"\s*#?\s*{re.escape(label)}\s*:\s*(\S+)", line)
            if match and key not in found:
                try:
                    found[key] = (float(match.group(1).replace(",", "")), lineno)
                except ValueError:
                    problem = f"{label}: expected a number, found {match.group(1)[:40]!r}"
                    raise EvidenceParseError(source, lineno, problem) from None
    return found


VLLM_TEXT = {
    "throughput": "Output token throughput (tok/s)",
    "tpot": "Mean TPOT (ms)",
    "ttft": "Mean TTFT (ms)",
    "input": "Total input tokens",
    "output": "Total generated tokens",
    "requests": "Successful requests",
}
TRTLLM_TEXT = {
    "throughput": "Total Output Throughput (tokens/sec)",
    "tpot": "Average time-per-output-token [TPOT] (ms)",
    "ttft": "Average time-to-first-token [TTFT] (ms)",
    "input": "Average Input Length (tokens)",
    "output": "Average Output Length (tokens)",
    "tp": "TP Size",
}


def _from_text(text: str, source: str) -> ServingRun:
    if "Total Output Throughput (tokens/sec)" in text:
        engine, labels, needed = "TensorRT-LLM", TRTLLM_TEXT, ("throughput", "tpot")
    elif "Output token throughput (tok/s)" in text:
        engine, labels, needed = (
            "vLLM",
            VLLM_TEXT,
            ("throughput", "tpot", "input", "output", "requests"),
        )
    else:
        raise EvidenceParseError(
            source, None, f"not a serving benchmark this version reads; expected one of: {FORMATS}"
        )
    found = _labelled(text, labels, source)
    missing = [labels[k] for k in needed if k not in found]
    if missing:
        raise EvidenceParseError(source, None, f"{engine} report lacks: {', '.join(missing)}")
    figure = {k: _number(v, labels[k], source, line) for k, (v, line) in found.items()}
    per_request = engine == "vLLM"
    return ServingRun(
        engine=engine,
        output_tokens_per_s=figure["throughput"],
        tpot_ms=figure["tpot"],
        prompt_tokens=figure["input"] / figure["requests"] if per_request else figure.get("input"),
        output_tokens=figure["output"] / figure["requests"]
        if per_request
        else figure.get("output"),
        ttft_ms=figure.get("ttft"),
        tensor_parallel=int(figure["tp"]) if "tp" in figure else None,
    )


def read_serving_benchmark(text: str, source: str = "<benchmark>") -> ServingRun:
    """One run from any supported format; raises EvidenceParseError (never anything else)."""
    if len(text) > MAX_CHARS:
        raise EvidenceParseError(
            source,
            None,
            f"file is {len(text):,} characters (limit {MAX_CHARS:,}): not one benchmark run",
        )
    stripped = text.lstrip("\ufeff").strip()
    other = other_format(stripped, source)
    if other is not None:
        return other
    if stripped.startswith("{") and "\n{" in stripped:
        # SGLang's --output-file appends one JSON line per run: the last line is the latest run.
        stripped = stripped.rsplit("\n", 1)[1].strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise EvidenceParseError(
                source, getattr(exc, "lineno", None), f"not valid JSON ({exc})"
            ) from None
        except (
            ValueError
        ) as exc:  # an integer of more than 4,300 digits (Python's int_max_str_digits)
            raise EvidenceParseError(
                source, None, f"holds a number that is too long ({str(exc).split(';')[0]})"
            ) from None
        if "output_throughput" in data:
            return _vllm_json(data, source)
        if "output_token_throughput" in data:
            return _genai_perf_json(data, source)
        if LLMPERF_MARK in data:
            return llmperf_summary(data, source)
        raise EvidenceParseError(
            source,
            None,
            "a JSON file without output_throughput (vLLM), output_token_throughput "
            f"(GenAI-Perf/AIPerf) or {LLMPERF_MARK} (LLMPerf); expected one of: {FORMATS}",
        )
    return _from_text(stripped, source)


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
    if context.batch is not None:
        return tokens, context.batch
    if run.tpot_ms is None:
        raise EvidenceParseError(
            name,
            None,
            f"{run.engine} states no time per output token, so the batch cannot be "
            "worked out: give the sequences one replica ran at once (--batch), from the run's "
            "config",
        )
    return tokens, run.concurrent_sequences


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
    if run.tensor_parallel is not None and run.tensor_parallel != scale_gpus:
        raise EvidenceParseError(
            artefact_name,
            None,
            f"the report says TP Size {run.tensor_parallel}, but the run was "
            f"given as {scale_gpus} GPUs: give the GPUs of one replica",
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
    stages = context.pipeline_parallel or 1
    if scale_gpus % stages:
        raise EvidenceParseError(
            artefact_name,
            None,
            f"{scale_gpus} GPUs per replica do not split into "
            f"{stages} pipeline stages: give the replica's GPUs (TP x PP)",
        )
    prompt = run.prompt_tokens or context.prompt_tokens
    lengths = ""
    if prompt and run.output_tokens:
        lengths = (
            f", {prompt:,.0f}-token prompts and {run.output_tokens:,.0f}-token outputs on average"
        )
    latency = f" at {run.tpot_ms:.1f} ms per output token" if run.tpot_ms else ""
    how = (
        "by Little's law (tokens/s x TPOT)"
        if context.batch is None
        else "as given from the run's config"
    )
    try:
        return Evidence(
            kind=EvidenceKind.SERVING_DECODE_THROUGHPUT,
            description=(
                f"{run.engine} benchmark ({artefact_name}): {tokens_per_s:,.0f} output tokens/s on "
                f"{scale_gpus} GPU(s){latency}{lengths}; {batch} sequences at once {how}"
            )[:2000],
            scale_gpus=scale_gpus,
            value=tokens_per_s,
            unit="tokens/s",
            grade=grade,
            batch_size=min(batch, 65_536),
            measured_by=measured_by,
            artefact_name=artefact_name[:255],
            artefact_sha256=hashlib.sha256(artefact).hexdigest(),
            gpu_model=context.gpu_model,
            precision=context.precision,
            tensor_parallel=scale_gpus // stages,
            pipeline_parallel=context.pipeline_parallel,
            expert_parallel=context.expert_parallel,
            kv_cache_precision=context.kv_cache_precision,
            prompt_tokens=prompt,
            output_tokens=run.output_tokens,
            context_cv=run.context_cv,
            engine=run.engine[:64],
            engine_version=(run.engine_version or context.engine_version),
            tpot_ms=run.tpot_ms,
            ttft_ms=run.ttft_ms,
        )
    except ValueError as exc:  # a figure outside what evidence may hold (a 10^8-token prompt)
        raise EvidenceParseError(artefact_name, None, str(exc).splitlines()[-1][:300]) from None


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
