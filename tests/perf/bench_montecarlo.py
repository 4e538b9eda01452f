"""Benchmark: Monte Carlo of 50 bids x 100,000 samples (targets: under 1 s, under 300 MB).

Run: python tests/perf/bench_montecarlo.py. Time is the median of repeated runs; memory is the
peak of numpy's and Python's allocations during one run (tracemalloc sees numpy's buffers),
and the process's peak resident size for context (it includes the interpreter and imports).
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desktop"))

from clusterbid.core.demo import demo_evaluation  # noqa: E402
from clusterbid.core.evaluation import Evaluation  # noqa: E402
from clusterbid.core.uncertainty import run_monte_carlo  # noqa: E402

BIDS = 50
SAMPLES = 100_000
RUNS = 7
TARGET_S = 1.0
TARGET_MB = 300


def evaluation_with(n_bids: int) -> Evaluation:
    """The demo's passing bids repeated under fresh ids with slightly varied prices (all 50 pass
    the gates, so all 50 are sampled)."""
    demo = demo_evaluation()
    templates = [b for b in demo.bids if b.id in ("northwind-ib", "cumulus-roce", "prime-efa", "legacy-a100")]
    bids = []
    for i in range(n_bids):
        template = templates[i % len(templates)].model_dump()
        template["id"] = f"bid-{i:04d}"
        template["terms"]["price_per_gpu_hour"] = template["terms"]["price_per_gpu_hour"] + Decimal(i % 7) / 100
        bids.append(template)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})


def main() -> None:
    evaluation = evaluation_with(BIDS)
    result = run_monte_carlo(evaluation, SAMPLES)  # warm up imports and caches
    assert len(result.bids) == BIDS, "every bid should pass the gates"
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run_monte_carlo(evaluation, SAMPLES)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    run_monte_carlo(evaluation, SAMPLES)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    median = statistics.median(times)
    print(
        f"monte carlo {BIDS} bids x {SAMPLES:,} samples: median {median:.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}) over {RUNS} runs; "
        f"peak allocations {peak / 1e6:.0f} MB; process peak RSS {rss_mb:.0f} MB"
    )
    ok = median < TARGET_S and peak / 1e6 < TARGET_MB
    print("within targets" if ok else f"OVER TARGET (< {TARGET_S} s, < {TARGET_MB} MB)")


if __name__ == "__main__":
    main()
