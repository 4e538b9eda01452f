"""One serving benchmark run as read from a file, before it becomes evidence (issue 37: a run
carries its own shape, so the calibration can solve the engine factor where it was measured)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from clusterbid.core.evidence.errors import EvidenceParseError


@dataclass(frozen=True, slots=True)
class ServingRun:
    engine: str  # "vLLM", "GenAI-Perf", "TensorRT-LLM": what ran, as the evidence's words say it
    output_tokens_per_s: float  # of the whole replica (all its GPUs)
    tpot_ms: float | None  # mean time per output token (first token excluded); None: not stated
    prompt_tokens: float | None  # mean per request
    output_tokens: float | None
    ttft_ms: float | None  # mean time to first token
    tensor_parallel: int | None  # when the report states it
    # Issue 37: what else a run says about its shape, where the file gives it.
    context_cv: float | None = None  # spread of per-request context (standard deviation / mean)
    engine_version: str | None = None
    # Some runs state no time per output token (MLPerf Offline): tokens/s of the whole system and
    # samples/s; the officer gives the batch, and the system's GPUs, from the submission's config.
    whole_system: bool = False
    # False when `engine` names the benchmark, not a serving engine: an MLPerf summary states its
    # scenario, never the engine (that is in the submission's system description, another file).
    engine_stated: bool = True
    pipeline_parallel: int | None = None  # trtllm-bench's "PP Size", where the report states it
    model_id: str | None = None  # the model the file names (vLLM's model_id), as written
    # Weight (matmul) and KV-cache precision where the file states them (trtllm-bench's report):
    # "bf16" or "fp8", the precisions the serving model holds; None when unstated or another.
    precision: str | None = None
    kv_cache_precision: str | None = None

    @property
    def concurrent_sequences(self) -> int:
        """Little's law: sequences decoding at once = output tokens/s x seconds per output token."""
        return max(1, round(self.output_tokens_per_s * (self.tpot_ms or 0.0) / 1000.0))


def positive_number(
    value: object, what: str, source: str, line: int | None = None, required: bool = True
) -> float | None:
    if value is None and not required:
        return None
    # A number too large for a float (a 400-digit integer) is refused like any other bad figure.
    try:
        number = (
            float(value)
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else math.nan
        )
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) or number <= 0:
        shown = (
            f"a {len(str(value)):,}-digit number"
            if number == math.inf and isinstance(value, int)
            else repr(str(value)[:40])
        )
        raise EvidenceParseError(source, line, f"{what} must be a positive number, found {shown}")
    return number


@dataclass(frozen=True, slots=True)
class RunContext:
    """What the officer knows about a run that its file does not say (all optional): recorded on
    the evidence so the calibration solves the engine factor at the run's own shape."""

    gpu_model: str | None = None
    precision: str | None = None  # weights and matmuls: bf16 or fp8
    kv_cache_precision: str | None = None
    pipeline_parallel: int | None = None
    expert_parallel: int | None = None
    engine_version: str | None = None
    # The serving engine, when the file names none (MLPerf, GenAI-Perf, LLMPerf name a benchmark
    # or a load generator): the memo asks which engine such a run used; this answers it.
    engine: str | None = None
    prompt_tokens: float | None = None  # mean, when the file does not state it
    batch: int | None = None  # sequences per replica, when the file gives no time per output token
    system_gpus: int | None = None  # GPUs a whole-system figure (MLPerf) was measured on
    model: str | None = None  # the run's model as the officer names it (the model catalog's)
