"""Issue 31, items 2 and 5, one case per commercial term: a bid that leaves a term out is never
cheaper than the same bid stating the typical figure (provenance/defaults.py), at the point and
in every Monte Carlo draw (the drawn terms never go below the typical statement).

Seed 001's job: 256 GPUs for 100 hours at $7 per GPU-hour ($179,200 on demand); a one-month
reservation of the 256 GPUs commits 256 x 730 x 7 = $1,308,160."""

from __future__ import annotations

import pytest
from tests.core.test_contract_economics import RESERVED, _estimate, _seed

from clusterbid.core.bid import Bid
from clusterbid.core.provenance.defaults import DOCUMENTED_DEFAULTS
from clusterbid.core.uncertainty.term_ranges import term_ranges

ON_DEMAND = {"billing": "on-demand"}
TWO_YEARS = {"billing": "reserved", "term_months": 24, "reserved_gpus": 256}
# term -> (the contract it can matter on, the typical statement as the bid would write it,
#          by hand: the net cost stated typically, and left out)
CASES = {
    # Exit at 50% after the job: 179,200 + 0.5 x 256 x 630 x 7 = $743,680; left out, priced as no
    # exit at all (100%): the term is kept, $1,308,160.
    "early_exit_fee_percent": ({**RESERVED, "exit_clause": True}, 50.0, 743_680.0, 1_308_160.0),
    # 24 months, the second year at +3% (typical) or +10% (left out): 256 x 8,760 x 7 x (1 + 1.03)
    # = $31,866,778 against 256 x 8,760 x 7 x 2.10 = $32,965,632.
    "price_escalation_percent_per_year": (
        TWO_YEARS,
        3.0,
        256 * 8760 * 7 * 2.03,
        256 * 8760 * 7 * 2.10,
    ),
    # Typical: none; left out: 2% of the GPU bill, 179,200 x 1.02 = $182,784.
    "one_off_fees": (ON_DEMAND, "0", 179_200.0, 182_784.0),
    # Typical: 3% of a month's bill (256 x 730 x 7 x 0.03 = $39,244.80 a month, for 100/730 of a
    # month: $5,376); left out: 10% of the bill, $17,920.
    "recurring_fees_per_month": (ON_DEMAND, "39244.80", 184_576.0, 197_120.0),
    # By the second or hourly: a 100-hour run bills 100 hours either way (never less when blank).
    "billing_increment_hours": (ON_DEMAND, 0.0, 179_200.0, 179_200.0),
    # A 1-minute or a 1-hour minimum: below the 100-hour run either way.
    "minimum_billed_hours": (ON_DEMAND, 1.0 / 60.0, 179_200.0, 179_200.0),
    # Net 30 (the buyer's own terms) or due on invoice: 179,200 x 0.08 x 30 / 365 = $1,178.30 more.
    "payment_terms_days": (ON_DEMAND, 30, 179_200.0, 180_378.30),
}
# The other fees, steps and terms stated as none where a case does not set them.
STATED = {
    "one_off_fees": "0",
    "recurring_fees_per_month": "0",
    "billing_increment_hours": 0,
    "minimum_billed_hours": 0,
    "payment_terms_days": 30,
    "price_escalation_percent_per_year": 0,
}


@pytest.mark.parametrize("term", sorted(CASES))
def test_leaving_a_term_out_never_beats_stating_the_typical_figure(term):
    contract, typical, stated_cost, blank_cost = CASES[term]
    if (
        term != "recurring_fees_per_month"
    ):  # (stated as a sum: 3% of the month's bill, worked above)
        assert float(typical) == pytest.approx(DOCUMENTED_DEFAULTS[f"terms.{term}"].typical)
    stated = _estimate(**{**STATED, **contract, term: typical})
    blank = _estimate(**{**STATED, **contract, term: None})
    assert stated.plan_cost == pytest.approx(stated_cost, abs=0.01)
    assert blank.plan_cost == pytest.approx(blank_cost, abs=0.01)
    assert blank.plan_cost >= stated.plan_cost
    # Drawn (exit fee, escalation, payment terms): from the typical figure to the cautious one, so
    # no draw of the blank bid is cheaper than the bid that states the typical figure.
    bid = Bid.model_validate(_seed(**{**STATED, **contract, term: None})["bids"][0])
    for drawn in (t for t in term_ranges(bid) if t.path == f"terms.{term}"):
        documented = DOCUMENTED_DEFAULTS[drawn.path]
        assert {drawn.low, drawn.high} == {documented.typical, documented.value}
        assert drawn.likely == documented.value  # most likely the cautious end, as the point
