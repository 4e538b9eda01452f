"""Serving benchmark formats beyond the engines' own reports (issue 37), and the spread of a run's
request lengths where a file lists them.

- MLPerf Inference `mlperf_log_summary.txt` (LoadGen, v4.0 onward for LLMs): "Scenario :",
  "Tokens per second:" (Server: "Completed tokens per second:"), "Samples per second:" (likewise),
  "Result is :", and a Server run's "Mean Time to Output Token (ns)" and "Mean First Token latency
  (ns)". Its tokens/s are the whole system's: the officer gives the replica's GPUs and the
  system's GPUs; an Offline summary states no time per output token, so the batch per replica
  comes from the submission's config (a Server run's sequences held follow by Little's law).
  Output tokens per request are tokens/s over samples/s; the prompt length is not in the file.
- GenAI-Perf `profile_export_genai_perf.csv`: rows "Metric,avg,min,max,p99,..." with
  "Time To First Token (ms)", "Inter Token Latency (ms)", "Input Sequence Length (tokens)",
  "Output Sequence Length (tokens)", then "Metric,Value" rows with "Output Token Throughput
  (per sec)" (older versions: "(tokens/sec)").
- LLMPerf (ray-project/llmperf `token_benchmark_ray.py`) `<name>_summary.json`: one flat object
  (its results nested under `results_`, joined by `_`): `results_mean_output_throughput_token_per_s`
  (output tokens over the test's wall time, all concurrent requests), `results_ttft_s_mean`,
  `results_end_to_end_latency_s_mean`, `results_number_input_tokens_mean` / `_stddev`,
  `results_number_output_tokens_mean` / `_stddev`, `results_num_completed_requests`,
  `num_concurrent_requests`, `model`. Its `inter_token_latency` counts the first token in, so
  the time per output token is worked out as (end-to-end - first token) / (output tokens - 1),
  from the means (a ratio of means, close to the mean of ratios when lengths vary little).
"""

from __future__ import annotations

import csv
import io
import math
import re
import statistics
from typing import cast

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.serving_run import ServingRun, positive_number

MLPERF_MARK = "MLPerf Results Summary"
# A Server summary says "Completed tokens per second" and, under Additional Stats, the mean time
# per output token and to the first token in ns (LoadGen v4.1; Offline summaries state neither).
MLPERF_TPOT, MLPERF_TTFT = "Mean Time to Output Token (ns)", "Mean First Token latency (ns)"
_MLPERF_LABELS = {
    label.lower(): label
    for label in (
        "Scenario",
        "Tokens per second",
        "Samples per second",
        "Result is",
        MLPERF_TPOT,
        MLPERF_TTFT,
    )
}
_MLPERF_LINE = re.compile(
    r"\s*(?:Completed\s+)?("
    + "|".join(re.escape(label) for label in _MLPERF_LABELS)
    + r")\s*:\s*(\S+)",
    re.IGNORECASE,
)
GENAI_PERF_CSV_MARK = "Inter Token Latency"


def length_spread(input_lens: object, output_lens: object) -> float | None:
    """Standard deviation / mean of each request's mean decode context (prompt + output / 2), the
    spread the serving model sizes the KV cache with; None when the file lists no lengths."""
    if not isinstance(input_lens, list) or not isinstance(output_lens, list):
        return None
    pairs = [
        (i, o)
        for i, o in zip(input_lens, output_lens)
        if isinstance(i, (int, float))
        and isinstance(o, (int, float))
        and not isinstance(i, bool)
        and i >= 0
        and o >= 0
    ]
    if len(pairs) < 2:
        return None
    contexts = [i + o / 2.0 for i, o in pairs]
    mean = statistics.fmean(contexts)
    return min(statistics.pstdev(contexts) / mean, 10.0) if mean > 0 else None


def _mlperf_summary(text: str, source: str) -> ServingRun:
    found: dict[str, tuple[str, int]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        match = _MLPERF_LINE.match(line)
        if match:
            found.setdefault(_MLPERF_LABELS[match.group(1).lower()], (match.group(2), lineno))
    if "Tokens per second" not in found:
        raise EvidenceParseError(
            source, None, "MLPerf summary without 'Tokens per second:': not an LLM result"
        )
    if found.get("Result is", ("VALID",))[0] != "VALID":
        value, lineno = found["Result is"]
        raise EvidenceParseError(
            source,
            lineno,
            f"the MLPerf run is {value}, not VALID: a result MLPerf rejects is not evidence",
        )

    def figure(label: str) -> float:
        value, lineno = found[label]
        try:
            number = float(value)
        except ValueError:
            raise EvidenceParseError(
                source, lineno, f"{label}: expected a number, found {value[:40]!r}"
            ) from None
        return cast(float, positive_number(number, label, source, lineno))

    tokens = figure("Tokens per second")
    per_request = tokens / figure("Samples per second") if "Samples per second" in found else None
    scenario = found.get("Scenario", ("",))[0]

    def milliseconds(label: str) -> float | None:
        return figure(label) / 1e6 if label in found else None

    return ServingRun(
        engine=f"MLPerf Inference {scenario}".strip(),
        output_tokens_per_s=tokens,
        tpot_ms=milliseconds(MLPERF_TPOT),
        prompt_tokens=None,
        output_tokens=per_request,
        ttft_ms=milliseconds(MLPERF_TTFT),
        tensor_parallel=None,
        whole_system=True,
        engine_stated=False,
    )


def _genai_perf_csv(text: str, source: str) -> ServingRun:
    """Averages of the first table and the throughput of the second, by row label."""
    figures: dict[str, float] = {}
    for lineno, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if len(row) < 2 or row[0].strip() == "Metric":
            continue
        label = row[0].strip().lower()
        try:
            value = float(row[1].replace(",", ""))
        except ValueError:
            raise EvidenceParseError(
                source, lineno, f"{row[0][:60]}: expected a number, found {row[1][:40]!r}"
            ) from None
        figures[label] = cast(float, positive_number(value, row[0][:60], source, lineno))

    def first(*prefixes: str, required: bool = True) -> float | None:
        for label, value in figures.items():
            if label.startswith(prefixes):
                return value
        if required:
            raise EvidenceParseError(
                source, None, f"GenAI-Perf CSV lacks a row starting {prefixes[0]!r}"
            )
        return None

    return ServingRun(
        engine="GenAI-Perf",
        engine_stated=False,  # a load generator: it names no serving engine
        output_tokens_per_s=first("output token throughput"),  # type: ignore[arg-type]
        tpot_ms=first("inter token latency"),
        prompt_tokens=first("input sequence length", required=False),
        output_tokens=first("output sequence length", required=False),
        ttft_ms=first("time to first token", required=False),
        tensor_parallel=None,
    )


def other_format(text: str, source: str) -> ServingRun | None:
    """The run, when the text is one of this module's formats; None to let the engines' readers try."""
    if MLPERF_MARK in text[:2000]:
        return _mlperf_summary(text, source)
    head = text[:200]
    if head.startswith("Metric,") and GENAI_PERF_CSV_MARK in text:
        return _genai_perf_csv(text, source)
    return None


LLMPERF_MARK = "results_mean_output_throughput_token_per_s"


def _optional(data: dict[str, object], key: str) -> float | None:
    """A figure the summary may leave out or write as NaN (pandas' stddev of one request)."""
    value = data.get(key)
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not math.isfinite(value)
        or value < 0
    ):
        return None
    return float(value)


def llmperf_summary(data: dict[str, object], source: str) -> ServingRun:
    """An LLMPerf summary JSON (see the module's notes for the fields read)."""

    def need(key: str) -> float:
        return cast(float, positive_number(data.get(key), key, source))

    need("results_num_completed_requests")  # a run where nothing completed measured nothing
    output = need("results_number_output_tokens_mean")
    if output <= 1:
        raise EvidenceParseError(
            source,
            None,
            "results_number_output_tokens_mean is 1 or less: a time per output "
            "token needs requests of two tokens or more",
        )
    ttft = need("results_ttft_s_mean")
    decode = need("results_end_to_end_latency_s_mean") - ttft
    if decode <= 0:
        raise EvidenceParseError(
            source,
            None,
            "results_end_to_end_latency_s_mean is not above results_ttft_s_mean: "
            "the requests spent no time decoding",
        )
    prompt = _optional(data, "results_number_input_tokens_mean") or _optional(
        data, "mean_input_tokens"
    )
    spread_in = _optional(data, "results_number_input_tokens_stddev")
    spread_out = _optional(data, "results_number_output_tokens_stddev")
    cv = None
    if prompt and spread_in is not None and spread_out is not None:
        # Prompt and output lengths drawn independently (LLMPerf samples each from its own normal).
        cv = min(math.hypot(spread_in, spread_out / 2.0) / (prompt + output / 2.0), 10.0)
    return ServingRun(
        engine="LLMPerf",
        engine_stated=False,  # a load generator: it names no serving engine
        output_tokens_per_s=need(LLMPERF_MARK),
        tpot_ms=decode / (output - 1) * 1000.0,
        prompt_tokens=prompt,
        output_tokens=output,
        ttft_ms=ttft * 1000.0,
        tensor_parallel=None,
        context_cv=cv,
    )
