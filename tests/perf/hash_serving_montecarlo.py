"""Fingerprints of the serving Monte Carlo's results (issue 37 item 5): a speed-up must leave every
figure identical to the last bit, so this hashes, for each case, the summary serving_uncertainty
returns (every band, chance, fleet for approval, targets-at-peak share, pairwise chance, draws
count; float repr round-trips exactly) and the raw draws behind it (every per-draw array's bytes).

Cases: the serving demo, the demo with the bench's burst settings (6 peak hours a day, every bid
offering burst at $4.00), the demo with 5%/month traffic growth, and 50 bids built from the demo's
five (prices and GPUs offered varied), each at the default run (adaptive stop) and 20,000 draws.

Run: PYTHONPATH=desktop python tests/perf/hash_serving_montecarlo.py [--save FILE | --check FILE]
(--save on the commit before a change, --check after it. serving_montecarlo_hashes.json beside
this script holds the figures of commit ea4e911 and of the speed-ups of issue 37 item 5 after it,
which left them unchanged; any change that moves a figure on purpose makes it stale: save anew.)
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "resources" / "examples" / "demo-serving-evaluation.json"


def _burst(data: dict) -> dict:
    data["workload"]["peak_hours_per_day"] = 6
    for bid in data["bids"]:
        bid["terms"]["burst_price_per_gpu_hour"] = "4.00"
    return data


def _growth(data: dict) -> dict:
    data["workload"]["traffic_growth_percent_per_month"] = 5.0
    return data


def _fifty(data: dict) -> dict:
    bids = []
    for n in range(50):
        bid = copy.deepcopy(data["bids"][n % len(data["bids"])])
        bid["id"] = f"{bid['id']}-{n:02d}"
        price = float(bid["terms"]["price_per_gpu_hour"]) * (0.8 + 0.4 * ((n * 7) % 11) / 10)
        bid["terms"]["price_per_gpu_hour"] = f"{price:.2f}"
        per_node = bid["capacity"]["gpus_per_node"]
        least = max(
            bid["topology"]["leaf_domain_gpus"], bid["capacity"]["largest_contiguous_block_gpus"]
        )
        offered = max(per_node * (4, 8, 16, 32, 64)[(n * 3) % 5], least)
        bid["capacity"]["gpus_offered"] = offered
        bids.append(bid)
    data["bids"] = bids
    return data


CASES = {"demo": lambda d: d, "burst": _burst, "growth": _growth, "fifty": _fifty}


def fingerprint(case: str, samples: int | None) -> str:
    from clusterbid.core.costmodel.serving_estimate import estimate_serving
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.uncertainty import serving_montecarlo as mc

    data = CASES[case](json.loads(DEMO.read_text(encoding="utf-8")))
    evaluation = Evaluation.model_validate(data)
    estimates = estimate_serving(evaluation.workload, evaluation.bids)
    drawn = mc.draw_serving(estimates, samples, mc.SEED)
    result = mc.summarise(estimates, drawn, mc.SEED)
    again = mc.serving_uncertainty(estimates, samples, mc.SEED)
    assert repr(again) == repr(result), "serving_uncertainty differs from draw_serving + summarise"
    digest = hashlib.sha256(repr(result).encode())
    for name in ("per_million", "monthly", "gpus", "slo", "eligible", "mbu", "payment_days"):
        array = np.ascontiguousarray(getattr(drawn, name))
        digest.update(f"{name}{array.shape}{array.dtype}".encode())
        digest.update(array.tobytes())
    digest.update(repr(drawn.months).encode())
    return f"{digest.hexdigest()[:16]} samples={result.samples}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save", type=Path)
    parser.add_argument("--check", type=Path)
    args = parser.parse_args()
    prints = {
        f"{case} {samples}": fingerprint(case, samples)
        for case in CASES
        for samples in (None, 20_000)
    }
    for key, value in prints.items():
        print(f"{key:<16} {value}")
    if args.save:
        args.save.write_text(json.dumps(prints, indent=1) + "\n", encoding="utf-8")
    if args.check:
        kept = json.loads(args.check.read_text(encoding="utf-8"))
        differ = [key for key in kept if kept[key] != prints.get(key)]
        print("identical" if not differ else f"DIFFER: {differ}")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
