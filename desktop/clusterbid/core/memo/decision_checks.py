"""Page 1 and section 3 checks a source-selection decision records: the decision date apart from
the quote date, the schedule fit against the plan's deadline, and each bid's price against dated
public list prices (price reasonableness)."""

from __future__ import annotations

import datetime as dt

from clusterbid.core.memo.bid_words import bid_label
from clusterbid.core.reference_prices import check_price
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard

Rows = tuple[tuple[str, ...], ...]


def schedule_fit(chosen: BidScore, scorecard: Scorecard) -> dict:
    """The recommended bid's finish date against the plan's deadline. A bid that misses it fails
    the contract gate (costmodel/contract_findings.py), so the recommended one either meets it,
    cannot be checked, or the plan has no deadline: each said in words, the last two flagged."""
    deadline = scorecard.evaluation.workload.plan.deadline
    finish = chosen.estimate.dates.finish
    missed = [
        bid_label(s.bid)
        for s in scorecard.scores
        if any(g.code in ("misses_deadline", "deadline_unlikely") for g in s.estimate.gates)
    ]
    excluded = f"; excluded for missing it: {'; '.join(missed)}" if missed else ""
    if deadline is None:
        return {
            "schedule": "not checked: the plan gives no deadline (enter one under the plan to check it)"
            + (f"; finishes about {finish.isoformat()}" if finish else ""),
            "schedule_ok": False,
        }
    if finish is None:
        return {
            "schedule": f"cannot be checked against the deadline of {deadline.isoformat()}: "
            f"{chosen.estimate.dates.basis}{excluded}",
            "schedule_ok": False,
        }
    risk = next((w.message for w in chosen.estimate.warnings if w.code == "deadline_risk"), None)
    if finish > deadline and risk:  # late at the point, in time in enough draws: ranked, a risk
        return {"schedule": f"a deadline risk: {risk}{excluded}", "schedule_ok": False}
    if finish > deadline:  # only through an override of a bid the gates let through: still said
        return {
            "schedule": f"MISSES the deadline: finishes about {finish.isoformat()}, after {deadline.isoformat()}",
            "schedule_ok": False,
        }
    spare = (deadline - finish).days
    return {
        "schedule": f"finishes about {finish.isoformat()}, {spare:,} days before the plan's deadline of "
        f"{deadline.isoformat()}{excluded}",
        "schedule_ok": True,
    }


def decision_date_words(decision_date: str | None) -> str:
    """The date the approval is decided, as the memo's inputs hold it (ISO date or none). Without a
    meeting date the page says so; it never prints the export day, which would make the same
    inputs give other bytes tomorrow (and fail verify's re-render)."""
    if decision_date:
        return f"{dt.date.fromisoformat(decision_date).isoformat()} (the approval meeting)"
    return "not given (give the approval meeting's date with --decision-date)"


def price_reasonableness_rows(bids: list[tuple[str, str, float]], currency: str) -> Rows:
    """(bid, GPU, price per GPU-hour) of each bid against the public list prices kept for its GPU
    (resources/catalog/reference_prices.toml); after the header and the bids, one row per reference
    price used, ("", GPU, price, publisher, as of and source), so each is printed once."""
    rows = [("Bid", "GPU", "Price per GPU-h", "Check against public on-demand list prices")]
    used: dict[str, tuple] = {}
    for label, gpu, price in bids:
        check = check_price(gpu, price if currency == "USD" else None)
        used.setdefault(gpu, check.references)
        rows.append(
            (
                label,
                gpu,
                format_money(price, currency, cents=True),
                ("FLAG: " if check.flagged else "") + check.verdict,
            )
        )
    for gpu, references in used.items():
        for r in references:
            rows.append(
                (
                    "",
                    gpu,
                    f"${r.usd_per_gpu_hour:,.2f}",
                    f"{r.provider}, as of {r.as_of.isoformat()}. Source: {r.source}",
                )
            )
    return tuple(rows)
