"""Evaluations of any size built from the demo: bid i is a copy of demo bid i mod 6 with its own
id, provider name and price, for the memo at the sizes officers use (issue 32).

Shared by the tests and tests/perf/bench_memo.py. A copy differs from its demo bid only in name
and price, so it passes or fails the same gates, and among copies of one demo bid the cheaper
ranks higher (every other criterion is the same).
"""

from __future__ import annotations

from decimal import Decimal

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation


def price_factor(index: int) -> Decimal:
    """0.800 to 1.299 of the demo bid's price; 389 and 500 share no factor, so the first 500
    copies all differ."""
    return Decimal(800 + (index * 389) % 500) / 1000


def copy_price(demo_price: Decimal, index: int) -> Decimal:
    """To the 4 decimals a price takes; copies of one demo bid still differ (by 0.001 x price)."""
    return (demo_price * price_factor(index)).quantize(Decimal("0.0001"))


def copy_id(demo_id: str, index: int) -> str:
    return f"{demo_id}-{index:04d}"


def demo_copies(count: int) -> Evaluation:
    demo = demo_evaluation()
    bids = []
    for index in range(count):
        bid = demo.bids[index % len(demo.bids)].model_dump()
        bid["id"] = copy_id(bid["id"], index)
        bid["quote"]["provider"] = f"{bid['quote']['provider']} {index:04d}"
        bid["terms"]["price_per_gpu_hour"] = copy_price(bid["terms"]["price_per_gpu_hour"], index)
        bids.append(bid)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})
