"""CPU seconds the value of information adds to a serving request pack (issue 37), on the serving
demo: the pack alone (what `request-evidence` built before it was ranked), the serving draws at
the CLI's default 20,000 samples, and their valuation (value_of_information's binning estimator),
each in a fresh child process, rounds interleaved so that load falls on all alike. Medians
printed, with the load average before and after.

Run: python tests/perf/bench_serving_value.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHILD = """
import datetime as dt, json, sys, time
from pathlib import Path
sys.path.insert(0, {desktop!r})
from clusterbid.core.documents import read_evaluation
from clusterbid.core.evidence_request.serving_build import build_serving_pack
from clusterbid.core.serving_scoring import serving_run
from clusterbid.core.uncertainty.serving_montecarlo import draw_serving
from clusterbid.core.uncertainty.serving_value import value_of_draws
evaluation = read_evaluation(Path({demo!r}))
day = dt.date(2026, 11, 26)
build_serving_pack(evaluation, "quarry-h100", day, day + dt.timedelta(days=14))  # imports warm
clock = time.process_time
start = clock()
build_serving_pack(evaluation, "quarry-h100", day, day + dt.timedelta(days=14))
pack = clock() - start
start = clock()
seed = evaluation.policy.random_seed
run, gated = serving_run(evaluation)
drawn = draw_serving(run, 20_000, seed)
draws = clock() - start
start = clock()
voi = value_of_draws(run, gated, drawn, seed)
valued = clock() - start
start = clock()
build_serving_pack(evaluation, "quarry-h100", day, day + dt.timedelta(days=14), voi)
ranked = clock() - start
print(json.dumps([pack, draws, valued, ranked]))
"""


def one_round() -> list[float]:
    code = CHILD.format(
        desktop=str(REPO / "desktop"),
        demo=str(REPO / "resources" / "examples" / "demo-serving-evaluation.json"),
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    return [float(x) for x in json.loads(done.stdout.strip().splitlines()[-1])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    load = os.getloadavg()[0]
    rows = [one_round() for _ in range(rounds)]
    pack, draws, valued, ranked = (statistics.median(column) for column in zip(*rows))
    print(
        f"serving demo, quarry-h100, {rounds} rounds, load {load:.2f} -> {os.getloadavg()[0]:.2f}"
    )
    print(f"  pack alone (before):          {pack * 1000:8.1f} CPU ms")
    print(f"  serving draws, 20,000:        {draws * 1000:8.1f} CPU ms")
    print(f"  valuation (binning):          {valued * 1000:8.1f} CPU ms")
    print(f"  pack ranked by the values:    {ranked * 1000:8.1f} CPU ms")
    print(f"  added by the value of info:   {(draws + valued + ranked - pack) * 1000:8.1f} CPU ms")


if __name__ == "__main__":
    main()
