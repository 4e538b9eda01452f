"""Where the bands' work goes at 50 bids (issue 32 item 1: edit -> bands within 1 s): CPU seconds
of each step the window's worker runs between an edit and its bands, in the order it runs them,
measured in one process on the bench's evaluation (tests/perf/bench_scoring.py), no Qt.

Run: PYTHONPATH=desktop python tests/perf/profile_bands.py   (BENCH_BIDS=N bids, 50 unless told;
     BENCH_REPEATS=N runs, 5 unless told; the median of each step is printed)

The steps: the point scoring with what the table derives (gui/rescoring.py `scored_and_derived`),
then `analyse_bands` (gui/uncertainty_source.py) split into the point scoring `decide` starts
with, the Monte Carlo with its stop rule, the decided scoring, the tipping points, the default
effects of the decided ranking, the waterfall, the cells' texts and the plan's value lines; then
the value of information, which the window shows after the bands.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "desktop"), str(REPO), str(REPO / "tests" / "perf")]

from bench_scoring import evaluation_with  # noqa: E402

BIDS = int(os.environ.get("BENCH_BIDS", "50"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))


def one_run(evaluation) -> dict[str, float]:
    from clusterbid.core.comparison_table import rank_resting_on, shown_rows
    from clusterbid.core.scoring import score_evaluation
    from clusterbid.core.uncertainty import analyse_sensitivity, run_monte_carlo
    from clusterbid.core.uncertainty.decision import decide
    from clusterbid.core.uncertainty.plan_value import plan_value_lines
    from clusterbid.core.uncertainty.value_of_information import value_of_information
    from clusterbid.core.uncertainty.waterfall import keep_waterfall
    from clusterbid.gui.outline import outline_rows
    from clusterbid.gui.uncertainty_source import MONTE_CARLO_SAMPLES

    seed, steps = evaluation.policy.random_seed, {}

    def timed(name, work):
        start = time.process_time()
        result = work()
        steps[name] = time.process_time() - start
        return result

    first = timed("table: point scoring", lambda: score_evaluation(evaluation))
    timed("table: default effects", lambda: rank_resting_on(first))
    timed("table: cells' texts and outline", lambda: (shown_rows(first), outline_rows(first)))
    # decide() as the worker runs it, and its parts again apart (the Monte Carlo with its stop rule)
    scorecard, uncertainty = timed(
        "bands: decide (all of the below two)",
        lambda: decide(evaluation, MONTE_CARLO_SAMPLES, seed),
    )
    point = timed("  of it: point scoring", lambda: score_evaluation(evaluation))
    drawn = timed(
        "  of it: Monte Carlo with the stop rule",
        lambda: run_monte_carlo(evaluation, MONTE_CARLO_SAMPLES, seed, scorecard=point),
    )
    steps["  samples drawn"] = float(drawn.samples)
    timed("bands: tipping points", lambda: analyse_sensitivity(evaluation, uncertainty, scorecard))
    timed("bands: default effects (decided)", lambda: rank_resting_on(scorecard))
    timed("bands: waterfall", lambda: keep_waterfall(scorecard, uncertainty))
    timed("bands: cells' texts", lambda: shown_rows(scorecard, uncertainty))
    timed("bands: plan's value lines", lambda: tuple(plan_value_lines(scorecard)))
    timed(
        "then: value of information",
        lambda: value_of_information(evaluation, MONTE_CARLO_SAMPLES, seed),
    )
    return steps


def main() -> None:
    evaluation = evaluation_with(BIDS)
    one_run(evaluation)  # imports and caches warmed, as in a window already open
    runs = [one_run(evaluation) for _ in range(REPEATS)]
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"{BIDS} bids, median of {REPEATS} runs, CPU seconds per step (load {load}):")
    for name in runs[0]:
        figure = statistics.median(run[name] for run in runs)
        print(
            f"  {name:<42} {figure:8.0f}"
            if "samples" in name
            else f"  {name:<42} {figure * 1000:6.0f} ms"
        )


if __name__ == "__main__":
    main()
