"""Benchmark: the Monte Carlo against raw numpy drawing the same normals (issue 32 item 4).

Run: python tests/perf/bench_montecarlo.py [--quick] [--phases]

1. 50 bids x 100,000 samples, every sample drawn (precision=None): targets <= 1 s and <= 2x the
   anchor. The anchor is raw numpy drawing exactly the Monte Carlo's standard normals (one float32
   normal per bid, input and sample, plus the shared streams) from the same PCG64 streams, one
   call per stream. Runs are paired (anchor, Monte Carlo, anchor, ...) so a shared machine's load
   moves both; the ratio is the median of the pairs'. Wall-clock and CPU seconds are printed. The
   Monte Carlo is given the scorecard, as every door gives it (scoring is not sampling).
2. The default run (at most 20,000 samples, stopping at +/-1 point) at 50 bids: samples drawn.
3. 1,000 bids at the 20,000 cap: CPU seconds and this process's peak resident memory (VmHWM),
   target <= 500 MB.
With --phases: CPU seconds of each phase of the 50 x 100,000 run (the normals and their
exponentials, the drawn columns and terms, the cost model's step, goodput and contract bill, the
tallies and the percentiles), each against the anchor, to show where the time goes.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desktop"))

import numpy as np  # noqa: E402

from clusterbid.core.demo import demo_evaluation  # noqa: E402
from clusterbid.core.evaluation import Evaluation  # noqa: E402
from clusterbid.core.scoring import score_evaluation  # noqa: E402
from clusterbid.core.uncertainty import Spreads, run_monte_carlo  # noqa: E402
from clusterbid.core.uncertainty.sampling import setup  # noqa: E402
from clusterbid.core.uncertainty.streams import stream  # noqa: E402

BIDS = 50
SAMPLES = 100_000
PAIRS = 7
TARGET_S = 1.0
TARGET_RATIO = 2.0
TARGET_MB = 500


def evaluation_with(n_bids: int) -> Evaluation:
    """The demo's passing bids repeated under fresh ids with slightly varied prices (all pass the
    gates, so all are sampled)."""
    demo = demo_evaluation()
    templates = [
        b for b in demo.bids if b.id in ("northwind-ib", "cumulus-roce", "prime-efa", "legacy-a100")
    ]
    bids = []
    for i in range(n_bids):
        template = templates[i % len(templates)].model_dump()
        template["id"] = f"bid-{i:04d}"
        template["terms"]["price_per_gpu_hour"] = (
            template["terms"]["price_per_gpu_hour"] + Decimal(i % 7) / 100
        )
        bids.append(template)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})


def stream_keys(evaluation: Evaluation) -> list[tuple[str, str]]:
    """(owner, input) of every stream the Monte Carlo draws normals from: one per bid and input,
    and one per shared owner (the market, a GPU type, a fabric kind) and input."""
    drawn = setup(evaluation, evaluation.policy.random_seed, Spreads(), None)
    assert drawn is not None
    keys = [
        (drawn.ids[row], name)
        for block in drawn.blocks
        for name in block.gens
        for row in block.rows
    ]
    return keys + [(owner, name) for name, owner in drawn.shared_gens]


def raw_normals(seed: int, keys: list[tuple[str, str]], samples: int) -> None:
    """The anchor: the Monte Carlo's own streams, seeded the same way, each drawing its float32
    normals in one call."""
    out = np.empty(samples, dtype=np.float32)
    for owner, name in keys:
        stream(seed, owner, name).standard_normal(dtype=np.float32, out=out)


def timed(run) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def peak_mb() -> float:
    return int(re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text())[1]) / 1024


def phases(evaluation: Evaluation, scorecard, anchor_cpu: float, runs: int = 3) -> None:
    """CPU seconds per phase of the 50 x 100,000 run, timing the functions the run calls."""
    import collections

    import clusterbid.core.costmodel.training as training
    import clusterbid.core.uncertainty.model_inputs as model_inputs
    import clusterbid.core.uncertainty.montecarlo as montecarlo
    import clusterbid.core.uncertainty.sampling as sampling

    spent: collections.Counter[str] = collections.Counter()

    def timing(owner, name: str, label: str) -> None:
        function = getattr(owner, name)

        def timed_call(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - start

        setattr(owner, name, timed_call)

    timing(sampling, "_factors", "normals drawn, scaled and exponentiated")
    timing(sampling, "_drawn_arrays", "drawn columns and unwritten terms")
    timing(model_inputs, "step_breakdown", "cost model: step time")
    timing(model_inputs, "goodput", "cost model: goodput")
    timing(training, "bill", "cost model: contract bill")
    timing(model_inputs, "finish", "cost model: finish (bill included)")
    timing(montecarlo._Tally, "add", "tallies (cheapest, rank held, ...)")
    timing(montecarlo, "percentiles", "percentiles")
    timing(montecarlo, "setup", "set-up (inputs, spreads, streams, blocks)")
    total = 0.0
    for _ in range(runs):
        total += timed(
            lambda: run_monte_carlo(evaluation, SAMPLES, precision=None, scorecard=scorecard)
        )[1]
    print(f"phases, CPU s per run (mean of {runs}); anchor {anchor_cpu:.3f} s:")
    inside = sum(v for k, v in spent.items() if k != "cost model: contract bill")
    for label, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {label:42s} {seconds / runs:6.3f} s = {seconds / runs / anchor_cpu:4.2f}x")
    rest, label = (total - inside) / runs, "the rest (passes, common draws, results)"
    print(f"  {label:42s} {rest:6.3f} s = {rest / anchor_cpu:4.2f}x")


def main() -> None:
    quick = "--quick" in sys.argv
    evaluation = evaluation_with(BIDS)
    scorecard = score_evaluation(evaluation)  # every door scores first and passes it (decide)
    keys, seed = stream_keys(evaluation), evaluation.policy.random_seed
    run_monte_carlo(
        evaluation, 20_000, precision=None, scorecard=scorecard
    )  # warm up imports and caches
    pairs = []
    for _ in range(3 if quick else PAIRS):
        anchor = timed(lambda: raw_normals(seed, keys, SAMPLES))
        model = timed(
            lambda: run_monte_carlo(evaluation, SAMPLES, precision=None, scorecard=scorecard)
        )
        pairs.append((anchor, model))
    wall = statistics.median(m[0] for _, m in pairs)
    ratio = statistics.median(m[0] / a[0] for a, m in pairs)
    cpu_ratio = statistics.median(m[1] / a[1] for a, m in pairs)
    anchor_wall = statistics.median(a[0] for a, _ in pairs)
    print(
        f"monte carlo {BIDS} bids x {SAMPLES:,} samples: median {wall:.3f} s wall; raw numpy, same "
        "normals "
        f"from the same streams: {anchor_wall:.3f} s; ratio {ratio:.2f}x wall, {cpu_ratio:.2f}x "
        "CPU "
        f"({len(pairs)} pairs)"
    )
    if "--phases" in sys.argv:
        phases(evaluation, scorecard, statistics.median(a[1] for a, _ in pairs))
        return
    default = run_monte_carlo(evaluation, scorecard=scorecard)
    default_wall, default_cpu = timed(lambda: run_monte_carlo(evaluation, scorecard=scorecard))
    print(
        f"default run ({BIDS} bids, at most 20,000 samples, +/-1 point): {default.samples:,} "
        "samples, "
        f"{default_wall:.3f} s wall, {default_cpu:.3f} s CPU"
    )
    ok = wall <= TARGET_S and ratio <= TARGET_RATIO
    if not quick:
        thousand = evaluation_with(1000)
        big_card = score_evaluation(thousand)
        big_wall, big_cpu = timed(
            lambda: run_monte_carlo(thousand, 20_000, precision=None, scorecard=big_card)
        )
        peak = peak_mb()
        print(
            f"1,000 bids x 20,000 samples: {big_wall:.2f} s wall, {big_cpu:.2f} s CPU; "
            f"process peak RSS {peak:.0f} MB"
        )
        ok = ok and peak <= TARGET_MB
    print(
        "within targets"
        if ok
        else f"OVER TARGET (<= {TARGET_S} s, <= {TARGET_RATIO}x, <= {TARGET_MB} MB)"
    )


if __name__ == "__main__":
    main()
