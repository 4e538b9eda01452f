"""Page 1's lines on the contract's own terms: the commitment in the contract's currency at the
rate the policy records, and each passing bid's quote that lapses before the decision date.

Apart from page_one.py (the decision and its rivals) because these check the bid's paper (its
currency and its quote's validity) rather than weigh it against the others."""

from __future__ import annotations

import datetime as dt

from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.core.money import format_money
from clusterbid.core.ranking import BidScore
from clusterbid.core.scoring import Scorecard


def contract_money(scorecard: Scorecard, chosen: BidScore[BidEstimate]) -> str:
    """The commitment in the contract's currency and the evaluation's, with the rate used; '' when
    both are the same currency."""
    evaluation, e = scorecard.evaluation, chosen.estimate
    theirs, ours = chosen.bid.terms.currency, evaluation.currency
    if theirs == ours:
        return ""
    rate = float(evaluation.rate_to_evaluation_currency(theirs))
    known = evaluation.policy.exchange_rate_sources.get(theirs)
    where = (
        f"the rate of {known.as_of.isoformat()} from {known.source}, as the evaluation's policy "
        "records it"
        if known
        else "the rate in the evaluation's policy (its date and source are not recorded in the "
        "inputs: state them before signing)"
    )
    return (
        f"the contract is in {theirs}: {format_money(e.commitment / rate, theirs, cents=True)}, "
        "which is "
        f"{format_money(e.commitment, ours, cents=True)} at 1 {theirs} = {rate:g} {ours}, {where}"
    )


def expired_quotes(
    scorecard: Scorecard, chosen: BidScore[BidEstimate] | None, decision_date: str | None
) -> list[tuple[str, bool]]:
    """(words, is the recommended bid's) for each passing bid's quote that lapses before the
    decision date; without a decision date, one line saying validity could not be checked."""
    if not decision_date:
        until = chosen.bid.quote.valid_until if chosen is not None else None
        if chosen is None or until is None:
            return []
        return [
            (
                f"Quote validity: the quote of {bid_label(chosen.bid)} is valid until "
                f"{until.isoformat()} (no decision date was given to check it "
                "against): sign by then or request a written extension",
                False,
            )
        ]
    day = dt.date.fromisoformat(decision_date)
    lapsed = [
        s
        for s in scorecard.ranked
        if s.bid.quote.valid_until is not None and s.bid.quote.valid_until < day
    ]
    out = [
        (
            f"EXPIRED QUOTE: the quote of {bid_label(s.bid)} expired on {s.bid.quote.valid_until}, before "
            f"the decision date {day}: request a "
            "written extension of its price and terms before signing",
            True,
        )
        for s in lapsed
        if s is chosen
    ]
    others = [s for s in lapsed if s is not chosen]
    if (
        others
    ):  # one line for the rest, so a round of lapsed quotes does not push the job box off page 1
        out.append(
            (
                "Quotes expired before the decision date "
                + str(day)
                + ": "
                + "; ".join(f"{bid_label(s.bid)} on {s.bid.quote.valid_until}" for s in others)
                + " (ask for written extensions)",
                False,
            )
        )
    return out
