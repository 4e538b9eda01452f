"""Benchmark: value of information of 50 bids x 3 inputs over 20,000 Monte Carlo samples, the
CLI's default (targets: under 2 s, under 300 MB), and the demo's 4 bids as `request-evidence`
computes it.

Run: python tests/perf/bench_value_of_information.py. Time is the median of repeated runs of
drawing the samples and valuing every (bid, input) pair; memory is the peak of numpy's and
Python's allocations during one run (tracemalloc).
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desktop"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.perf.bench_montecarlo import evaluation_with  # noqa: E402

from clusterbid.core.demo import demo_evaluation  # noqa: E402
from clusterbid.core.uncertainty.value_of_information import value_of_information  # noqa: E402

SAMPLES = 20_000
RUNS = 5
TARGET_S = 2.0
TARGET_MB = 300


def measure(evaluation, label: str, bids: int) -> bool:
    value_of_information(evaluation, SAMPLES)  # warm up imports and caches
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        result = value_of_information(evaluation, SAMPLES)
        times.append(time.perf_counter() - start)
    assert len(result.values) == 3 * bids, "every passing bid has three inputs valued"
    tracemalloc.start()
    value_of_information(evaluation, SAMPLES)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    median = statistics.median(times)
    print(
        f"value of information, {label}: {bids} bids x 3 inputs x {SAMPLES:,} samples: median "
        f"{median:.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}) over {RUNS} runs; peak allocations "
        f"{peak / 1e6:.0f} MB"
    )
    return median < TARGET_S and peak / 1e6 < TARGET_MB


def main() -> None:
    ok = measure(demo_evaluation(), "demo", 4)
    ok &= measure(evaluation_with(50), "50 bids", 50)
    print("within targets" if ok else f"OVER TARGET (< {TARGET_S} s, < {TARGET_MB} MB)")


if __name__ == "__main__":
    main()
