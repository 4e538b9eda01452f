"""The serving benchmark of a request for evidence (issue 33 item 2, first part): the runs a
provider makes, as written, to measure one bid's serving throughput at the buyer's workload.

vLLM's public serving benchmark (`vllm bench serve`, formerly benchmarks/benchmark_serving.py)
with random prompts of the workload's input and output lengths, on the bid's GPU at the tensor
parallel degree asked, at a ladder of concurrencies that ends at the load the service must carry
at peak. Its `--save-result` JSON is one of the formats `serving-evidence attach` reads back, so
the returned file needs no retyping."""

from __future__ import annotations

import math

from clusterbid.core.evidence_request.model import CommandRun
from clusterbid.core.serving_workload import InferenceWorkload

RECIPE = "vLLM serving benchmark (vllm bench serve, github.com/vllm-project/vllm), random prompts"
PROMPTS_PER_LEVEL = 10  # prompts per concurrent stream: enough to leave the warm-up behind
MIN_PROMPTS = 200  # fewer and the 99th percentile latency rests on two requests
# One replica holds at most this many requests in its batch (the server is started with it
# stated): beyond it requests only queue, so the ladder stops there even when the fleet's peak
# load is higher; the fleet's replica count then follows from the measured curve.
BATCH_SLOTS = 256


def peak_concurrency(w: InferenceWorkload) -> int:
    """Requests in flight at peak by Little's law: arrivals per second times the seconds each
    request lives at the targets (time to first token, then every output token at its target)."""
    seconds = (w.ttft_target_ms + w.output_tokens * w.tpot_target_ms) / 1000.0
    return max(1, math.ceil(w.peak_requests_per_s * seconds))


def concurrency_ladder(w: InferenceWorkload, near_slo: int | None = None) -> list[int]:
    """1, 2, 4 ... doubling below the peak load (or one replica's batch slots, if fewer), then
    that load itself: the curve from idle to where the latency targets break. `near_slo`, the
    batch the estimate says one replica holds within the targets, is added as a rung of its own
    so the run measures the very point the cost rests on."""
    top = min(peak_concurrency(w), BATCH_SLOTS)
    if near_slo is not None and near_slo < top:
        return sorted({*concurrency_ladder(w), near_slo})
    rungs = [1 << k for k in range(top.bit_length()) if 1 << k < top]
    return [*rungs, top]


def server_command(w: InferenceWorkload, model: str, tensor_parallel: int) -> str:
    """The server the benchmark talks to, at the workload's precision and context."""
    parts = ["vllm", "serve", model, "--tensor-parallel-size", str(tensor_parallel)]
    parts += ["--max-model-len", str(w.prompt_tokens + w.output_tokens)]
    parts += ["--max-num-seqs", str(BATCH_SLOTS)]
    if w.precision == "fp8":  # the weights as the buyer will serve them
        parts += ["--quantization", "fp8"]
    if w.kv_cache_precision == "fp8":
        parts += ["--kv-cache-dtype", "fp8"]
    return " ".join(parts)


def serving_runs(
    w: InferenceWorkload,
    model: str,
    tensor_parallel: int,
    gpus_per_node: int,
    stem: str,
    near_slo: int | None = None,
) -> list[CommandRun]:
    """One client run per concurrency on one replica; each result saved as `stem_cN.json`."""
    nodes = max(1, math.ceil(tensor_parallel / gpus_per_node))
    runs = []
    for level in concurrency_ladder(w, near_slo):
        arguments = [
            "--backend", "vllm", "--model", model,
            "--dataset-name", "random",
            "--random-input-len", str(w.prompt_tokens),
            "--random-output-len", str(w.output_tokens),
            "--max-concurrency", str(level),
            "--num-prompts", str(max(MIN_PROMPTS, PROMPTS_PER_LEVEL * level)),
            "--percentile-metrics", "ttft,tpot,itl,e2el",
            "--metric-percentiles", "50,90,99",
            "--save-result", "--result-filename", f"{stem}_c{level}.json",
        ]  # fmt: skip
        runs.append(
            CommandRun(
                name=f"{level} concurrent request(s)",
                nodes=nodes,
                gpus=tensor_parallel,
                program="vllm bench serve",
                arguments=arguments,
                return_as=f"{stem}_c{level}.json",
            )
        )
    return runs
