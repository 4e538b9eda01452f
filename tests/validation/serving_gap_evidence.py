"""Why the spec-only serving model misses the MLPerf and vLLM rows (issue 37, item 6): the evidence
serving_validation.py prints after its tables. Nothing here is fitted; every figure is worked out
from the rows' published figures and the model's own terms.

1. MLPerf (Server and Offline): the OpenOrca set's mean prompt is not in the result files, and the
   rows are rated at 512 tokens. The submissions' own configurations bound it: a tuned submission
   sets its batch to what its engine holds, and the batch's KV cache at a mean prompt P (the
   model's memory rule: usable HBM, the 99th-percentile margin) fits beside the weights only up to
   some P. Printed: that largest P for each row, and the ratio at 128, 192, that P and 512.
2. vLLM 0.6.0 (Lambda, 5,000 ShareGPT prompts at request rate inf): the published tokens/s and
   median time per output token give the engine's mean number of running sequences,
   tokens/s x TPOT, against its cap of 256; and the model's step split into its terms shows which
   term could carry the gap (chunked prefill, the KV-cache read).
"""

from __future__ import annotations

from tests.core.serving.serving_builders import serving_bid_dict

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import replica_grid
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays

PROMPTS = (128, 192, 512)


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
        "| row | configured batch | largest mean prompt it holds | ratio at 128 / 192 / that / 512 |"
    )
    print("|---|---|---|---|")
    at_bound = []
    for row in rows:
        if not row.group.startswith("MLPerf"):
            continue
        published = row.published_tokens_s / row.gpus
        bound = largest_prompt_holding_the_batch(row, workload_of)
        prompts = (128, 192, bound, 512) if bound else PROMPTS
        ratios = [replica_at(row, p)[0] / published for p in prompts]
        if bound:
            at_bound.append(ratios[2])
        print(
            f"| {row.group}, {row.gpu} TP{row.tp} | {row.cap} | {bound} | "
            + " / ".join(f"{r:.2f}" for r in ratios)
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
