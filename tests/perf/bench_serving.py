"""Serving timings: scoring the serving demo (model, Erlang-C headroom, 20,000-sample Monte Carlo,
tipping points) and the same for 50 bids, and the Monte Carlo alone in CPU seconds.

Run: PYTHONPATH=desktop python tests/perf/bench_serving.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "desktop"), str(REPO)]

from clusterbid.core.costmodel.serving_estimate import estimate_serving  # noqa: E402
from clusterbid.core.evaluation import Evaluation  # noqa: E402
from clusterbid.core.serving_json import serving_scorecard_to_json  # noqa: E402
from clusterbid.core.serving_scoring import score_serving_evaluation  # noqa: E402
from clusterbid.core.uncertainty.serving_montecarlo import serving_uncertainty  # noqa: E402

DEMO = REPO / "resources" / "examples" / "demo-serving-evaluation.json"


def _timed(work, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    demo = Evaluation.model_validate(data)
    many = json.loads(json.dumps(data))
    many["bids"] = [dict(bid, id=f"{bid['id']}-{n}") for n in range(10) for bid in data["bids"]]
    fifty = Evaluation.model_validate(many)
    print(
        "point estimate, demo (5 bids):      "
        f"{_timed(lambda: estimate_serving(demo.workload, demo.bids)):.3f} s"
    )
    print(
        "score + bands + JSON, demo:         "
        f"{_timed(lambda: serving_scorecard_to_json(score_serving_evaluation(demo))):.3f} s"
    )
    print(
        "score + bands + JSON, 50 bids:      "
        f"{_timed(lambda: score_serving_evaluation(fifty), repeats=3):.3f} s"
    )
    estimates = estimate_serving(demo.workload, demo.bids)
    start = time.process_time()
    bands = serving_uncertainty(estimates)
    print(
        f"Monte Carlo alone, demo:            {time.process_time() - start:.2f} CPU s for "
        f"{bands.samples:,} samples"
    )


if __name__ == "__main__":
    main()
