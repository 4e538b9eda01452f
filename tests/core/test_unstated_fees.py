"""Issue 31, item 5: fees, billing steps, minimums and payment terms a bid leaves empty are "not
stated", priced at a cautious documented default and flagged, never read as 0.

Seed 001's job: 256 GPUs for exactly 100 hours at $7 per GPU-hour, a GPU bill of
256 x 100 x 7 = $179,200 on demand (test_contract_economics.py). The cautious shares are 2% of the
GPU bill for one-off fees and 10% for recurring ones (methodology section 9)."""

from __future__ import annotations

import json

import pytest
from tests.core.test_contract_economics import RESERVED, _estimate, _seed

from clusterbid.core.contract_summary import billing_words
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.provenance import effective_terms, unverified_inputs
from clusterbid.core.scoring import score_evaluation

NO_FEES = {"one_off_fees": None, "recurring_fees_per_month": None}


def _codes(estimate) -> set[str]:
    return {w.code for w in estimate.warnings}


def test_fees_not_stated_on_demand_cost_12_percent_of_the_gpu_bill_and_are_flagged():
    """Stated 0: $179,200. Blank: 179,200 + 2% x 179,200 + 10% x 179,200 = 179,200 + 3,584 + 17,920
    = $200,704. The typical statement, 3% recurring and no one-off fee, is $39,244.80 a month
    (3% of 256 x 730 x 7 = $1,308,160) for 100/730 of a month = $5,376: $184,576, below the blank."""
    stated = _estimate(billing="on-demand", one_off_fees="0", recurring_fees_per_month="0")
    blank = _estimate(billing="on-demand", **NO_FEES)
    typical = _estimate(billing="on-demand", one_off_fees="0", recurring_fees_per_month="39244.80")
    assert stated.commitment == pytest.approx(179_200, abs=0.01)
    assert (
        blank.commitment
        == pytest.approx(179_200 + 3_584 + 17_920, abs=0.01)
        == pytest.approx(200_704)
    )
    assert blank.plan_cost == pytest.approx(200_704, abs=0.01)
    assert typical.commitment == pytest.approx(184_576, abs=0.01)
    assert stated.commitment < typical.commitment < blank.commitment  # the blank is never better
    assert "fees_not_stated" in _codes(blank) and "fees_not_stated" not in _codes(stated)
    flag = next(w for w in blank.warnings if w.code == "fees_not_stated")
    assert "one-off fees at 2% and recurring fees at 10% of the GPU bill" in flag.message
    assert (
        "fees not stated (priced at 2% one-off and 10% recurring of the GPU bill)"
        in billing_words(blank.bid)
    )


def test_one_fee_left_blank_is_priced_alone():
    """Recurring fees stated at $730 a month (100/730 of a month: $100), one-off left blank (2%):
    179,200 + 100 + 3,584 = $182,884."""
    e = _estimate(billing="on-demand", one_off_fees=None, recurring_fees_per_month="730")
    assert e.commitment == pytest.approx(182_884, abs=0.01)
    flag = next(w for w in e.warnings if w.code == "fees_not_stated")
    assert "one-off fees at 2% of the GPU bill" in flag.message and "recurring" not in flag.message


def test_fees_not_stated_on_a_reserved_term_are_a_share_of_the_whole_term():
    """256 x 730 x 7 = $1,308,160 for the month, plus 12%: $1,465,139.20."""
    stated = _estimate(**RESERVED, one_off_fees="0", recurring_fees_per_month="0")
    blank = _estimate(**RESERVED, **NO_FEES)
    assert stated.commitment == pytest.approx(1_308_160, abs=0.01)
    assert (
        blank.commitment == pytest.approx(1_308_160 * 1.12, abs=0.01) == pytest.approx(1_465_139.20)
    )


def test_a_reserved_exit_pays_the_unstated_fees_on_the_gpus_billed_until_it():
    """Exit at a stated 50% after the job: 256 x 100 x 7 = $179,200 billed, 12% of it in unstated
    fees ($21,504), and 0.5 x 256 x 630 x 7 = $564,480: $765,184 (stated fees of 0: $743,680)."""
    stated = _estimate(
        **RESERVED,
        exit_clause=True,
        early_exit_fee_percent=50,
        one_off_fees="0",
        recurring_fees_per_month="0",
    )
    blank = _estimate(**RESERVED, exit_clause=True, early_exit_fee_percent=50, **NO_FEES)
    assert stated.plan_cost == pytest.approx(743_680, abs=0.01)
    assert blank.leaves_early and blank.plan_cost == pytest.approx(
        179_200 * 1.12 + 564_480, abs=0.01
    )
    assert blank.plan_cost == pytest.approx(765_184, abs=0.01)


def _with_tokens(factor: float, **terms):
    data = _seed(**terms)
    data["workload"]["training_tokens_billions"] *= factor
    return score_evaluation(Evaluation.model_validate(data)).scores[0].estimate


def test_a_billing_step_and_minimum_not_stated_are_priced_hourly_on_demand_only():
    """A job 0.5% longer than seed 001's (about 100.5 h): by the second it bills its wall hours H;
    with the step not stated it bills H rounded up to the whole hour, 256 x ceil(H) x 7."""
    by_second = _with_tokens(
        1.005, billing="on-demand", billing_increment_hours=0, minimum_billed_hours=0
    )
    blank = _with_tokens(
        1.005, billing="on-demand", billing_increment_hours=None, minimum_billed_hours=None
    )
    hours = by_second.wall_hours
    assert hours % 1 > 0.01  # a part hour for the step to round up
    assert by_second.commitment == pytest.approx(256 * hours * 7, rel=1e-9)
    assert blank.commitment == pytest.approx(256 * (int(hours) + 1) * 7, abs=0.01)
    assert "billing_step_not_stated" in _codes(blank) and "billing_step_not_stated" not in _codes(
        by_second
    )
    words = billing_words(blank.bid)
    assert "billed in 1-hour steps (step not stated: priced hourly)" in words
    assert "minimum 1 h per GPU (minimum not stated: priced at 1 h)" in words
    # A reserved term bills its whole span: a step it does not state changes nothing, flags nothing.
    term = _estimate(**RESERVED, billing_increment_hours=None, minimum_billed_hours=None)
    assert term.commitment == pytest.approx(1_308_160, abs=0.01)
    assert "billing_step_not_stated" not in _codes(term)


LONG_TERM = {
    "billing": "reserved",
    "term_months": 24,
    "reserved_gpus": 256,
    "price_escalation_percent_per_year": 0,
}


def test_payment_terms_not_stated_are_flagged_on_a_long_term_and_priced_as_due_on_invoice():
    """24 months flat: 256 x 17,520 x 7 = $31,395,840 committed whether invoices are due net 30 or
    unstated; unstated pays it 30 days sooner than the buyer's net 30 at 8% a year:
    31,395,840 x 0.08 x 30 / 365 = $206,438.40 more in the net cost (test_payment_terms.py)."""
    stated = _estimate(**LONG_TERM, payment_terms_days=30)
    blank = _estimate(**LONG_TERM, payment_terms_days=None)
    assert blank.commitment == stated.commitment == pytest.approx(31_395_840, abs=0.01)
    assert blank.plan_cost - stated.plan_cost == pytest.approx(206_438.40, abs=0.01)
    assert "payment_terms_not_stated" in _codes(blank) and "payment_terms_not_stated" not in _codes(
        stated
    )
    assert effective_terms(blank.bid).payment_terms_days == 0  # read as due on invoice
    # A term of a year or less, or on demand: said in the memo's fee line, not flagged.
    for short in (_estimate(**RESERVED, payment_terms_days=None), _estimate(billing="on-demand")):
        assert "payment_terms_not_stated" not in _codes(short)


def test_unstated_fees_are_listed_with_their_share_and_range():
    e = _estimate(billing="on-demand", **NO_FEES)
    rows = {row["field"]: row for row in unverified_inputs(e.bid)}
    recurring = rows["terms.recurring_fees_per_month"]
    assert (recurring["kind"], recurring["value"], recurring["range"]) == (
        "not_stated",
        10.0,
        [0.0, 10.0],
    )
    assert "AWS Business and Enterprise Support" in recurring["source"]
    assert (rows["terms.one_off_fees"]["value"], rows["terms.one_off_fees"]["range"]) == (
        2.0,
        [0.0, 2.0],
    )


def test_a_hand_written_json_that_leaves_fees_out_states_none_of_them():
    """Left out of the JSON is not stated, as an empty value is: on demand, 179,200 x 1.12 =
    $200,704 (both fee shares), the minimum priced at 1 h per GPU (below the 100 h run, so no
    change) and both flagged. Writing the 0s states them: $179,200, nothing flagged."""
    keys = (
        "one_off_fees",
        "recurring_fees_per_month",
        "billing_increment_hours",
        "minimum_billed_hours",
    )

    def estimate(data: dict):
        return (
            score_evaluation(Evaluation.model_validate(json.loads(json.dumps(data))))
            .scores[0]
            .estimate
        )

    left_out = _seed(billing="on-demand")
    for key in keys:
        left_out["bids"][0]["terms"].pop(key, None)
    blank = estimate(left_out)
    assert blank.commitment == pytest.approx(179_200 * 1.12, abs=0.01) == pytest.approx(200_704)
    assert {"fees_not_stated", "billing_step_not_stated"} <= _codes(blank)
    assert all(blank.bid.provenance[f"terms.{key}"].kind == "not_stated" for key in keys)
    written = _seed(
        billing="on-demand",
        one_off_fees="0",
        recurring_fees_per_month="0",
        billing_increment_hours=0,
        minimum_billed_hours=0,
    )
    zero = estimate(written)
    assert zero.commitment == pytest.approx(179_200, abs=0.01)
    assert not {"fees_not_stated", "billing_step_not_stated"} & _codes(zero)


def test_a_saved_bid_keeps_its_zeros():
    """The store writes every field of a bid, so a document saved before the rule holds its 0s, not
    a gap, and reads back with its fees stated as none."""
    from clusterbid.core.bid import Bid
    from clusterbid.core.store.snapshot import to_json

    data = _seed(
        billing="on-demand",
        one_off_fees="0",
        recurring_fees_per_month="0",
        billing_increment_hours=0,
        minimum_billed_hours=0,
    )
    saved = json.loads(to_json(Bid.model_validate(data["bids"][0])))
    assert saved["terms"]["one_off_fees"] == "0" and saved["terms"]["minimum_billed_hours"] == 0
    again = Bid.model_validate(saved)
    assert again.terms.recurring_fees_per_month == 0
    assert "terms.recurring_fees_per_month" not in again.provenance


def test_blank_fee_cells_in_a_bid_sheet_are_not_stated(tmp_path):
    from tests.core.interchange.test_sources import _sheet

    from clusterbid.core.interchange import import_bids

    path = _sheet(
        tmp_path,
        {
            "terms.one_off_fees": "",
            "terms.recurring_fees_per_month": "",
            "terms.billing_increment_hours": "",
            "terms.minimum_billed_hours": "",
            "terms.payment_terms_days": "",
        },
    )
    report = import_bids(path)
    assert report.problems == ()
    bid = report.bids[0]
    for name in (
        "one_off_fees",
        "recurring_fees_per_month",
        "billing_increment_hours",
        "minimum_billed_hours",
    ):
        assert getattr(bid.terms, name) is None
        assert bid.provenance[f"terms.{name}"].kind == "not_stated"
    assert bid.terms.payment_terms_days is None  # empty is itself "not stated": never priced


def test_a_serving_fleet_pays_unstated_fees_on_each_months_gpu_bill():
    """One 8-GPU node at $3 per GPU-hour: 8 x 730 x 3 = $17,520 a month with fees stated as 0;
    left empty, 12% more: $19,622.40, and flagged."""
    from tests.core.serving.serving_builders import serving_bid, serving_workload

    from clusterbid.core.costmodel.serving_estimate import estimate_serving

    def estimate(**fees):
        terms = {"price_per_gpu_hour": "3.00", **fees}
        return estimate_serving(serving_workload(), [serving_bid(terms=terms)]).bids[0]

    stated, blank = estimate(one_off_fees="0", recurring_fees_per_month="0"), estimate(**NO_FEES)
    assert stated.gpus_billed == blank.gpus_billed == 8
    assert stated.monthly_cost == pytest.approx(8 * 730 * 3, abs=0.01)
    assert blank.monthly_cost == pytest.approx(17_520 * 1.12, abs=0.01) == pytest.approx(19_622.40)
    assert [w.code for w in blank.warnings] == ["fees_not_stated"] and stated.warnings == ()


def test_the_template_says_a_blank_term_is_not_stated():
    """The bid template's instructions: a blank fee, step, minimum, payment term, exit fee or
    escalation is not stated (priced at its cautious default), never 'blank = 0' or 'none'."""
    from clusterbid.core.interchange.columns import bid_columns

    rules = {c.key: c.rule_text() for c in bid_columns()}
    for name in (
        "one_off_fees",
        "recurring_fees_per_month",
        "billing_increment_hours",
        "minimum_billed_hours",
        "payment_terms_days",
        "early_exit_fee_percent",
        "price_escalation_percent_per_year",
    ):
        assert rules[f"terms.{name}"].startswith(
            "optional (blank = not stated, priced at its cautious default)"
        )
