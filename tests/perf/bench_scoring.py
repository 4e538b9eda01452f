"""Benchmark: score 50 and 1,000 bids for one workload (run: python tests/perf/bench_scoring.py)."""

from __future__ import annotations

import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from clusterbid.core.demo import demo_evaluation  # noqa: E402
from clusterbid.core.evaluation import Evaluation  # noqa: E402
from clusterbid.core.scoring import score_evaluation  # noqa: E402


def evaluation_with(n_bids: int) -> Evaluation:
    """The demo's workload with its bids repeated under fresh ids and slightly varied prices."""
    demo = demo_evaluation()
    bids = []
    for i in range(n_bids):
        template = demo.bids[i % len(demo.bids)].model_dump()
        template["id"] = f"bid-{i:04d}"
        template["terms"]["price_per_gpu_hour"] = (
            template["terms"]["price_per_gpu_hour"] + Decimal(i % 7) / 100
        )
        bids.append(template)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})


def time_scoring(evaluation: Evaluation, repeats: int) -> list[float]:
    score_evaluation(evaluation)  # warm caches (catalog, imports)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        score_evaluation(evaluation)
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    for n_bids, repeats in ((50, 200), (1000, 20)):
        samples = time_scoring(evaluation_with(n_bids), repeats)
        print(
            f"score {n_bids:>5} bids: median {statistics.median(samples) * 1e3:7.2f} ms, "
            f"p95 {sorted(samples)[int(0.95 * len(samples)) - 1] * 1e3:7.2f} ms over {repeats} runs"
        )


if __name__ == "__main__":
    main()
