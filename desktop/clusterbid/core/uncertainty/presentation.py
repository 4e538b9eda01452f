"""Monte Carlo bands, evidence used, tipping points and tornado as JSON-ready data and text.

core/report.py calls these when the CLI asks for them; the money formatting is report.py's.
"""

from __future__ import annotations

import math

from clusterbid.core.evidence.model import KIND_WORDS, evidence_json, figure_words, grade_words
from clusterbid.core.money import format_money, money
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.montecarlo import BidUncertainty, UncertaintyResult
from clusterbid.core.uncertainty.sensitivity import Sensitivity
from clusterbid.core.uncertainty.spreads import UncertainInput
from clusterbid.core.uncertainty.streams import seed_owner
from clusterbid.core.uncertainty.term_ranges import TermRange
from clusterbid.core.uncertainty.tipping import WEIGHT_WORDS, tipping_sentence

INPUT_LABELS = {
    "busbw": "scale-out busbw",
    "baseline_mfu": "baseline MFU",
    "failure_rate": "failure rate",
    "replacement_hours": "node replacement time",
    "uptime": "SLA uptime",
}
TERM_LABELS = {
    "terms.early_exit_fee_percent": "early-exit fee",
    "terms.price_escalation_percent_per_year": "price escalation a year",
    "terms.payment_terms_days": "payment due after invoice",
}
INPUT_UNITS = {
    "busbw": "GB/s",
    "baseline_mfu": "fraction",
    "failure_rate": "per 1,000 GPU-days",
    "replacement_hours": "hours",
    "uptime": "%",
}


def _input_json(item: UncertainInput) -> dict:
    return {
        "name": item.name,
        "point": item.point,
        "unit": INPUT_UNITS[item.name],
        "source": item.source,
        "median_factor": item.median_factor,
        "sigma": round(item.sigma, 6),
        "shared_sigma": round(item.shared_sigma, 6),
        "evidence": None if item.evidence is None else evidence_json(item.evidence),
    }


def bid_uncertainty_json(b: BidUncertainty, currency: str) -> dict:
    amount = lambda v: {"amount": str(money(v)), "currency": currency}  # noqa: E731
    return {
        "cost_p10": amount(b.cost_p10),
        "cost_p50": amount(b.cost_p50),
        "cost_p90": amount(b.cost_p90),
        "cost_mean": amount(b.cost_mean),
        "point_percentile": round(
            b.point_percentile, 6
        ),  # share of samples at or below the point figure
        "on_time_probability": None
        if b.on_time_probability != b.on_time_probability
        else round(b.on_time_probability, 6),
        "commitment_p10": amount(b.commitment_p10),
        "commitment_p50": amount(b.commitment_p50),
        "commitment_p90": amount(b.commitment_p90),
        "hours_p10": round(b.hours_p10, 2),
        "hours_p50": round(b.hours_p50, 2),
        "hours_p90": round(b.hours_p90, 2),
        # Issue 39: from the stated start to the job's end, a late handover included.
        "finish_hours_p50": None
        if math.isnan(b.finish_hours_p50)
        else round(b.finish_hours_p50, 2),
        "finish_hours_p90": None
        if math.isnan(b.finish_hours_p90)
        else round(b.finish_hours_p90, 2),
        "win_probability": round(b.win_probability, 6),
        "rank_stability": round(b.rank_stability, 6),
        "inputs": [_input_json(item) for item in b.inputs],
        "terms_drawn": [
            {
                "field": t.path,
                "low": t.low,
                "most_likely": t.likely,
                "high": t.high,
                "unit": "%",
                "source": t.source,
            }
            for t in b.term_ranges
        ],
    }


def add_uncertainty_json(
    report: dict, currency: str, result: UncertaintyResult, sensitivity: Sensitivity | None
) -> None:
    """Add the Monte Carlo and sensitivity to a scorecard_to_json report, in place."""
    report["monte_carlo"] = {"seed": result.seed, "samples": result.samples}
    for bid in report["bids"]:
        found = result.bids.get(bid["bid_id"])
        bid["uncertainty"] = None if found is None else bid_uncertainty_json(found, currency)
    if sensitivity is not None:
        report["sensitivity"] = sensitivity_json(sensitivity, currency)
        report["sensitivity"]["rank_stability"] = {
            k: round(v, 6) for k, v in sensitivity.rank_stability.items()
        }


def sensitivity_json(s: Sensitivity, currency: str) -> dict:
    return {
        "tipping_points": {name: t.as_json() for name, t in s.tipping_points.items()},
        "tornado": [
            {
                "input": bar.label,
                "bid_id": bar.bid_id,
                "cost_at_minus_15pct": {"amount": str(money(bar.low_cost)), "currency": currency},
                "cost_at_plus_15pct": {"amount": str(money(bar.high_cost)), "currency": currency},
            }
            for bar in s.tornado
        ],
    }


def _input_text(item: UncertainInput) -> str:
    value = (
        f"{item.point:.1%}"
        if item.name == "baseline_mfu"
        else f"{item.point:,.4g} {INPUT_UNITS[item.name]}"
    )
    source = item.source
    if item.evidence is not None:
        e = item.evidence
        source = (
            f"{KIND_WORDS[e.kind]} {figure_words(e.value, e.unit)}, "
            f"{grade_words(e.grade, e.measured_by)}, at {e.scale_gpus:,} GPUs"
        )
    haircut = f", median x{item.median_factor:g}" if item.median_factor != 1 else ""
    spread_of = (
        " on the downtime" if item.name == "uptime" else ""
    )  # uptime is drawn through 1 - uptime
    return (
        f"{INPUT_LABELS[item.name]} {value} ({source}; {_spread_words(item)}{spread_of}{haircut})"
    )


def _spread_words(item: UncertainInput) -> str:
    """One sigma, or each side's where a stream is drawn in two pieces (an unstated stack reaches
    further down than up; an unstated schedule only down): the larger alone would overstate."""
    if not item.two_piece:
        return f"sigma {(item.sigma**2 + item.shared_sigma**2) ** 0.5:.0%}"
    pieces = {owner: (down, up) for owner, down, up in item.two_piece}
    plain = item.sigma**2 + sum(s**2 for owner, s in item.shared_streams if owner not in pieces)
    # A stream drawn from the stack's numbers moves with the stack: their sigmas add, not in
    # quadrature (an unstated stack's FP8 gain, streams.WITH_STACK).
    apart: dict[str, tuple[float, float]] = {}
    for owner, (d, u) in pieces.items():
        key = seed_owner(owner)
        apart[key] = (apart.get(key, (0.0, 0.0))[0] + d, apart.get(key, (0.0, 0.0))[1] + u)
    down = (plain + sum(d**2 for d, _ in apart.values())) ** 0.5
    up = (plain + sum(u**2 for _, u in apart.values())) ** 0.5
    return f"sigma {down:.0%} down, {up:.0%} up"


def plan_value_lines(scorecard: Scorecard, fmt) -> list[str]:
    """Issue 31: which of the buyer's own plan figures matters most (uncertainty/plan_value.py)."""
    from clusterbid.core.uncertainty.plan_value import plan_value_lines as worded

    sentences = worded(scorecard)  # the memo and the app say the same (in words, not field names)
    if not sentences:
        return []
    return [
        "",
        "Your plan's own figures (not drawn: each moved across a range; what knowing it better is "
        "worth):",
        *(f"  {sentence}" for sentence in sentences),
    ]


def _term_text(term: TermRange) -> str:
    """An unwritten commercial term as drawn: 'exit fee 50-100%, most likely 100% (not stated ...)'."""
    label, unit = TERM_LABELS[term.path], " days" if term.units == 1.0 else "%"
    return (
        f"{label} {term.low:g}-{term.high:g}{unit}, most likely {term.likely:g}{unit} "
        f"({term.source}; triangular)"
    )


def uncertainty_lines(
    scorecard: Scorecard, result: UncertaintyResult, sensitivity: Sensitivity | None
) -> list[str]:
    currency = scorecard.evaluation.currency
    fmt = lambda v: format_money(v, currency)  # noqa: E731
    lines = [
        "",
        f"Uncertainty: Monte Carlo, {result.samples:,} samples, seed {result.seed} (P10 - P50 - "
        "P90)",
        f"Ranked by weighted score; its cost criterion is the {scorecard.decision_words}; the "
        "point figure's percentile in its own "
        "samples beside it",
        f"{'bid':<16} {'net cost of the plan':>38} {'mean':>12} {'point at':>8} "
        f"{'wall-clock hours':>28} "
        f"{'P(cheapest)':>11} {'rank held':>9}",
    ]
    plan = scorecard.evaluation.workload.plan
    for bid_id, b in result.bids.items():
        cost = f"{fmt(b.cost_p10)} - {fmt(b.cost_p50)} - {fmt(b.cost_p90)}"
        hours = f"{b.hours_p10:,.0f} - {b.hours_p50:,.0f} - {b.hours_p90:,.0f}"
        lines.append(
            f"{bid_id:<16.16} {cost:>38} {fmt(b.cost_mean):>12} "
            f"{'P' + format(100 * b.point_percentile, '.0f'):>8} "
            f"{hours:>28} {b.win_probability:>11.1%} {b.rank_stability:>9.1%}"
        )
    if plan.deadline is not None:  # issue 31: the deadline as a probability, from the same draws
        lines += [
            "",
            f"Chance of finishing by {plan.deadline.isoformat()} (the buyer requires "
            f"{plan.deadline_confidence:.0%}):",
        ]
        for bid_id, b in result.bids.items():
            chance = (
                "start unknown"
                if b.on_time_probability != b.on_time_probability
                else f"{b.on_time_probability:.1%}"
            )
            risk = (
                " (below the buyer's threshold: a deadline risk)"
                if b.on_time_probability < plan.deadline_confidence
                else ""
            )
            lines.append(f"  {bid_id:<16.16} {chance}{risk}")
    lines += plan_value_lines(scorecard, fmt)
    lines += ["", "Inputs drawn (evidence used, grade, scale, spread):"]
    for bid_id, b in result.bids.items():
        lines.append(
            f"  {bid_id}: "
            + "; ".join(
                [_input_text(item) for item in b.inputs] + [_term_text(t) for t in b.term_ranges]
            )
        )
    if sensitivity is None or not scorecard.ranked:  # no winner: no tipping point to report
        return lines
    bid_words = {s.bid.id: f"{s.bid.quote.provider} ({s.bid.id})" for s in scorecard.scores}
    leader = bid_words[scorecard.ranked[0].bid.id]
    lines += ["", f"Tipping points of the weights (raw 0-100; winner now: {leader})"]
    for name, t in sensitivity.tipping_points.items():
        lines.append(
            f"  {WEIGHT_WORDS.get(name, name):<16} {t.current:>6g}: "
            f"{tipping_sentence(t, bid_words)}"
        )
    lines += [
        "",
        "Tornado: net cost of the plan with each input at -15% / +15% (largest swing first)",
    ]
    for bar in sensitivity.tornado:
        lines.append(
            f"  {bar.bid_id:<16.16} {bar.label:<28} {fmt(bar.low_cost):>14} / "
            f"{fmt(bar.high_cost):>14}"
        )
    return lines
