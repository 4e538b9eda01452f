"""Predicted against published output tokens/s per GPU for public serving benchmarks.

Run: python tests/validation/serving_validation.py  (prints the table of methodology.md section 8)

Sources (public, cited in resources/methodology.md section 8):
- TensorRT-LLM "Performance overview" (docs/source/performance/perf-overview.md, repository
  NVIDIA/TensorRT-LLM at commit 00f37686, the v1.0-era PyTorch backend, trtllm-bench throughput):
  nvidia/Llama-3.3-70B-Instruct-FP8, fixed input/output lengths (stdev 0), requests fed with no
  delay, so no latency limit: the model is run with the latency targets lifted.
- Lambda "LLMs inference benchmarks, using vLLM" (LambdaLabsML/vllm-benchmark, benchmark_v0.md,
  vLLM v0.5.4, benchmark_serving.py, ShareGPT, --num-prompts 320 sent at once, max-num-seqs 256):
  Meta-Llama-3.1-70B-Instruct-FP8 on 1, 2, 4 and 8 H100-80GB-SXM, "throughput / latency" table.
  ShareGPT lengths from their 4xH100 result JSON: 65,578 input and 62,996 output tokens over
  320 prompts = 205 / 197 per request. The same page's v0.6.0 runs (--num-prompts 5000, steady
  state, num-scheduler-steps 10, median TPOT): Llama 3.1 70B (BF16) at TP4, Llama 3.1 8B at TP1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parents[2])]  # the repository root, for tests.*

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import replica_grid
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays
from clusterbid.core.serving_workload import InferenceWorkload
from tests.core.serving.serving_builders import serving_bid_dict  # noqa: E402

NO_LIMIT_MS = 60_000.0
# (source, engine, gpu, TP, prompt, output, spread, batch cap, published ms/token or None,
#  published output tokens/s of the whole replica, model)
ROWS = [
    ("TensorRT-LLM perf overview", "TRT-LLM", "H200-SXM", 1, 1000, 1000, 0.0, 1024, None, 2909.0, "fp8"),
    ("TensorRT-LLM perf overview", "TRT-LLM", "H100-SXM", 2, 1000, 1000, 0.0, 1024, None, 4205.0, "fp8"),
    ("TensorRT-LLM perf overview", "TRT-LLM", "H200-SXM", 1, 1000, 2000, 0.0, 1024, None, 2994.0, "fp8"),
    ("TensorRT-LLM perf overview", "TRT-LLM", "H100-SXM", 2, 1000, 2000, 0.0, 1024, None, 4146.0, "fp8"),
    ("TensorRT-LLM perf overview", "TRT-LLM", "H100-SXM", 2, 128, 2048, 0.0, 1024, None, 6651.0, "fp8"),
    ("Lambda vLLM benchmark (5,000 prompts)", "vLLM 0.6.0", "H100-SXM", 4, 205, 197, 1.0, 256, 61.10, 3542.88, "bf16"),
    ("Lambda vLLM benchmark (5,000 prompts)", "vLLM 0.6.0", "H100-SXM", 1, 205, 197, 1.0, 256, 25.57, 8088.35, "8b"),
    ("Lambda vLLM benchmark", "vLLM 0.5.4", "H100-SXM", 1, 205, 197, 1.0, 256, 35.84, 418.92, "fp8"),
    ("Lambda vLLM benchmark", "vLLM 0.5.4", "H100-SXM", 2, 205, 197, 1.0, 256, 49.33, 1727.69, "fp8"),
    ("Lambda vLLM benchmark", "vLLM 0.5.4", "H100-SXM", 4, 205, 197, 1.0, 256, 38.26, 2242.99, "fp8"),
    ("Lambda vLLM benchmark", "vLLM 0.5.4", "H100-SXM", 8, 205, 197, 1.0, 256, 33.71, 2572.8, "fp8"),
]


MODELS = {
    # Llama-3.x-70B: 70.6e9 parameters, 80 layers, hidden 8,192, 8 KV heads of 128.
    "fp8": {"total_params_billions": 70.6, "precision": "fp8", "num_layers": 80, "hidden_size": 8192},
    "bf16": {"total_params_billions": 70.6, "precision": "bf16", "num_layers": 80, "hidden_size": 8192},
    # Llama-3.1-8B: 8.03e9 parameters, 32 layers, hidden 4,096, 8 KV heads of 128, BF16.
    "8b": {"total_params_billions": 8.03, "precision": "bf16", "num_layers": 32, "hidden_size": 4096},
}


def predicted_per_gpu(
    gpu: str, tp: int, prompt: int, output: int, spread: float, cap: int, tpot_ms: float | None, model: str
) -> float:
    """The model's largest output tokens/s per GPU with time per output token within the
    published latency (or without a limit), the batch capped as the benchmark's engine was."""
    workload = InferenceWorkload.model_validate({
        "kind": "inference", "name": f"Llama-3.x {model}", **MODELS[model], "kv_heads": 8, "head_dim": 128, "kv_cache_precision": "bf16",
        "prompt_tokens": prompt, "output_tokens": output, "context_cv": spread,
        "ttft_target_ms": NO_LIMIT_MS * 10, "tpot_target_ms": tpot_ms or NO_LIMIT_MS,
        "peak_requests_per_s": 1, "average_requests_per_s": 1, "tensor_parallel": tp,
    })
    bid = Bid.model_validate(serving_bid_dict(gpu=gpu))
    w = ServingScalars.from_workload(workload)
    grid = replica_grid(w, build_serving_arrays(workload, [bid], default_catalog(), [1.0]))
    rate = np.where(grid.feasible[0, 0, :cap], grid.tokens_per_s[0, 0, :cap], 0.0)
    return float(rate.max()) / tp


def table() -> list[tuple]:
    rows = []
    for source, engine, gpu, tp, prompt, output, spread, cap, latency, published, model in ROWS:
        predicted = predicted_per_gpu(gpu, tp, prompt, output, spread, cap, latency, model)
        rows.append((source, engine, gpu, tp, f"{prompt}/{output}", latency, published / tp, predicted))
    return rows


if __name__ == "__main__":
    print("| source | engine | GPU | TP | in/out | ms/token | published tok/s/GPU | predicted | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for source, engine, gpu, tp, lengths, latency, published, predicted in table():
        limit = f"{latency:g}" if latency else "no limit"
        print(f"| {source} | {engine} | {gpu} | {tp} | {lengths} | {limit} | {published:,.0f} | {predicted:,.0f} | {predicted / published:.2f} |")
