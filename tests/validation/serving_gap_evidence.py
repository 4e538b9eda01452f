"""Why the spec-only serving model misses the MLPerf and vLLM rows (issue 37, item 6): the evidence
serving_validation.py prints after its tables. Nothing here is fitted; every figure is worked out
from the rows' published figures and the model's own terms.

1. MLPerf (Server and Offline): the OpenOrca set's mean prompt is not in the result files; the
   rows are rated at the set's own mean (222 tokens, serving_validation.OPENORCA_MEAN_PROMPT and
   its source), 512 until issue 37's target b. The submissions' own configurations bound it: a
   tuned submission sets its batch to what its engine holds, and the batch's KV cache at a mean
   prompt P (the model's memory rule: usable HBM, the 99th-percentile margin) fits beside the
   weights only up to some P. Printed: that largest P for each row (the set's mean must be below
   it), and the ratio at 128, 192, the set's mean, that P and 512.
2. vLLM 0.6.0 (Lambda, 5,000 ShareGPT prompts at request rate inf): the published tokens/s and
   median time per output token give the engine's mean number of running sequences,
   tokens/s x TPOT, against its cap of 256; and the model's step split into its terms shows which
   term could carry the gap (chunked prefill, the KV-cache read).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from tests.core.serving.serving_builders import serving_bid_dict

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import (
    NVLINK_ALLREDUCE_LATENCY_S,
    decode_step,
    replica_grid,
)
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays
from clusterbid.core.serving_workload import (
    DEFAULT_COMPUTE_EFFICIENCY as DEFAULT_COMPUTE,
)
from clusterbid.core.serving_workload import DEFAULT_HBM_EFFICIENCY as DEFAULT_HBM

TERMS = ("weights_read_s", "kv_read_s", "compute_s", "comm_s", "engine_s")


def _grid(row, prompt: int, workload_of):
    workload = workload_of(row, prompt, None)
    bid = Bid.model_validate(serving_bid_dict(gpu=row.gpu))
    w = ServingScalars.from_workload(workload)
    return replica_grid(w, build_serving_arrays(workload, [bid], default_catalog(), [1.0]))


def largest_prompt_holding_the_batch(row, workload_of) -> int | None:
    """The largest mean prompt (in steps of 8 tokens) at which the row's configured batch fits
    HBM by the model's memory rule (None: not even at 8)."""
    held = [p for p in range(8, 1025, 8) if _grid(row, p, workload_of).fits_hbm[0, 0, row.cap - 1]]
    return held[-1] if held else None


def print_mlperf_prompt_bounds(rows, workload_of, replica_at) -> list[float]:
    """One line per MLPerf row; returns each row's ratio at its bound."""
    print("\nMLPerf rows: the mean prompt the submissions' own batch allows (issue 37)\n")
    print(
        "| row | configured batch | largest mean prompt it holds | ratio at 128 / 192 / the set's "
        "mean / that / 512 |"
    )
    print("|---|---|---|---|")
    at_bound = []
    for row in rows:
        if not row.group.startswith("MLPerf"):
            continue
        published = row.published_tokens_s / row.gpus
        bound = largest_prompt_holding_the_batch(row, workload_of)
        mean = row.prompt[0]  # the set's own mean, as the row is rated
        prompts = (128, 192, mean, bound, 512) if bound else (128, 192, mean, 512)
        ratios = [replica_at(row, p)[0] / published for p in prompts]
        if bound:
            at_bound.append(ratios[3])
        print(
            f"| {row.group}, {row.gpu} TP{row.tp} | {row.cap} | {bound} | "
            + " / ".join(f"{r:.2f} ({p})" for r, p in zip(ratios, prompts))
            + " |"
        )
    return at_bound


def print_vllm_terms(rows, workload_of) -> None:
    """The engine's mean running sequences and the model's step by term, for the vLLM rows."""
    print("\nvLLM 0.6.0 rows: what the published figures say about the engine (issue 37)\n")
    print(
        "| row | running sequences (tokens/s x median TPOT) | model step at 256: weights / "
        "compute (decode alone) / KV read / all-reduce / step, ms | published ms / model ms |"
    )
    print("|---|---|---|---|")
    for row in rows:
        if row.group != "vLLM" or row.kind == "dropped" or not row.published_tpot_ms:
            continue
        replicas = row.gpus / row.tp
        running = row.published_tokens_s / replicas * row.published_tpot_ms / 1000
        g = _grid(row, row.prompt[0], workload_of)
        at = (0, 0, row.cap - 1)
        compute = float(g.compute_s[at]) * 1000
        decode = compute / (1 + row.prompt[0] / row.output)
        step = float(g.step_s[at]) * 1000
        print(
            f"| {row.label} | {running:.1f} of {row.cap} ({running / row.cap:.0%}) | "
            f"{float(g.weights_read_s[at]) * 1000:.1f} / {compute:.1f} ({decode:.1f}) / "
            f"{float(g.kv_read_s[at]) * 1000:.1f} / {float(g.comm_s[at]) * 1000:.1f} / {step:.1f} | "
            f"{row.published_tpot_ms:g} / {step:.1f} ({row.published_tpot_ms / step:.2f}) |"
        )


def engine_factor_at(row, batch: float, workload_of, prompt: int | None = None):
    """(k, the model's step by term in ms) for `row` run at `batch` sequences per replica, k
    solved as the product does (calibrate_serving): engine part / (measured step - all-reduces),
    the measured step batch / the row's tokens/s per replica."""
    prompt = prompt or row.prompt[0]
    workload = workload_of(row, prompt, None)
    bid = Bid.model_validate(serving_bid_dict(gpu=row.gpu))
    w = ServingScalars.from_workload(workload)
    b = build_serving_arrays(workload, [bid], default_catalog(), [1.0])
    step = decode_step(w, b, np.asarray(float(row.tp)), np.asarray(float(batch)))
    ms = {name: float(np.asarray(getattr(step, name)).ravel()[0]) * 1000 for name in TERMS}
    ms["fixed"] = 2 * w.num_layers * NVLINK_ALLREDUCE_LATENCY_S * 1000 if row.tp > 1 else 0.0
    measured = batch / (row.published_tokens_s / row.gpus * row.tp) * 1000
    return ms["engine_s"] / (measured - ms["comm_s"]), ms | {"measured": measured}


def print_mlperf_server_carry(rows, workload_of, replica_at) -> None:
    """Issue 37 item 6: MLPerf Server's one row with evidence (H100 TP2 carried to H200 TP1),
    split into the Server latency limit (the sequences held against the configured batch, on
    the evidence's side and on the target's) and the tensor-parallel carry (the factor the H100
    TP2 run gives against the one the H200 TP1 run gives itself)."""
    source, target = (r for r in rows if r.group == "MLPerf")
    published = target.published_tokens_s / target.gpus
    held = {
        r.gpu: r.published_tokens_s / r.gpus * r.tp * r.mean_tpot_ms / 1000
        for r in rows
        if r.group == "MLPerf"
    }

    def carried(k: float, batch: int | None = None) -> float:
        efficiencies = (DEFAULT_HBM * k, DEFAULT_COMPUTE * k)
        if batch is None:  # the largest rate the model finds within the limits, as the product
            return replica_at(target, target.prompt[0], efficiencies)[0] / published
        return replica_at(replace(target, cap=batch), target.prompt[0], efficiencies)[0] / published

    print(
        "\nMLPerf Server, H100 TP2 carried to H200 TP1: where the with-evidence miss comes from\n"
    )
    print("| evidence solved at | k | all-reduce / engine / measured step, ms | H200 ratio |")
    print("|---|---|---|---|")
    for what, batch in (
        (f"the sequences held ({held['H100-SXM']:.0f}, Little's law)", held["H100-SXM"]),
        (f"the configured batch ({source.cap})", source.cap),
    ):
        k, ms = engine_factor_at(source, batch, workload_of)
        print(
            f"| {what} | {k:.3f} | {ms['comm_s']:.1f} / {ms['engine_s']:.1f} / "
            f"{ms['measured']:.1f} | {carried(k):.3f} (at {held['H200-SXM']:.0f} held: "
            f"{carried(k, round(held['H200-SXM'])):.3f}) |"
        )
    k_source, ms = engine_factor_at(source, held["H100-SXM"], workload_of)
    k_target, _ = engine_factor_at(target, held["H200-SXM"], workload_of)
    needed = ms["measured"] - ms["engine_s"] / k_target
    busbw = 360 * (ms["comm_s"] - ms["fixed"]) / (needed - ms["fixed"])
    print(
        f"\nThe H200 TP1 run gives itself k = {k_target:.3f} (ratio {carried(k_target):.3f} at "
        f"the model's batch); the H100 TP2 run gives {k_source:.3f}: the carry is "
        f"{k_target / k_source:.3f}x. For one k to fit both, the H100 TP2 step's all-reduces "
        f"would take {needed:.1f} ms, not the model's {ms['comm_s']:.1f} "
        f"({needed / ms['comm_s']:.2f}x: with the {ms['fixed']:.1f} ms of launch latency kept, a "
        f"2-GPU bus bandwidth of {busbw:.0f} GB/s against the 360 the model uses)."
    )


# NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md (commit 00f37686, the rows of
# serving_validation.py's TRT-LLM group): (prompt, output, H200 tok/s, H100 tok/s). Llama 3.1 8B
# FP8 runs at TP1 on both GPUs (the GPU move alone); Llama 3.3 70B FP8 at TP1 on H200 and TP2 on
# H100 (the GPU move and TP1 -> TP2), the tok/s of the whole replica.
SAME_TP_8B = [
    (128, 2048, 26221, 22714),
    (500, 2000, 20770, 17660),
    (1000, 1000, 17744, 15220),
    (1000, 2000, 16828, 13899),
    (2048, 2048, 12194, 9305),
]
TP1_TP2_70B = [
    (128, 2048, 4336, 6651),
    (500, 2000, 3666, 5222),
    (1000, 1000, 2909, 4205),
    (1000, 2000, 2994, 4146),
    (2048, 2048, 2003, 3082),
]


def print_gpu_and_tp_carry(row_type, calibrated_on, replica_at, geometric_error) -> None:
    """The same engine's H200 run as evidence for its H100 run: at one TP degree (8B, TP1 on
    both) and from TP1 to TP2 (70B). Their ratio is the TP move alone, as far as one engine's
    published pairs can say (the 8B runs are less compute-bound than the 70B runs)."""
    print("\nTensorRT-LLM's H200 run carried to its H100 run: the GPU move and the TP move\n")
    print("| model | H200 -> H100 | predicted / published H100, per pair | geometric mean |")
    print("|---|---|---|---|")
    means = {}
    for model, tp, pairs in (("llama3-8b", 1, SAME_TP_8B), ("llama3-70b", 2, TP1_TP2_70B)):
        ratios = []
        for prompt, output, h200, h100 in pairs:
            evidence, target = (
                row_type(
                    "TRT-LLM",
                    "saturated",
                    f"perf overview: {model} {gpu} TP{t}",
                    gpu,
                    t,
                    t,
                    (prompt,),
                    output,
                    model,
                    "fp8",
                    "fp8",
                    2048,
                    rate,
                )
                for gpu, t, rate in (("H200-SXM", 1, h200), ("H100-SXM", tp, h100))
            )
            predicted = replica_at(target, prompt, calibrated_on(evidence, target))[0] * tp
            ratios.append(predicted / h100)
        means[tp] = geometric_error(ratios)[0]
        print(
            f"| {model} | TP1 -> TP{tp} | {' / '.join(f'{r:.2f}' for r in ratios)} "
            f"| {means[tp]:.3f} (error {geometric_error(ratios)[1]:.0%}) |"
        )
    print(
        f"\nThe TP move alone (TP1 -> TP2 over TP1 -> TP1): {means[2] / means[1]:.3f}x: the model "
        "puts an H100 TP2 replica that much faster than the engine runs it."
    )
