"""Why the winner wins (issue 34, item 2): a waterfall from the runner-up's net plan cost to the
recommended bid's, split into named parts that sum exactly to the difference.

The parts come from substituting the recommended bid's figures into the runner-up's, one group
at a time and in a fixed order (price, then scaling and network, goodput, the term and idle value,
fees and exit): each part is what that group's swap moves the point estimate's net plan cost,
so the five telescope to the difference of the two point estimates. The sixth part, the evidence
haircut, is what the draws move the difference beyond the point figures (claims centred below
what they state, unstated figures across their ranges), as the decision basis ranks them.
Rounded to cents, the haircut takes the rounding, so the parts add up to the cent.

Each part's P10-P90 is the same substitution run on every Monte Carlo draw (same seed, same
draws as the bands); the haircut's is the draws' difference less the point estimates'.
Methodology section 7.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars
from clusterbid.core.money import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.core.uncertainty.model_inputs import cost_and_hours, model_inputs, select
from clusterbid.core.uncertainty.sampling import drawn_arrays, setup
from clusterbid.core.uncertainty.spreads import Spreads

# (name as shown, the BidArrays columns swapped), in the order they are swapped in.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Price per GPU-hour",
        (
            "price_per_gpu_hour",
            "escalation_per_year",
            "billing_increment_hours",
            "minimum_billed_hours",
        ),
    ),
    (
        "Scaling and network",
        (
            "peak_flops",
            "hbm_gb",
            "nvlink_busbw_gb_s",
            "nvlink_domain_gpus",
            "gpus_per_node",
            "node_busbw_gb_s",
            "nic_gb_s_per_gpu",
            "step_latency_s",
            "oversubscription_ratio",
            "leaf_domain_gpus",
            "contiguous_block_gpus",
            "gpus_offered",
            "multi_node_training_ok",
            "baseline_mfu",
            "busbw_spans_leaves",
        ),
    ),
    # Goodput: the time lost to failures, restarts, downtime and burn-in; the start date (hours to
    # the deadline) goes with it, since it is the other way a bid finishes later.
    (
        "Goodput and schedule",
        (
            "spare_pool_gpus",
            "failures_per_gpu_hour",
            "node_replacement_hours",
            "uptime",
            "storage_write_gb_s",
            "burn_in_hours",
            "hours_to_deadline",
        ),
    ),
    (
        "Term and idle value",
        ("billing_kind", "billed_gpus", "term_hours", "committed_spend", "committed_gpu_hours"),
    ),
    (
        "Fees and exit",
        (
            "one_off_fees",
            "recurring_fees_per_month",
            "one_off_fee_share",
            "recurring_fee_share",
            "exit_allowed",
            "exit_fee_share",
        ),
    ),
)
HAIRCUT = "Evidence haircut"


@dataclass(frozen=True, slots=True)
class WaterfallPart:
    name: str
    amount: float  # recommended minus runner-up, evaluation currency, to the cent (< 0: saves)
    p10: float
    p90: float


@dataclass(frozen=True, slots=True)
class Waterfall:
    runner_up: str  # bid ids
    winner: str
    start: float  # the runner-up's net plan cost on the decision basis, to the cent
    end: float  # the recommended bid's
    parts: tuple[WaterfallPart, ...]
    samples: int  # draws behind the bands (0: none, the bands equal the amounts)

    def to_json(self, currency: str) -> dict[str, object]:
        """Amounts in `currency` (the evaluation's), recommended minus runner-up: < 0 saves."""
        return {
            "currency": currency,
            "runner_up": self.runner_up,
            "recommended": self.winner,
            "runner_up_net_cost": self.start,
            "recommended_net_cost": self.end,
            "samples": self.samples,
            "parts": [
                {
                    "part": p.name,
                    "amount": p.amount,
                    "p10": round(p.p10, 2) + 0.0,
                    "p90": round(p.p90, 2) + 0.0,
                }
                for p in self.parts
            ],
        }


def substitution_steps(
    w: WorkloadScalars, runner_up: BidArrays, winner: BidArrays
) -> list[np.ndarray]:
    """The net plan cost after each group of the winner's figures is swapped into the runner-up's:
    len(GROUPS) + 1 arrays, the first the runner-up's own cost, the last the winner's."""
    current = runner_up
    costs = [np.asarray(cost_and_hours(w, current)[0], dtype=float)]
    for _, columns in GROUPS:
        current = current.replace(**{c: getattr(winner, c) for c in columns})
        costs.append(np.asarray(cost_and_hours(w, current)[0], dtype=float))
    return costs


def signed_money(amount: float, currency: str) -> str:
    """A change as a board reads it: "+$1,200" or "-$1,200" ("$0" when nothing moves)."""
    if round(amount) == 0:
        return format_money(0.0, currency)
    return ("-" if amount < 0 else "+") + format_money(abs(amount), currency)


def _cents(value: float) -> float:
    return round(float(value), 2)


def waterfall(
    scorecard: Scorecard,
    uncertainty: object = None,
    winner: BidScore | None = None,
    spreads: Spreads | None = None,
) -> Waterfall | None:
    """The waterfall from the bid next by score to `winner` (the first-ranked bid unless given:
    an override names its own), or None with fewer than two passing bids or a serving scorecard.
    `uncertainty`: the Monte Carlo whose seed and sample count the bands reuse (None: no bands)."""
    evaluation = scorecard.evaluation
    ranked = scorecard.ranked
    if evaluation.workload.kind != "training" or len(ranked) < 2:
        return None
    winner = winner or ranked[0]
    runner = next(s for s in ranked if s is not winner)
    inputs = model_inputs(evaluation, scorecard)
    rows = [inputs.ids.index(runner.bid.id), inputs.ids.index(winner.bid.id)]
    both = select(inputs.arrays, rows)
    one = lambda k: both.replace(**{f: getattr(both, f)[k : k + 1] for f in both.__slots__})  # noqa: E731
    point = [float(c[0]) for c in substitution_steps(inputs.workload, one(0), one(1))]
    start, end = _cents(scorecard.decision_cost(runner)), _cents(scorecard.decision_cost(winner))
    amounts = [_cents(b) - _cents(a) for a, b in zip(point, point[1:])]
    haircut = round((end - start) - sum(amounts), 2)  # the draws' shift, and the cents' rounding
    bands = _bands(scorecard, uncertainty, runner.bid.id, winner.bid.id, point, spreads)
    names = [name for name, _ in GROUPS] + [HAIRCUT]
    parts = tuple(
        WaterfallPart(n, round(a, 2), *(bands[k] if bands else (a, a)))
        for k, (n, a) in enumerate(zip(names, [*amounts, haircut]))
    )
    return Waterfall(
        runner.bid.id, winner.bid.id, start, end, parts, bands_count(uncertainty) if bands else 0
    )


def bands_count(uncertainty: object) -> int:
    return int(getattr(uncertainty, "samples", 0) or 0)


def _bands(
    scorecard: Scorecard,
    uncertainty: object,
    runner: str,
    winner: str,
    point: list[float],
    spreads: Spreads | None,
) -> list[tuple[float, float]] | None:
    """P10 and P90 of each part over the draws of `uncertainty` (its seed and count), or None."""
    samples = bands_count(uncertainty)
    if samples <= 0:
        return None
    drawn = setup(
        scorecard.evaluation,
        int(uncertainty.seed),
        spreads or Spreads(),
        scorecard,
        only=(runner, winner),
    )
    if drawn is None or {runner, winner} - set(drawn.ids):
        return None
    steps: list[list[np.ndarray]] = [[] for _ in range(len(GROUPS) + 1)]
    for n, arrays in drawn_arrays(drawn, samples):
        wide = {
            bid: a.replace(**{f: np.broadcast_to(getattr(a, f), (n,)) for f in a.__slots__})
            for bid, a in arrays.items()
        }
        for k, cost in enumerate(substitution_steps(drawn.workload, wide[runner], wide[winner])):
            steps[k].append(np.broadcast_to(cost, (n,)))
    costs = np.array([np.concatenate(s) for s in steps])  # (steps, samples)
    parts = list(np.diff(costs, axis=0))
    parts.append((costs[-1] - costs[0]) - (point[-1] - point[0]))
    return [(float(np.percentile(p, 10)), float(np.percentile(p, 90))) for p in parts]


def keep_waterfall(scorecard: Scorecard, uncertainty: object) -> Waterfall | None:
    """The first-ranked bid's waterfall, kept on the scorecard (derived) for the views that show
    it: computed once, off the window's thread, with the draws behind the bands."""
    derived = getattr(scorecard, "derived", {})
    if "waterfall" not in derived:
        derived["waterfall"] = waterfall(scorecard, uncertainty)
    found = derived["waterfall"]
    return found if isinstance(found, Waterfall) else None


def kept_waterfall(scorecard: Scorecard) -> Waterfall | None:
    """The waterfall keep_waterfall left on the scorecard, or None (not computed yet)."""
    found = getattr(scorecard, "derived", {}).get("waterfall")
    return found if isinstance(found, Waterfall) else None
