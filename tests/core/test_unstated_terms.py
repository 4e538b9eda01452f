"""Issue 31, item 5: a commercial term the bid leaves out is "not stated", priced at a cautious
documented default and flagged, never read as 0 (a free exit, a flat price). Seed 001's job:
256 GPUs for exactly 100 hours at $7 per GPU-hour (test_contract_economics.py)."""

from __future__ import annotations

import pytest
from tests.core.test_contract_economics import RESERVED, _estimate, _seed

from clusterbid.core.contract_summary import billing_words
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation


def test_a_fee_less_exit_clause_is_priced_as_no_exit_and_flagged():
    """Stated at 50%: leave after the job for 256 x 100 x 7 + 0.5 x 256 x 630 x 7 = $743,680.
    Fee not stated: the cautious 100% makes leaving cost 256 x 100 x 7 + 256 x 630 x 7 =
    $1,308,160, the whole term: the plan keeps the term, where it used to leave for free ($179,200)."""
    stated = _estimate(**RESERVED, exit_clause=True, early_exit_fee_percent=50)
    blank = _estimate(**RESERVED, exit_clause=True, early_exit_fee_percent=None)
    assert stated.plan_cost == pytest.approx(743_680, abs=0.01)
    assert (
        blank.exit_cost
        == pytest.approx(256 * 100 * 7 + 256 * 630 * 7, abs=0.01)
        == pytest.approx(1_308_160)
    )
    assert blank.plan_cost == pytest.approx(1_308_160, abs=0.01) and not blank.leaves_early
    assert "exit_fee_not_stated" in {w.code for w in blank.warnings}
    assert "exit_fee_not_stated" not in {w.code for w in stated.warnings}
    assert "fee not stated: priced as no exit until it is in writing" in billing_words(blank.bid)
    row = next(r for r in _unverified(blank) if r["field"] == "terms.early_exit_fee_percent")
    assert (row["kind"], row["value"], row["range"]) == ("not_stated", 100.0, [0.0, 100.0])


def _unverified(estimate):
    from clusterbid.core.provenance import unverified_inputs

    return unverified_inputs(estimate.bid)


def test_an_older_document_that_left_the_exit_fee_out_is_no_longer_a_free_exit():
    data = _seed(**RESERVED, exit_clause=True)  # no early_exit_fee_percent key: read as 0 before
    e = score_evaluation(Evaluation.model_validate(data)).scores[0].estimate
    assert e.bid.provenance["terms.early_exit_fee_percent"].kind == "not_stated"  # empty by default
    assert e.plan_cost == pytest.approx(1_308_160, abs=0.01)


def test_escalation_not_stated_on_a_24_month_term_is_priced_at_10_percent_and_flagged():
    """24 x 730 = 17,520 h: 8,760 h at $7 and 8,760 h at $7 x 1.10 = $7.70, the cautious 10%:
    256 x (61,320 + 67,452) = $32,965,632; stated 0% it is 256 x 17,520 x 7 = $31,395,840."""
    flat = _estimate(
        billing="reserved", term_months=24, reserved_gpus=256, price_escalation_percent_per_year=0
    )
    blank = _estimate(
        billing="reserved",
        term_months=24,
        reserved_gpus=256,
        price_escalation_percent_per_year=None,
    )
    assert flat.commitment == pytest.approx(256 * 17_520 * 7, abs=0.01)
    assert (
        blank.commitment
        == pytest.approx(256 * (8760 * 7 + 8760 * 7.7), abs=0.01)
        == pytest.approx(32_965_632)
    )
    assert "escalation_not_stated" in {w.code for w in blank.warnings}
    assert "escalation not stated (priced at 10% a year" in billing_words(blank.bid)
    # A one-month term never reaches an anniversary: nothing to flag, nothing priced.
    short = _estimate(**RESERVED, price_escalation_percent_per_year=None)
    assert "escalation_not_stated" not in {w.code for w in short.warnings}
    assert short.commitment == pytest.approx(256 * 730 * 7, abs=0.01)


def test_a_blank_cell_in_a_bid_sheet_is_not_stated_never_zero(tmp_path):
    """The template has a column and a source column for each; a provider who leaves the exit fee
    and escalation cells empty gets "not stated" and the cautious figures, not 0."""
    from tests.core.interchange.test_sources import _sheet

    from clusterbid.core.interchange import import_bids
    from clusterbid.core.provenance import effective_terms

    path = _sheet(
        tmp_path,
        {
            "terms.exit_clause": "yes",
            "terms.early_exit_fee_percent": "",
            "source.terms.early_exit_fee_percent": "",
            "terms.price_escalation_percent_per_year": "",
            "source.terms.price_escalation_percent_per_year": "",
        },
    )
    report = import_bids(path)
    assert report.problems == ()
    bid = report.bids[0]
    assert (
        bid.terms.early_exit_fee_percent is None
        and bid.terms.price_escalation_percent_per_year is None
    )
    assert {
        bid.provenance[f"terms.{n}"].kind
        for n in ("early_exit_fee_percent", "price_escalation_percent_per_year")
    } == {"not_stated"}
    resolved = effective_terms(bid)
    # On demand there is no anniversary: the escalation cannot apply and is 0 (and not flagged).
    assert (resolved.early_exit_fee_percent, resolved.price_escalation_percent_per_year) == (
        100.0,
        0.0,
    )
