"""Issue 37 item 6: the public serving rows through the path a buyer uses, not internal functions.

Run: python tests/validation/serving_through_product.py  (prints the table of methodology
section 8's "through the product"). Not a test: it prints what the product gives.

Each public row of serving_validation.py is written as the file its source publishes (an MLPerf
`mlperf_log_summary.txt`, a trtllm-bench report, vLLM's benchmark_serving JSON), put in a new
`.clusterbid` document holding the row's workload and one bid on the row's GPU, attached with the
product's own operation (`operations/serving_evidence.attach_serving_evidence`, the CLI's and the
app's) and read back by the product's estimate. Spec-only: the same document with nothing attached.

What each file holds is what the source publishes, and what the officer types is what the source
states beside it (the options of `clusterbid serving-evidence attach`):
- MLPerf: the summary's Scenario, Samples and Tokens per second and VALID, and for a Server run
  its mean time per output token and to the first token (Additional Stats); the officer gives the
  system's GPUs (8) and the batch in the submission's config (the engine's cap: an Offline summary
  has no time per output token; a Server run's sequences held follow from its own by Little's
  law). The summary states no prompt length; the officer types the set's mean, 222 tokens
  (--prompt-tokens; serving_validation.OPENORCA_MEAN_PROMPT and its source).
- TensorRT-LLM's perf overview publishes only the throughput and the lengths; the report's time
  per output token line is written as Little's law at the batch the officer gives (the engine's
  cap), so it adds nothing beyond that batch.
- vLLM: the JSON's output_throughput, median TPOT and total tokens of the published run.
Every row also states the model it served (`--model-billions`): without it a 70B run attached to
an 8B service is read as the 8B model running 9x slower (predicted 0.11x of the published figure).
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2])]  # the repository root, for tests.*

from tests.core.serving.serving_builders import serving_bid_dict  # noqa: E402
from tests.validation.serving_gap_evidence import (  # noqa: E402
    print_gpu_and_tp_carry,
    print_mlperf_server_carry,
)
from tests.validation.serving_validation import (  # noqa: E402
    OUT_OF_SAMPLE,
    ROWS,
    Row,
    _workload,
    calibrated_on,
    geometric_error,
    replica_at,
)
from tests.validation.serving_vllm_out_of_sample import (  # noqa: E402
    print_out_of_sample_through_product,
)

from clusterbid.core.costmodel.serving_estimate import estimate_serving  # noqa: E402
from clusterbid.core.evaluation import Evaluation  # noqa: E402
from clusterbid.core.store import EvaluationDocument  # noqa: E402
from clusterbid.operations.serving_evidence import (  # noqa: E402
    ServingRunOptions,
    attach_serving_evidence,
)

# benchmark_serving's `model_id` for Lambda's runs (Hugging Face ids of the Instruct checkpoints).
VLLM_MODEL_IDS = {
    "llama3-70b": "meta-llama/Meta-Llama-3.1-70B-Instruct",
    "llama3-8b": "meta-llama/Meta-Llama-3.1-8B-Instruct",
}
OFFICER_KEEPS = "validation: the officer keeps the published result after reading its flag"


def evidence_file(row: Row, folder: Path) -> tuple[Path, ServingRunOptions]:
    """The row as the file its source publishes, and what the officer types beside it."""
    stated = dict(
        gpu_model=row.gpu,
        precision=row.precision,
        kv_cache_precision=row.kv,
    )
    model = dict(model=row.model)  # --model: MLPerf's benchmark name, TensorRT-LLM's checkpoint
    if row.group.startswith("MLPerf"):
        samples = row.published_tokens_s / row.output
        path = folder / "mlperf_log_summary.txt"
        rates = (  # as LoadGen prints each scenario; a Server run adds its latency statistics
            f"Samples per second: {samples:.4f}\nTokens per second: {row.published_tokens_s}\n"
            "Result is : VALID\n"
            if row.kind == "saturated"
            else f"Completed samples per second    : {samples:.2f}\n"
            f"Completed tokens per second: {row.published_tokens_s}\nResult is : VALID\n"
            "================================================\nAdditional Stats\n"
            "================================================\n"
            f"Mean First Token latency (ns)               : {row.mean_ttft_ms * 1e6:.0f}\n"
            f"Mean Time to Output Token (ns)               : {row.mean_tpot_ms * 1e6:.0f}\n"
        )
        scenario = "Offline" if row.kind == "saturated" else "Server"
        path.write_text(
            "================================================\n"
            "MLPerf Results Summary\n"
            "================================================\n"
            f"SUT name : {row.label.split(': ', 1)[1]}\n"
            f"Scenario : {scenario}\nMode     : PerformanceOnly\n" + rates
        )
        return path, ServingRunOptions(
            gpus=row.tp,
            system_gpus=row.gpus,
            batch=row.cap,
            prompt_tokens=row.prompt[0],  # the set's mean, from the dataset (not the summary)
            **stated,
            **model,
        )
    if row.group == "TRT-LLM":
        tpot_ms = row.cap / (row.published_tokens_s / (row.gpus // row.tp)) * 1000
        path = folder / "trtllm-bench-report.txt"
        path.write_text(
            "===========================================================\n"
            "= ENGINE DETAILS\n"
            f"TP Size:                 {row.tp}\n"
            f"Max Runtime Batch Size:  {row.cap}\n"
            "= WORKLOAD DETAILS\n"
            f"Average Input Length (tokens):     {row.prompt[0]:.4f}\n"
            f"Average Output Length (tokens):    {row.output:.4f}\n"
            "= PERFORMANCE OVERVIEW\n"
            f"Total Output Throughput (tokens/sec):   {row.published_tokens_s:.4f}\n"
            f"Average time-per-output-token [TPOT] (ms): {tpot_ms:.4f}\n"
        )
        return path, ServingRunOptions(gpus=row.tp, batch=row.cap, **stated, **model)
    requests = 5000
    path = folder / "benchmark_serving.json"
    data = {
        "backend": "vllm",
        "completed": requests,
        "total_input_tokens": row.prompt[0] * requests,
        "total_output_tokens": row.output * requests,
        "output_throughput": row.published_tokens_s,
        "median_tpot_ms": row.published_tpot_ms,
        "model_id": VLLM_MODEL_IDS[row.model],  # the file names its model: no option needed
    }
    path.write_text(json.dumps(data))
    return path, ServingRunOptions(gpus=row.tp, **stated)


def through_product(
    target: Row, evidence_row: Row | None, folder: Path, engine: str = "not-stated"
) -> tuple[float, str]:
    """(predicted tokens/s per GPU for `target`, the flag in words or ""): a document with the
    target's workload (the buyer's engine `engine`) and one bid, `evidence_row`'s file attached to
    it by the product's operation (none: spec-only), the efficiencies the product's estimate sets,
    read at the row's kind."""
    workload = _workload(target, target.prompt[0], None, engine)
    evaluation = Evaluation.model_validate(
        {
            "title": "validation",
            "currency": "USD",
            "workload": workload.model_dump(mode="json"),
            "bids": [serving_bid_dict(gpu=target.gpu)],
        }
    )
    flag = ""
    name = f"{len(list(folder.iterdir()))}.clusterbid"
    with EvaluationDocument.create(folder / name, evaluation) as document:
        if evidence_row is not None:
            files = folder / f"{name}.files"
            files.mkdir()
            path, options = evidence_file(evidence_row, files)
            attached = attach_serving_evidence(
                document, "s1", path, options, use_above_model=OFFICER_KEEPS
            )
            flag = attached.flag or ""
        final = document.evaluation
    estimate = estimate_serving(final.workload, final.bids).bids[0]  # type: ignore[arg-type]
    efficiencies = (estimate.hbm_efficiency, estimate.compute_efficiency)
    return replica_at(target, target.prompt[0], efficiencies)[0], flag


def main() -> None:
    rows = [r for r in ROWS if r.kind != "dropped"]
    print("| source | row | evidence attached | published tok/s/GPU | spec-only | with evidence |")
    print("|---|---|---|---|---|---|")
    spec: dict[str, list[float]] = {}
    carried: dict[str, list[float]] = {}
    flags: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for group in dict.fromkeys(r.group for r in rows):
            members = [r for r in rows if r.group == group]
            for n, row in enumerate(members):
                published = row.published_tokens_s / row.gpus
                alone = through_product(row, None, folder)[0] / published
                spec.setdefault(group, []).append(alone)
                cells = "- (the source's first row) | -"
                if n:
                    source = next((r for r in members[:n] if r.gpu == row.gpu), members[0])
                    predicted, flag = through_product(row, source, folder)
                    carried.setdefault(group, []).append(predicted / published)
                    if flag:
                        flags.append(f"{source.label}: {flag}")
                    cells = f"{source.label.split(': ', 1)[1]} | {predicted / published:.2f}"
                what = row.label.split(": ", 1)[1]
                print(
                    f"| {group} | {what} | {cells.split(' | ')[0]} | {published:,.0f} "
                    f"| {alone:.2f} | {cells.split(' | ')[1]} |"
                )
    print("\n| source | rows | spec-only error | rows with evidence | with-evidence error |")
    print("|---|---|---|---|---|")
    for group, values in spec.items():
        with_evidence = carried.get(group, [])
        error = f"{geometric_error(with_evidence)[1]:.0%}" if with_evidence else "-"
        print(
            f"| {group} | {len(values)} | {geometric_error(values)[1]:.0%} "
            f"| {len(with_evidence)} | {error} |"
        )
    for flag in flags:
        print(f"\nFlagged on attach, kept by the officer: {flag}")
    print_batch_cap(rows)
    print_mlperf_server_carry(rows, _workload, replica_at)
    print_gpu_and_tp_carry(Row, calibrated_on, replica_at, geometric_error)
    print_out_of_sample_through_product(OUT_OF_SAMPLE, rows, through_product)


def print_batch_cap(rows: list[Row]) -> None:
    """Is the engine's batch cap (max batch, max tokens) behind the largest spec-only errors? The
    rows are read with the cap and with a cap of 4,096 (no cap the model reaches)."""
    print("\nThe engine's batch cap: spec-only ratio with the engine's cap / without\n")
    print("| source | row | cap | batch the model runs | ratio with cap | without | batch |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        published = row.published_tokens_s / row.gpus
        capped, *_, batch = replica_at(row, row.prompt[0])
        free, *_, free_batch = replica_at(replace(row, cap=4096), row.prompt[0])
        print(
            f"| {row.group} | {row.label.split(': ', 1)[1]} | {row.cap} | {batch} "
            f"| {capped / published:.2f} | {free / published:.2f} | {free_batch} |"
        )


if __name__ == "__main__":
    main()
