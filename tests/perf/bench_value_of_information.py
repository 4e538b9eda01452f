"""Benchmark: value of information of 50 bids x their uncertain inputs (scale-out bandwidth,
baseline MFU, failure rate, node replacement time, SLA uptime, and whatever else the Monte Carlo
draws for a bid) over 20,000 Monte Carlo samples, the CLI's default (targets: under 2 s, under
300 MB), and the demo's 4 bids as `request-evidence` computes it.

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
from clusterbid.core.uncertainty.sampling import sample_plan_costs  # noqa: E402
from clusterbid.core.uncertainty.value_of_information import value_of_information  # noqa: E402

SAMPLES = 20_000
RUNS = 5
TARGET_S = 2.0
TARGET_MB = 300


def drawn_pairs(evaluation) -> set[tuple[str, str]]:
    """Every (bid, input) pair the Monte Carlo draws: what the valuation must cover. Bids that draw
    an input from the very same shared streams share one value naming them all (`informs`), so
    the values are fewer than the pairs (the count was 3 x bids before more inputs were drawn)."""
    plan = sample_plan_costs(evaluation, 400)
    return {(bid_id, item.name) for bid_id, inputs in zip(plan.ids, plan.inputs) for item in inputs}


def measure(evaluation, label: str) -> bool:
    value_of_information(evaluation, SAMPLES)  # warm up imports and caches
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        result = value_of_information(evaluation, SAMPLES)
        times.append(time.perf_counter() - start)
    pairs = drawn_pairs(evaluation)
    covered = {(bid_id, v.input) for v in result.values for bid_id in v.informs}
    assert covered == pairs, f"pairs not valued: {sorted(pairs - covered)[:5]}"
    assert {bid_id for bid_id, _ in pairs} == set(result.expected_cost), "every passing bid drawn"
    bids = len(result.expected_cost)
    tracemalloc.start()
    value_of_information(evaluation, SAMPLES)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    median = statistics.median(times)
    print(
        f"value of information, {label} ({bids} passing): {len(pairs)} (bid, input) pairs in "
        f"{len(result.values)} measurements x {SAMPLES:,} samples: median {median:.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}) over {RUNS} runs; peak allocations "
        f"{peak / 1e6:.0f} MB"
    )
    return median < TARGET_S and peak / 1e6 < TARGET_MB


def main() -> None:
    ok = measure(demo_evaluation(), "demo")
    ok &= measure(evaluation_with(50), "50 bids")
    print("within targets" if ok else f"OVER TARGET (< {TARGET_S} s, < {TARGET_MB} MB)")


if __name__ == "__main__":
    main()
