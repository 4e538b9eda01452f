"""Issue 37 item 5: what a serving draw costs, held against a training draw measured in the same
child process, and the cells every draw skips shown to change no figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty import serving_montecarlo as mc
from clusterbid.core.uncertainty.serving_bands import fleet_at

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
# CPU seconds per bid per draw, serving (4,096 draws of its demo) over training (16,384 draws of
# its demo), five interleaved pairs in one child, median (load falls on both alike). Measured on
# 2026-11-26: 56-71 before the unreachable cells were left out and the all-reduces worked out once
# per bid, 36-37 after. On 2026-11-27 (load average 4.5 on 2 cores), each bid's cells timed, sized
# and ranked as (cells x draws) arrays (serving_passes): 11.7 and 13.1, against 36.5 and 43.2 for
# the commit before in the same minute. On 2026-11-27 (load average 4.9), a pass's arrays kept
# from pass to pass (serving_cells.Scratch), passes of 4,096 draws, only the rows a draw can need
# (serving_rows) and the check at peak on the cells that can meet: 7.9-8.8 against 11.3-11.9 for
# the commit before in the same minute. On 2026-11-27 (load average 1.5), the queueing headroom
# without copies, fewer fleets sized and the check at peak from the costed batch: 7.9-8.4 against
# 9.5-9.6 for the commit before in the same minute (resources/docs/benchmarks.md). The goal (about
# 1) is not met; this holds what was gained, at about twice the larger figure (the ratio moves
# with the machine's load: the commit before measured 7.9-8.8 at load 4.9 and 9.5 at 1.5).
SERVING_OVER_TRAINING_AT_MOST = 18.0


def _demo() -> Evaluation:
    data = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text(encoding="utf-8"))
    return Evaluation.model_validate(data)


def _everything(w, base, batches, allowed):  # type: ignore[no-untyped-def]
    """The whole search, every bid kept: what the Monte Carlo drew before cells were left out."""
    return np.ones(base.hbm_efficiency.size, dtype=bool), w, batches, allowed


def test_leaving_out_what_no_draw_reaches_changes_no_figure_of_the_bands(monkeypatch):
    demo = _demo()
    estimates = estimate_serving(demo.workload, demo.bids)
    pruned = mc.serving_uncertainty(estimates, samples=600, seed=7)
    monkeypatch.setattr(mc, "reachable", _everything)
    whole = mc.serving_uncertainty(estimates, samples=600, seed=7)
    assert pruned.cheaper_than == whole.cheaper_than
    for cut, full in zip(pruned.bands, whole.bands, strict=True):
        assert cut.bid_id == full.bid_id
        np.testing.assert_array_equal(cut.cost_per_million, full.cost_per_million)
        np.testing.assert_array_equal(cut.monthly_cost, full.monthly_cost)
        assert cut.chance_cheapest == full.chance_cheapest
        assert cut.fleet_at_percentile == full.fleet_at_percentile
        np.testing.assert_array_equal(cut.chance_meets_slo_at_peak, full.chance_meets_slo_at_peak)
    # The demo has a bid that serves in some draws and one cheapest in most: not a vacuous match.
    assert any(b.chance_cheapest > 0.3 for b in pruned.bands)


CHILD = """
import json, statistics, time
from pathlib import Path
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import run_monte_carlo
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.uncertainty.serving_montecarlo import serving_uncertainty
ex = Path({examples!r})
def load(name):
    return Evaluation.model_validate(json.loads((ex / name).read_text(encoding="utf-8")))
training, serving = load("demo-evaluation.json"), load("demo-serving-evaluation.json")
card, estimates = score_evaluation(training), estimate_serving(serving.workload, serving.bids)
run_monte_carlo(training, 256, precision=None, scorecard=card)  # imports and caches warm
serving_uncertainty(estimates, samples=256)
ratios = []
for _ in range(5):
    start = time.process_time()
    run_monte_carlo(training, 16_384, precision=None, scorecard=card)
    middle = time.process_time()
    serving_uncertainty(estimates, samples=4096)
    end = time.process_time()
    per_training = (middle - start) / len(training.bids) / 16_384
    ratios.append((end - middle) / len(serving.bids) / 4096 / per_training)
print(json.dumps(statistics.median(ratios)))
"""


def test_a_serving_draw_costs_within_a_bound_of_a_training_draw_per_bid():
    code = CHILD.format(examples=str(EXAMPLES))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ratio = json.loads(done.stdout.strip().splitlines()[-1])
    assert 0 < ratio <= SERVING_OVER_TRAINING_AT_MOST, ratio


def test_the_fleet_for_approval_is_the_stable_sorts_draw_at_the_percentile():
    """serving_bands.fleet_at picks its draw without sorting (issue 37 item 5): on random bills
    with many ties (whole-node bills tie often) and unservable draws, it is the draw a stable
    sort of the serving draws' bills puts at the percentile's place, written out here."""
    rng = np.random.default_rng(37)
    for _ in range(2_000):
        n = int(rng.integers(1, 60))
        monthly = rng.integers(0, 6, n).astype(float) * 730.0
        monthly[rng.random(n) < 0.2] = np.nan
        gpus = rng.integers(0, 64, (2, n)).astype(float)
        percentile = int(rng.choice([1, 50, 80, 90, 100]))
        serving = [i for i in range(n) if np.isfinite(monthly[i])]
        if not serving:
            assert fleet_at(monthly, gpus, percentile) is None
            continue
        ordered = sorted(serving, key=lambda i: monthly[i])  # Python's sort is stable
        place = max(-(-percentile * len(serving) // 100) - 1, 0)  # ceil(p% of n) - 1
        at = ordered[place]
        assert fleet_at(monthly, gpus, percentile) == (
            int(gpus[0, at]),
            int(gpus[1, at]),
            float(monthly[at]),
        )
