"""How far each unverified input of a bid can move its cost and its cost rank (issue 14).

The tornado's machinery run per bid on the inputs nobody verified: a default or a not-stated figure
or a buyer's assumption is moved to the ends of its documented range, a provider's statement by the
tornado's +/-15%. Measured figures are left out: they are what the decision can lean on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from clusterbid.core.costmodel.bid_rows import same_workload
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
    # The credit enters the net cost only as the claimable credit (costmodel/sla_credit.py), not
    # moved across a range here.
    "reliability.sla_credit_percent": (None, 1.0),
    "capacity.spare_pool_gpus": ("spare_pool_gpus", 1.0),
    "terms.early_exit_fee_percent": ("exit_fee_share", 0.01),
    "terms.price_escalation_percent_per_year": ("escalation_per_year", 0.01),
    # Unstated fees are moved as their share of the GPU bill (percent), steps and minimums in hours.
    "terms.one_off_fees": ("one_off_fee_share", 0.01),
    "terms.recurring_fees_per_month": ("recurring_fee_share", 0.01),
    "terms.billing_increment_hours": ("billing_increment_hours", 1.0),
    "terms.minimum_billed_hours": ("minimum_billed_hours", 1.0),
    "terms.payment_terms_days": (
        "payment_days",
        1.0,
    ),  # priced as the cost of cash (payment_terms.py)
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
            "field": self.field,
            "kind": self.kind,
            "label": self.label,
            "low": self.low,
            "high": self.high,
            "range_from": self.range_from,
            "cost_low": round(self.cost_low, 2),
            "cost_high": round(self.cost_high, 2),
            "cost_swing": round(self.swing, 2),
            "cost_rank_low": self.cost_rank_low,
            "cost_rank_high": self.cost_rank_high,
        }


def _ends(path: str, kind: str, value: float) -> tuple[float, float, str]:
    default = DOCUMENTED_DEFAULTS.get(path)
    if kind in ("default", "not_stated", "assumption") and default is not None:
        # An assumption is no better checked than a default: the documented range, stretched to
        # hold the assumed figure when the buyer assumed beyond it.
        return min(default.low, value), max(default.high, value), "documented range"
    if (
        path == "reliability.uptime_sla_percent"
    ):  # moved through the downtime it allows, as the tornado
        downtime = 100.0 - value
        return (
            100.0 - downtime * (1.0 + SWING),
            100.0 - downtime * (1.0 - SWING),
            "+/-15% of downtime",
        )
    return value * (1.0 - SWING), value * (1.0 + SWING), "+/-15%"


@dataclass(frozen=True, slots=True)
class _Move:
    """One input of one bid to be moved to both ends of its range (before its costs are known)."""

    bid_id: str
    row: int  # the bid's row in the model inputs' arrays
    kind: str
    label: str
    low: float
    high: float
    range_from: str


def _moves(inputs: ModelInputs, evaluation, rows: dict[str, int]) -> dict[str, list[_Move]]:
    """Per document path, every bid's unverified input there, in the bids' order."""
    moves: dict[str, list[_Move]] = {}
    for bid in evaluation.bids:
        row = rows[bid.id]
        for path, source in sorted(bid.provenance.items()):
            column, scale = COLUMNS.get(path, (None, 1.0))
            if source.kind == "measured" or column is None or not term_applies(bid, path):
                continue  # (an exit fee without an exit clause, an escalation on demand: no effect)
            value = float(getattr(inputs.arrays, column)[row]) / scale
            low, high, range_from = _ends(path, source.kind, value)
            moves.setdefault(path, []).append(
                _Move(bid.id, row, source.kind, source.label, low, high, range_from)
            )
    return moves


def default_effects(inputs: ModelInputs, evaluation) -> dict[str, list[DefaultEffect]]:
    """Per bid id, its unverified inputs: those that change its cost rank first, then by cost swing.

    One run of the cost model per input over every bid that leaves it unverified (each bid twice:
    the input at its low end, then its high end), not one run per bid per input: the model is
    elementwise over bids, so the figures are those of the per-bid runs, at a fraction of the
    cost (issue 32: 34x the scoring at 50 bids, run on every edit)."""
    rows: dict[str, int] = {}  # bid id -> its row in the arrays (the first, as list.index finds)
    for row, bid_id in enumerate(inputs.ids):
        rows.setdefault(bid_id, row)
    ranked = [s.bid.id for s in inputs.scorecard.ranked]
    point = np.broadcast_to(
        cost_and_hours(inputs.workload, select(inputs.arrays, [rows[i] for i in ranked]))[0],
        (len(ranked),),
    )
    point_cost = dict(zip(ranked, (float(c) for c in point)))
    ordered = np.sort(np.fromiter(point_cost.values(), dtype=float, count=len(point_cost)))
    found: dict[str, list[DefaultEffect]] = {bid.id: [] for bid in evaluation.bids}
    for path, moves in _moves(inputs, evaluation, rows).items():
        column, scale = COLUMNS[path]
        both = select(inputs.arrays, [m.row for m in moves for _ in (0, 1)])
        ends = np.array([end * scale for m in moves for end in (m.low, m.high)])
        costs = np.broadcast_to(
            cost_and_hours(inputs.workload, both.replace(**{column: ends}))[0], ends.shape
        )
        # A bid's cost rank among the others' point costs: how many cost strictly less, itself left out.
        below = np.searchsorted(ordered, costs, side="left")
        for i, move in enumerate(moves):
            cost_low, cost_high = float(costs[2 * i]), float(costs[2 * i + 1])
            own = point_cost.get(move.bid_id)  # None: gated, no rank
            rank_low = None if own is None else 1 + int(below[2 * i]) - (own < cost_low)
            rank_high = None if own is None else 1 + int(below[2 * i + 1]) - (own < cost_high)
            found[move.bid_id].append(
                DefaultEffect(
                    path,
                    move.kind,
                    move.label,
                    move.low,
                    move.high,
                    move.range_from,
                    cost_low,
                    cost_high,
                    rank_low,
                    rank_high,
                )
            )
    return {
        bid_id: sorted(effects, key=lambda e: (not e.moves_rank, -e.swing, e.field))
        for bid_id, effects in found.items()
    }


def scorecard_default_effects(scorecard) -> dict[str, list[DefaultEffect]]:
    """`default_effects` of a scorecard's evaluation, on the arrays its point estimate used;
    computed once per scorecard and kept on it (the table, the details and the memo share it)."""
    from clusterbid.core.uncertainty.model_inputs import model_inputs

    derived = getattr(scorecard, "derived", {})  # {}: a stand-in scorecard keeps nothing
    if not reuse_default_effects(scorecard, derived):
        derived["default_effects"] = default_effects(
            model_inputs(scorecard.evaluation, scorecard), scorecard.evaluation
        )
        LAST_EFFECTS["kept"] = (effects_key(scorecard), derived["default_effects"])
    return cast("dict[str, list[DefaultEffect]]", derived["default_effects"])


def reuse_default_effects(scorecard, derived: dict | None = None) -> bool:
    """Whether the scorecard's default effects are known without running the model: kept on it,
    or those of the last scorecard of the same bids and costs (a weights edit), then kept on it.
    The scoring worker derives the findings at once then; else they follow the table (issue 32)."""
    derived = getattr(scorecard, "derived", {}) if derived is None else derived
    if "default_effects" in derived:
        return True
    kept = LAST_EFFECTS.get("kept")
    if kept is not None and same_effects_key(kept[0], effects_key(scorecard)):
        derived["default_effects"] = kept[1]  # a weights edit: same bids, same costs
        return True
    return False


def known_default_effects(scorecard) -> dict[str, list[DefaultEffect]] | None:
    """The default effects kept on the scorecard, None while a worker is still deriving them: the
    Details pane shows what it has and never runs the model on the window's thread (issue 32)."""
    derived = getattr(scorecard, "derived", None)
    if derived is None:
        return scorecard_default_effects(scorecard)  # a stand-in keeps nothing: as before
    return cast("dict[str, list[DefaultEffect]] | None", derived.get("default_effects"))


# The last effects computed, with what they depend on: the workload, the bids (frozen: the same
# objects are the same inputs), their exchange rates and which bids are ranked. The weights and
# the decided order do not enter them, so a weights edit (a slider drag) reuses them whole
# (issue 32 item 1: about 100 ms CPU per edit at 500 bids).
LAST_EFFECTS: dict[str, tuple[tuple, dict[str, list[DefaultEffect]]]] = {}


def effects_key(scorecard) -> tuple:
    evaluation = scorecard.evaluation
    rates = tuple(
        float(evaluation.rate_to_evaluation_currency(b.terms.currency)) for b in evaluation.bids
    )
    ranked = frozenset(s.bid.id for s in scorecard.ranked)
    return (evaluation.workload, tuple(evaluation.bids), rates, ranked)


def same_effects_key(kept: tuple, key: tuple) -> bool:
    return (
        len(kept[1]) == len(key[1])
        and all(a is b for a, b in zip(kept[1], key[1], strict=True))
        and kept[2:] == key[2:]
        and same_workload(kept[0], key[0])
    )
