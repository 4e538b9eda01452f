"""Value of information for the buyer's own plan (issue 31, item 7): which of the buyer's inputs
(further runs to fill a term, the alternative price of that work and its decline, the worth of
other work, the cost of a day late, the cost of capital that prices payment terms) matters most.

The Monte Carlo draws what the bids state and the specs say; the plan is the buyer's and is not
drawn. Each of its figures is moved across a stated range (nine values, equally likely): each
ranked bid's cost at a value is its decided cost (the policy's basis) plus how far that value moves
its point estimate. Knowing the figure is worth, as for a measurement (section 11), the expected
cost of keeping today's choice across the range less that of choosing the cheapest at each value.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from clusterbid.core.costmodel.payment_terms import COST_OF_CAPITAL_DEFAULT, plan_rate
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.money import format_money
from clusterbid.core.scoring import Scorecard, score_evaluation

STEPS = 9  # values across each range, ends included
FLOAT_FIELDS = (
    "further_runs",
    "alternative_price_decline_percent_per_year",
    "cost_of_capital_percent_per_year",
)
MONEY_FIELDS = ("alternative_price_per_gpu_hour", "idle_value_per_gpu_hour", "delay_cost_per_day")


@dataclass(frozen=True, slots=True)
class PlanAssumptionValue:
    name: str  # the plan's field
    words: str
    stated: float
    low: float
    high: float
    value: float  # expected cost of deciding without knowing it better, evaluation currency
    change_share: float  # share of the range over which another bid is the cheaper choice
    choice_after: dict[str, float]  # bid id -> share of the range over which it is the choice


def _ranges(evaluation: Evaluation) -> list[tuple[str, str, float, float, float]]:
    """(field, words, stated, low, high) for each plan figure that can move a cost here."""
    plan = evaluation.workload.plan
    found = []
    if plan.idle_use == "more-runs":
        runs = float(plan.further_runs or 0)
        found.append(
            ("further_runs", "further runs in reserved time", runs, 0.0, max(2 * runs, 2.0))
        )
        if plan.alternative_price_per_gpu_hour is not None:
            price = float(plan.alternative_price_per_gpu_hour)
            found.append(
                (
                    "alternative_price_per_gpu_hour",
                    "alternative price of that work per GPU-hour",
                    price,
                    0.5 * price,
                    1.5 * price,
                )
            )
            decline = plan.alternative_price_decline_percent_per_year
            found.append(
                (
                    "alternative_price_decline_percent_per_year",
                    "its decline, percent a year",
                    decline,
                    0.0,
                    max(2 * decline, 30.0),
                )
            )
    if plan.idle_use == "other-work" and plan.idle_value_per_gpu_hour is not None:
        worth = float(plan.idle_value_per_gpu_hour)
        found.append(
            (
                "idle_value_per_gpu_hour",
                "worth of other work per idle GPU-hour",
                worth,
                0.0,
                2 * worth,
            )
        )
    if plan.delay_cost_per_day is not None:
        delay = float(plan.delay_cost_per_day)
        found.append(
            ("delay_cost_per_day", "cost of a day past the deadline", delay, 0.0, 2 * delay)
        )
    rate = plan_rate(plan) * 100.0  # prices every bid's payment terms (costmodel/payment_terms.py)
    words = (
        "cost of capital, percent a year"
        if plan.cost_of_capital_percent_per_year is not None
        else "cost of capital, percent a year (ClusterBid's default: give your treasury's figure)"
    )
    found.append(
        (
            "cost_of_capital_percent_per_year",
            words,
            rate,
            min(COST_OF_CAPITAL_DEFAULT.low, rate),
            max(COST_OF_CAPITAL_DEFAULT.high, rate),
        )
    )
    return found


def _with(evaluation: Evaluation, name: str, value: float) -> Evaluation:
    plan = evaluation.workload.plan
    typed = value if name in FLOAT_FIELDS else Decimal(f"{value:.4f}")
    workload = evaluation.workload.model_copy(
        update={"plan": plan.model_copy(update={name: typed})}
    )
    return evaluation.model_copy(update={"workload": workload})


def plan_assumption_values(scorecard: Scorecard) -> tuple[PlanAssumptionValue, ...]:
    """Each plan figure of the scorecard's evaluation, valued across its range, largest first."""
    evaluation = scorecard.evaluation
    ranked = [s.bid.id for s in scorecard.ranked]
    if len(ranked) < 2 or evaluation.workload.kind != "training":
        return ()
    decided = np.array([scorecard.decision_cost(s) for s in scorecard.ranked])
    point = np.array([s.estimate.plan_cost for s in scorecard.ranked])
    values = []
    for name, words, stated, low, high in _ranges(evaluation):
        grid = np.linspace(low, high, STEPS)
        costs = np.empty((len(ranked), STEPS))
        for k, x in enumerate(grid):
            moved = {
                s.bid.id: s.estimate.plan_cost
                for s in score_evaluation(_with(evaluation, name, float(x))).scores
            }
            costs[:, k] = decided + np.array([moved[b] for b in ranked]) - point
        choice = int(np.argmin(decided))
        cheapest = np.argmin(costs, axis=0)
        values.append(
            PlanAssumptionValue(
                name,
                words,
                stated,
                low,
                high,
                value=max(float(costs[choice].mean() - costs.min(axis=0).mean()), 0.0),
                change_share=float(np.mean(cheapest != choice)),
                choice_after={
                    ranked[j]: float(np.mean(cheapest == j)) for j in np.unique(cheapest)
                },
            )
        )
    return tuple(sorted(values, key=lambda v: (-v.value, -v.change_share, v.name)))


def plan_value_sentences(
    values: tuple[PlanAssumptionValue, ...], currency: str, names: dict[str, str]
) -> list[str]:
    """Each plan figure in an officer's words (the command line, the memo and the app say the
    same): what it is now, the range it was moved across, and what knowing it better is worth.
    `names`: bid id -> how the bid is named ('Northwind AI Cloud, H100-SXM')."""

    def figure(v: PlanAssumptionValue, x: float) -> str:
        return format_money(x, currency) if v.name in MONEY_FIELDS else f"{x:g}"

    sentences = []
    for v in values:
        head = (
            f"{v.words[:1].upper()}{v.words[1:]}: {figure(v, v.stated)} now, moved across "
            f"{figure(v, v.low)} to {figure(v, v.high)}"
        )
        if v.change_share <= 0:
            sentences.append(
                f"{head}; the cheapest choice holds across the range (worth nothing to know better)"
            )
            continue
        others = "; ".join(
            f"{names.get(b, b)} over {share:.0%}" for b, share in v.choice_after.items()
        )
        sentences.append(
            f"{head}; knowing it better is worth {format_money(v.value, currency)}: the cheapest "
            f"choice changes over {v.change_share:.0%} of the range ({others})"
        )
    return sentences


def plan_value_lines(scorecard: Scorecard) -> list[str]:
    """The scorecard's plan figures valued and worded: one sentence each, largest value first."""
    # the officer's words, as the memo and the table name a bid, never the evaluation's id
    names = {
        s.bid.id: f"{s.bid.quote.provider}, {s.bid.capacity.gpu_model}" for s in scorecard.scores
    }
    return plan_value_sentences(
        plan_assumption_values(scorecard), scorecard.evaluation.currency, names
    )
