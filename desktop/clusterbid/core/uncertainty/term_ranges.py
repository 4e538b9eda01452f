"""Commercial terms nobody put in writing, drawn across a range instead of fixed at a point
(issue 31, item 5): the early-exit fee, the yearly price escalation and the payment terms.

Each is drawn from a triangular distribution (low, most likely, high), in the field's own units:

- stated by the provider (or measured): the contract says it; fixed at the figure;
- not stated (empty, or ClusterBid's default): from the typical figure a provider states to the
  cautious default, most likely the cautious default (exit fee 50-100%, escalation 3-10% a year,
  payment due on invoice to net 30).
  The point estimate keeps the cautious end, so the draws never price the term above it, and no
  draw is below the typical statement: a sample of a silent bid is never cheaper than the same
  sample of the bid that states the typical figure (silence never pays, issue 31 item 2);
- the buyer's assumption: most likely the buyer's figure, across the range the buyer gave with
  it (Source.low / high), or across the documented range when the buyer gave none.

A term that cannot move the bill (no exit clause on a reserved term, a term of a year or less
for escalation) is not drawn. Each drawn term of each bid has its own stream (streams.py), like every input.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.billing_kinds import spec_of
from clusterbid.core.provenance.defaults import FEE_DEFAULTS, TERMS_DEFAULTS
from clusterbid.core.provenance.resolve import effective_terms, nobody_stated, term_applies

# Dotted path -> the BidArrays column it sets, and the field's units per unit of the column
# (the exit fee and escalation are percent, their columns fractions; payment terms are days).
TERM_COLUMNS = {
    "terms.early_exit_fee_percent": "exit_fee_share",
    "terms.price_escalation_percent_per_year": "escalation_per_year",
    "terms.payment_terms_days": "payment_days",
}
TERM_UNITS = {"terms.payment_terms_days": 1.0}  # every other drawn term: percent (100 per unit)
DRAWN_DEFAULTS = {
    **TERMS_DEFAULTS,
    "terms.payment_terms_days": FEE_DEFAULTS["terms.payment_terms_days"],
}


@dataclass(frozen=True, slots=True)
class TermRange:
    """One commercial term of one bid as the Monte Carlo draws it, in the field's units (percent)."""

    path: str  # a key of TERM_COLUMNS
    low: float
    likely: (
        float  # the mode; the point estimate's figure except where the buyer's figure is the mode
    )
    high: float
    source: str  # "not stated", "ClusterBid default" or "buyer's assumption"

    @property
    def units(self) -> float:
        """Units of the field per unit of its column (100: percent drawn into a fraction)."""
        return TERM_UNITS.get(self.path, 100.0)

    @property
    def column(self) -> str:
        return TERM_COLUMNS[self.path]

    @property
    def stream_name(self) -> str:
        return "term:" + self.path


def term_ranges(bid, spread: bool = True) -> tuple[TermRange, ...]:
    """The bid's terms that are drawn (none when `spread` is False: the zero table)."""
    if not spread:
        return ()
    terms = effective_terms(bid)
    ranges = []
    for path, documented in DRAWN_DEFAULTS.items():
        if not _drawn(bid, path):
            continue
        source = bid.provenance.get(path)
        figure = float(getattr(terms, path.split(".")[1]))
        if nobody_stated(bid, path):  # between the typical statement and the cautious default
            low, high = sorted((documented.typical, documented.value))
            likely = documented.value
        elif source is not None and source.kind == "assumption":
            low = documented.low if source.low is None else source.low
            high = documented.high if source.high is None else source.high
            low, likely, high = min(low, figure), figure, max(high, figure)
        else:  # in writing (stated by the provider, or measured): not drawn
            continue
        if high > low:
            ranges.append(
                TermRange(path, low, likely, high, source.label if source else "not stated")
            )
    return tuple(ranges)


def _drawn(bid, path: str) -> bool:
    """Whether the term can move the bill: an exit fee on a reserved term with an exit clause,
    escalation on a contract term longer than a year (a shorter one never reaches an anniversary,
    and is not flagged either)."""
    if path == "terms.early_exit_fee_percent":
        return term_applies(bid, path) and spec_of(bid.terms.billing_kind).may_exit_early
    if path == "terms.payment_terms_days":
        return True  # every contract's invoices fall due
    return term_applies(bid, path) and bid.terms.term_months > 12


def triangular(uniform: np.ndarray, low: float, likely: float, high: float) -> np.ndarray:
    """Inverse of the triangular distribution's CDF at `uniform` (values in [0, 1))."""
    width = high - low
    split = (likely - low) / width  # the CDF at the mode
    if np.all(split <= 0):  # the mode at the low end (an unstated term): no draw rises, and the
        # falling side alone, in place, gives np.where's values without the rising side's passes
        falling = np.subtract(1.0, uniform)
        falling *= width
        falling *= high - likely
        return np.subtract(high, np.sqrt(falling, out=falling), out=falling)
    rising = low + np.sqrt(uniform * width * (likely - low))
    falling = high - np.sqrt((1.0 - uniform) * width * (high - likely))
    return np.where(uniform < split, rising, falling)


def draw(generator: np.random.Generator, term: TermRange, samples: int) -> np.ndarray:
    """`samples` draws of the term as the BidArrays column holds it (a fraction, not percent)."""
    return triangular(generator.random(samples), term.low, term.likely, term.high) / term.units


def draw_many(
    uniforms: np.ndarray, low: np.ndarray, likely: np.ndarray, high: np.ndarray, units: np.ndarray
) -> np.ndarray:
    """`draw` for several terms at once: uniforms (terms, samples), the figures (terms, 1). The
    same arithmetic element by element, so the same draws to the bit."""
    return triangular(uniforms, low, likely, high) / units  # type: ignore[arg-type]  (arrays broadcast as floats do)
