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
  "Average Input Length (tokens):", "Average Output Length (tokens):", and from its engine block
  (tensorrt_llm/bench/dataclasses/reporting.py) "Model:", "TensorRT LLM Version:" (v0.17:
  "TensorRT-LLM Version:"), "Dtype:", "Quantization:" and "KV Cache Dtype:" (see _trtllm_stated).

A run gives the replica's output tokens/s at a measured time per output token; by Little's law
the sequences decoding at once are throughput x TPOT, which is the batch the serving model is
calibrated at (core/costmodel/serving_calibration.py), so the bid's engine factor (its HBM and
compute efficiencies) is fitted at the latency the run actually reached. Turning a run read
here into evidence is serving_run_evidence.py (serving_evidence, run_findings, re-exported here).
"""

from __future__ import annotations

import json
import re

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.serving_run import ServingRun
from clusterbid.core.evidence.serving_run import positive_number as _number
from clusterbid.core.evidence.serving_run_evidence import run_findings as run_findings
from clusterbid.core.evidence.serving_run_evidence import serving_evidence as serving_evidence
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
        model_id=str(data["model_id"])[:200] if isinstance(data.get("model_id"), str) else None,
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
        engine_stated=False,  # a load generator: it names no serving engine
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
    "pp": "PP Size",
}


# trtllm-bench's Quantization / KV Cache Dtype are TensorRT-LLM QuantAlgo names, "None" when not
# quantized (then held in the Dtype). The serving model holds bf16 and fp8; float16 is counted as
# bf16 (two bytes a value, the same tensor-core peak). Others (NVFP4, INT8, W4A16_AWQ...) stay
# unstated, for the officer to give.
_FP8_ALGOS = ("FP8", "FP8_PER_CHANNEL_PER_TOKEN", "FP8_BLOCK_SCALES")
_SIXTEEN_BIT = ("bfloat16", "float16")


def _stated_words(text: str, labels: tuple[str, ...]) -> str | None:
    """The word after the first of `labels` that opens a line (`Label:` then the value)."""
    for label in labels:
        match = re.search(rf"^[ \t]*{re.escape(label)}[ \t]*:[ \t]*(\S+)", text, re.MULTILINE)
        if match:
            return match.group(1)[:200]
    return None


def _precision(algo: str | None, dtype: str | None) -> str | None:
    if algo is None:
        return None
    if algo.upper() in _FP8_ALGOS:
        return "fp8"
    unquantized = algo.lower() == "none"
    return "bf16" if unquantized and dtype is not None and dtype.lower() in _SIXTEEN_BIT else None


def _trtllm_stated(text: str) -> dict[str, str | None]:
    """What a trtllm-bench report states of its run besides the figures: model, version, and
    the weight and KV-cache precisions the serving model holds."""
    dtype = _stated_words(text, ("Dtype",))
    return {
        "model_id": _stated_words(text, ("Model", "Model Name")),
        "engine_version": _stated_words(text, ("TensorRT LLM Version", "TensorRT-LLM Version")),
        "precision": _precision(_stated_words(text, ("Quantization",)), dtype),
        "kv_cache_precision": _precision(_stated_words(text, ("KV Cache Dtype",)), dtype),
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
    stated = _trtllm_stated(text) if engine == "TensorRT-LLM" else {}
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
        pipeline_parallel=int(figure["pp"]) if "pp" in figure else None,
        model_id=stated.get("model_id"),
        engine_version=stated.get("engine_version"),
        precision=stated.get("precision"),
        kv_cache_precision=stated.get("kv_cache_precision"),
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
