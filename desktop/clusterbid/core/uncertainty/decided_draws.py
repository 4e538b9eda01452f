"""The decided ranking's Monte Carlo, tallied on the draws the point ranking's run already made
(issue 32 item 1). `decide` sets the draws up from the point scorecard, ranks on them, and needs
the chances and rank stability again against the decided ranking whenever it orders any bid
differently, which at 50 bids is almost always. Drawing everything again cost as much as the
first run; the draws of each bid come from its own streams (common random numbers), so the same
samples, re-tallied in the decided order against the decided leader, are exactly what a second
run set up from the decided scorecard gives, at the cost of the tally alone."""

from __future__ import annotations

from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.draw_setup import drawn_in_order
from clusterbid.core.uncertainty.kept_outcomes import KeptOutcomes
from clusterbid.core.uncertainty.montecarlo import UncertaintyResult, tallied


def tallied_for(
    kept: KeptOutcomes, seed: int, decided: Scorecard, precision: float | None
) -> UncertaintyResult | None:
    """The result a run set up from `decided` gives, from the kept draws; None when the decided
    ranking draws a bid the first run did not (its draws were never made: run again)."""
    ids = [s.bid.id for s in drawn_in_order(decided)]
    if not ids:  # every bid gated on its draws: nothing to sample, as a run would say
        return UncertaintyResult(seed, kept.samples, {})
    row_of = {bid_id: row for row, bid_id in enumerate(kept.setup.ids)}
    if any(bid_id not in row_of for bid_id in ids):
        return None
    return tallied(kept, seed, [row_of[i] for i in ids], decided.ranked[0].bid.id, precision)
