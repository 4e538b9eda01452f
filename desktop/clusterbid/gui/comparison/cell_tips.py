"""What the comparison table's tooltips say about one bid: its gates, flags and what its rank
rests on, its band, its weighted score and its contract. Apart from the table model
(scorecard_table_model.py), which keeps the rows, their texts and their order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clusterbid.core.contract_summary import billing_words, contract_lines
from clusterbid.core.criteria import criterion_words
from clusterbid.core.money import format_money
from clusterbid.core.ranking import BidScore

if TYPE_CHECKING:
    from clusterbid.core.costmodel.estimate import BidEstimate
    from clusterbid.core.uncertainty.montecarlo import BidUncertainty

CRITERION_WORDS = criterion_words()  # core/criteria.py


def findings(score: BidScore[BidEstimate], resting: dict[str, list[str]] | None, sep: str) -> str:
    """The bid's gates and flags, then what its cost rank rests on (`resting` None: being worked
    out by a worker, gui/rescoring.py)."""
    e = score.estimate
    if resting is None:
        rests = (
            ["What its cost rank rests on is being worked out"] if score.rank is not None else []
        )
    elif score.bid.id in resting:
        rests = [
            "Its cost rank changes across the range of: "
            f"{', '.join(resting[score.bid.id])} "
            "(not stated or assumed; see Details)"
        ]
    else:
        rests = []
    return sep.join(
        [f"Excluded: {g.message}" for g in e.gates] + [w.message for w in e.warnings] + rests
    )


def band_tip(
    score: BidScore[BidEstimate],
    u: BidUncertainty | None,
    currency: str,
    ranked_on: tuple[str, float] | None = None,
) -> str | None:
    """The net plan cost's P10 / P50 / P90, the figure the bids rank on where the Monte Carlo
    decides (`ranked_on`: contract_summary.decision_figure) and how often the bid was cheapest;
    None without a band. The column beside it shows the point estimate, which may not be what
    ranks: the tip says which is."""
    if u is None or score.rank is None:
        return None

    def money(value: float) -> str:
        return format_money(value, currency, cents=True)

    ranks = "" if ranked_on is None else f"\nRanked on: {money(ranked_on[1])}, the {ranked_on[0]}"
    return (
        f"Net cost of the plan, P10 / P50 / P90: {money(u.cost_p10)} / {money(u.cost_p50)} / "
        f"{money(u.cost_p90)}{ranks}\nCheapest bid in {u.win_probability:.1%} of the simulated "
        "outcomes"
    )


def score_tip(score: BidScore[BidEstimate], weights: dict[str, float]) -> str:
    """Each criterion's value (0-1, 1 best) times its weight."""
    lines = [
        f"{CRITERION_WORDS.get(n, n)}: {value:.2f} x {weights[n]:.0%}"
        for n, value in score.criteria.items()
    ]
    return "Each criterion 0-1 (1 best) x its weight:\n" + "\n".join(lines)


def contract_tip(
    score: BidScore[BidEstimate], currency: str, ranked_on: tuple[str, float] | None = None
) -> str:
    """A passing bid's commercial figures, one a line; an excluded bid's contract in words.
    `ranked_on`: what the bids rank on once the bands are in (contract_summary.decision_figure)."""
    if score.rank is None:
        return billing_words(score.bid, currency)
    rows = contract_lines(score.estimate, currency, cents=True, ranked_on=ranked_on)
    return "\n".join(f"{k}: {v}" for k, v in rows)
