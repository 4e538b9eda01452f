"""CPU seconds of the serving Monte Carlo on the serving demo (issue 37): the default run (stops
once every chance of being cheapest is known to +/- 1 point, as training's) and a fixed 20,000
draws, each in a fresh child process, rounds interleaved between source trees so that load
falls on both alike. Each child first runs 256 draws, so that lazy imports (numpy.ma,
numpy.random) and first-call caches are warm, as in training's child (--cold: without; until
2026-11-27 the serving child was timed cold, about 0.04 CPU s more at 20,000 draws). Medians are
printed, with CPU microseconds per bid per draw, beside training's Monte Carlo on its demo (4,096
draws, every one drawn) in a child of its own: the anchor issue 37 item 5 holds serving to
(tests/core/serving/test_serving_mc_cost.py checks the ratio).

Run: python tests/perf/bench_serving_montecarlo.py [--rounds 5] [--tree DIR ...]
(each DIR is a checkout whose desktop/ folder is imported; default: this one. To compare with a
commit: git archive COMMIT desktop resources | tar -x -C /tmp/before, then --tree /tmp/before
--tree .; the resources are needed too)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHILD = """
import json, sys, time
sys.path.insert(0, {desktop!r})
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty.serving_montecarlo import serving_uncertainty
data = json.load(open({demo!r}, encoding="utf-8"))
if {burst!r}:  # the demo with 6 peak hours a day and every bid offering burst at $4.00 (issue 37)
    data["workload"]["peak_hours_per_day"] = 6
    for bid in data["bids"]:
        bid["terms"]["burst_price_per_gpu_hour"] = "4.00"
demo = Evaluation.model_validate(data)
estimates = estimate_serving(demo.workload, demo.bids)
if {warm!r}:  # imports and caches warm, as training's child below
    serving_uncertainty(estimates, samples=256)
start = time.process_time()
result = serving_uncertainty(estimates, samples={samples})
print(json.dumps([time.process_time() - start, result.samples, len(demo.bids)]))
"""
TRAINING = """
import json, sys, time
sys.path.insert(0, {desktop!r})
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import run_monte_carlo
demo = Evaluation.model_validate(json.load(open({demo!r}, encoding="utf-8")))
card = score_evaluation(demo)
run_monte_carlo(demo, 256, precision=None, scorecard=card)  # imports and caches warm
start = time.process_time()
run_monte_carlo(demo, 4096, precision=None, scorecard=card)
print(json.dumps([time.process_time() - start, 4096, len(demo.bids)]))
"""


def _training(tree: Path) -> tuple[float, int, int]:
    code = TRAINING.format(
        desktop=str(tree / "desktop"),
        demo=str(REPO / "resources" / "examples" / "demo-evaluation.json"),
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, drawn, bids = json.loads(done.stdout.strip().splitlines()[-1])
    return seconds, drawn, bids


def _one(
    tree: Path, samples: int | None, burst: bool = False, warm: bool = True
) -> tuple[float, int, int]:
    code = CHILD.format(
        desktop=str(tree / "desktop"),
        demo=str(REPO / "resources" / "examples" / "demo-serving-evaluation.json"),
        samples=samples,
        burst=burst,
        warm=warm,
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, drawn, bids = json.loads(done.stdout.strip().splitlines()[-1])
    return seconds, drawn, bids


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tree", action="append", type=Path)
    parser.add_argument(
        "--burst",
        action="store_true",
        help="also time the demo with a traffic profile and burst "
        "prices (trees from issue 37's traffic profile on)",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="time the serving runs without a warm-up run first (lazy imports such as numpy.ma "
        "and numpy.random, and first-call caches, counted in; training's child always warms up)",
    )
    args = parser.parse_args()
    trees = args.tree or [REPO]
    times: dict[tuple[str, str], list[float]] = {}
    drawn: dict[tuple[str, str], tuple[int, int]] = {}
    for _ in range(args.rounds):
        for tree in trees:
            runs = [("default run", None, False), ("20,000 draws", 20_000, False)]
            for label, samples, burst in runs + (
                [("burst, default", None, True)] if args.burst else []
            ):
                seconds, n, bids = _one(tree.resolve(), samples, burst, not args.cold)
                times.setdefault((str(tree), label), []).append(seconds)
                drawn[(str(tree), label)] = n, bids
            seconds, n, bids = _training(tree.resolve())
            times.setdefault((str(tree), "training"), []).append(seconds)
            drawn[(str(tree), "training")] = n, bids
    for (tree, label), values in times.items():
        samples, bids = drawn[(tree, label)]
        per_draw = statistics.median(values) / samples / bids * 1e6
        print(
            f"{tree}: {label:<14} {statistics.median(values):5.2f} CPU s median of {len(values)} "
            f"(min {min(values):.2f}, max {max(values):.2f}), {samples:,} samples x {bids} bids: "
            f"{per_draw:.2f} CPU us per bid per draw"
        )


if __name__ == "__main__":
    main()
