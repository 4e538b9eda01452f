"""How far each unverified input of a bid can move its cost and its cost rank (issue 14).

The tornado's machinery run per bid on the inputs nobody verified: a default or a not-stated figure
or a buyer's assumption is moved to the ends of its documented range, a provider's statement by the
tornado's +/-15%. Measured figures are left out: they are what the decision can lean on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.provenance import DOCUMENTED_DEFAULTS
from clusterbid.core.provenance.resolve import term_applies
from clusterbid.core.uncertainty.model_inputs import ModelInputs, cost_and_hours, select
from clusterbid.core.uncertainty.tornado import SWING

# Dotted document path -> (BidArrays column, document unit -> column unit).
COLUMNS = {
    "reliability.failures_per_1000_gpu_days": ("failures_per_gpu_hour", 1.0 / 1000.0 / 24.0),
    "reliability.node_replacement_hours": ("node_replacement_hours", 1.0),
    "reliability.uptime_sla_percent": ("uptime", 0.01),
    "reliability.storage_write_gb_s": ("storage_write_gb_s", 1.0),
    "reliability.burn_in_hours": ("burn_in_hours", 1.0),
    "reliability.sla_credit_percent": (None, 1.0),  # credits do not enter the cost to finish
    "capacity.spare_pool_gpus": ("spare_pool_gpus", 1.0),
    "terms.early_exit_fee_percent": ("exit_fee_share", 0.01),
    "terms.price_escalation_percent_per_year": ("escalation_per_year", 0.01),
    # Unstated fees are moved as their share of the GPU bill (percent), steps and minimums in hours.
    "terms.one_off_fees": ("one_off_fee_share", 0.01),
    "terms.recurring_fees_per_month": ("recurring_fee_share", 0.01),
    "terms.billing_increment_hours": ("billing_increment_hours", 1.0),
    "terms.minimum_billed_hours": ("minimum_billed_hours", 1.0),
    "terms.payment_terms_days": (None, 1.0),  # no cost of cash is modelled
}


@dataclass(frozen=True, slots=True)
class DefaultEffect:
    """One unverified input of one bid moved across its range, and what that does to the bid."""

    field: str
    kind: str  # provenance kind: default, not_stated, assumption, provider
    label: str
    low: float  # the input at each end, in the document's unit
    high: float
    range_from: str  # "documented range" or "+/-15%"
    cost_low: float  # the bid's net plan cost with the input at `low` / `high`
    cost_high: float
    cost_rank_low: int | None  # its cost rank among the ranked bids then (None: excluded)
    cost_rank_high: int | None

    @property
    def swing(self) -> float:
        return abs(self.cost_high - self.cost_low)

    @property
    def moves_rank(self) -> bool:
        return self.cost_rank_low != self.cost_rank_high

    def to_json(self) -> dict:
        return {
            "field": self.field, "kind": self.kind, "label": self.label, "low": self.low, "high": self.high,
            "range_from": self.range_from, "cost_low": round(self.cost_low, 2),
            "cost_high": round(self.cost_high, 2), "cost_swing": round(self.swing, 2),
            "cost_rank_low": self.cost_rank_low, "cost_rank_high": self.cost_rank_high,
        }


def _ends(path: str, kind: str, value: float) -> tuple[float, float, str]:
    default = DOCUMENTED_DEFAULTS.get(path)
    if kind in ("default", "not_stated", "assumption") and default is not None:
        # An assumption is no better checked than a default: the documented range, stretched to
        # hold the assumed figure when the buyer assumed beyond it.
        return min(default.low, value), max(default.high, value), "documented range"
    if path == "reliability.uptime_sla_percent":  # moved through the downtime it allows, as the tornado
        downtime = 100.0 - value
        return 100.0 - downtime * (1.0 + SWING), 100.0 - downtime * (1.0 - SWING), "+/-15% of downtime"
    return value * (1.0 - SWING), value * (1.0 + SWING), "+/-15%"


def _rank(cost: float, others: list[float]) -> int:
    return 1 + sum(other < cost for other in others)


def default_effects(inputs: ModelInputs, evaluation) -> dict[str, list[DefaultEffect]]:
    """Per bid id, its unverified inputs: those that change its cost rank first, then by cost swing."""
    ranked = [s.bid.id for s in inputs.scorecard.ranked]
    rows = [inputs.ids.index(bid_id) for bid_id in ranked]
    point = np.broadcast_to(cost_and_hours(inputs.workload, select(inputs.arrays, rows))[0], (len(rows),))
    point_cost = dict(zip(ranked, (float(c) for c in point)))
    result: dict[str, list[DefaultEffect]] = {}
    for bid in evaluation.bids:
        one = select(inputs.arrays, [inputs.ids.index(bid.id)])
        others = [cost for other, cost in point_cost.items() if other != bid.id]
        effects = []
        for path, source in sorted(bid.provenance.items()):
            column, scale = COLUMNS.get(path, (None, 1.0))
            if source.kind == "measured" or column is None or not term_applies(bid, path):
                continue  # (an exit fee without an exit clause, an escalation on demand: no effect)
            value = float(getattr(one, column)[0]) / scale
            low, high, range_from = _ends(path, source.kind, value)
            pair = select(one, [0, 0]).replace(**{column: np.array([low * scale, high * scale])})
            cost_low, cost_high = (float(c) for c in np.broadcast_to(cost_and_hours(inputs.workload, pair)[0], (2,)))
            ranks = (_rank(cost_low, others), _rank(cost_high, others)) if bid.id in point_cost else (None, None)
            effects.append(DefaultEffect(path, source.kind, source.label, low, high, range_from,
                                         cost_low, cost_high, *ranks))
        result[bid.id] = sorted(effects, key=lambda e: (not e.moves_rank, -e.swing, e.field))
    return result


def scorecard_default_effects(scorecard) -> dict[str, list[DefaultEffect]]:
    """`default_effects` of a scorecard's evaluation, on the arrays its point estimate used."""
    from clusterbid.core.uncertainty.model_inputs import model_inputs

    return default_effects(model_inputs(scorecard.evaluation, scorecard), scorecard.evaluation)
