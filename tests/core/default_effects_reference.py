"""The default-effects pass as it was first written: the cost model re-run once per bid per
unverified input, and ranks counted one comparison at a time. Kept as the independent reference
the vectorised pass (core/uncertainty/default_effects.py) must agree with, and as the "before"
of tests/perf/bench_gui.py."""

from __future__ import annotations

import numpy as np

from clusterbid.core.provenance.resolve import term_applies
from clusterbid.core.uncertainty.default_effects import COLUMNS, DefaultEffect, _ends
from clusterbid.core.uncertainty.model_inputs import ModelInputs, cost_and_hours, select


def _rank(cost: float, others: list[float]) -> int:
    return 1 + sum(other < cost for other in others)


def per_bid_default_effects(inputs: ModelInputs, evaluation) -> dict[str, list[DefaultEffect]]:
    ranked = [s.bid.id for s in inputs.scorecard.ranked]
    rows = [inputs.ids.index(bid_id) for bid_id in ranked]
    point = np.broadcast_to(
        cost_and_hours(inputs.workload, select(inputs.arrays, rows))[0], (len(rows),)
    )
    point_cost = dict(zip(ranked, (float(c) for c in point)))
    result: dict[str, list[DefaultEffect]] = {}
    for bid in evaluation.bids:
        one = select(inputs.arrays, [inputs.ids.index(bid.id)])
        others = [cost for other, cost in point_cost.items() if other != bid.id]
        effects = []
        for path, source in sorted(bid.provenance.items()):
            column, scale = COLUMNS.get(path, (None, 1.0))
            if source.kind == "measured" or column is None or not term_applies(bid, path):
                continue
            value = float(getattr(one, column)[0]) / scale
            low, high, range_from = _ends(path, source.kind, value)
            pair = select(one, [0, 0]).replace(**{column: np.array([low * scale, high * scale])})
            cost_low, cost_high = (
                float(c) for c in np.broadcast_to(cost_and_hours(inputs.workload, pair)[0], (2,))
            )
            ranks = (
                (_rank(cost_low, others), _rank(cost_high, others))
                if bid.id in point_cost
                else (None, None)
            )
            effects.append(
                DefaultEffect(
                    path,
                    source.kind,
                    source.label,
                    low,
                    high,
                    range_from,
                    cost_low,
                    cost_high,
                    *ranks,
                )
            )
        result[bid.id] = sorted(effects, key=lambda e: (not e.moves_rank, -e.swing, e.field))
    return result
