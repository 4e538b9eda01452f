"""Issue 37 (reviewer's finding): a growing service's monthly bill is the term's average month,
so every place that prints it puts beside it the GPUs that month pays for, never month 1's fleet.

By hand, the demo serving file with 6% monthly growth: Helio's base is fixed for the term (its bid
says nothing of re-sizing), so it reserves month 12's fleet all term: 96 GPUs x $2.85 x 730 hours
= $199,728 a month, the bill the table prints; month 1's fleet at peak is 56.

The test service (serving_builders; no margin, no spare) growing 10% a month needs 8 GPUs at
peak for months 1-7 and 16 from month 8 (test_serving_growth works it). At $3.00, 8 GPUs a month
bill 8 x 730 x 3 = $17,520. Fixed base: 16 reserved all term, $35,040 every month. Re-sized every
month: 7 x $17,520 + 5 x $35,040 = $297,840 over 12 months, $24,820 a month on average.
"""

from __future__ import annotations

from html import escape

import pytest
from serving_builders import serving_bid, serving_workload
from tests.conftest import EXAMPLES

from clusterbid.core.costmodel.serving_bill_gpus import bill_words, counted, gpus_beside_bill
from clusterbid.core.documents import read_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.serving_memo import comparison_rows
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table, serving_comparison_rows
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.core.serving_words import fleet_text
from clusterbid.gui.serving_details import bid_details_html
from clusterbid.gui.serving_ranking import row_tip

SIZING = {"forecast_margin_percent": 0, "spare_replicas": 0}
HELIO_MONTH = 96 * 2.85 * 730  # $199,728


def _card(growth: float = 10, **terms):
    workload = serving_workload(traffic_growth_percent_per_month=growth, **SIZING)
    bid = serving_bid(terms=terms) if terms else serving_bid()
    return score_serving_evaluation(Evaluation(title="g", workload=workload, bids=[bid]))


@pytest.fixture(scope="module")
def demo_grown():
    evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    workload = evaluation.workload.model_copy(update={"traffic_growth_percent_per_month": 6})
    return score_serving_evaluation(evaluation.model_copy(update={"workload": workload}))


def test_the_demo_grown_6_percent_prints_helios_bill_beside_the_96_gpus_it_reserves(demo_grown):
    assert pytest.approx(199_728) == HELIO_MONTH
    text = format_serving_table(demo_grown)
    header = next(line for line in text.splitlines() if line.startswith("rank"))
    assert "GPUs reserved" in header and "mean month" in header and "per month" not in header
    helio = next(line for line in text.splitlines() if "helio-h200" in line and "$2.85" in line)
    assert helio.split()[7:9] == ["96", "$199,728"]  # not month 1's 56
    e = next(s.estimate for s in demo_grown.ranked if s.bid.id == "helio-h200")
    assert (e.gpus_billed, e.reserved_by_month) == (56, (96,) * 12)
    words = bill_words(e, "USD")
    assert words.startswith("$199,728 a month on average over the term, for 96 GPUs reserved all")
    assert "96 GPUs in month 12, the term's peak month (56 in month 1)" in words
    memo_row = next(r for r in comparison_rows(demo_grown) if "H200-SXM" in r and "$2.85" in r)
    assert memo_row[5:7] == ("$199,728", "96")
    assert comparison_rows(demo_grown)[0][5:7] == ("Mean month", "GPUs reserved")
    figures = next(
        b["figures"]
        for b in serving_scorecard_to_json(demo_grown)["bids"]
        if b["bid_id"] == e.bid.id
    )
    assert (figures["gpus_billed"], figures["gpus_billed_at_peak_month"]) == (56, 96)
    assert figures["monthly_cost_is"] == "the mean month over the term"
    assert float(figures["monthly_cost"]["amount"]) == pytest.approx(HELIO_MONTH)


def test_a_fixed_base_reads_its_reserved_gpus_and_a_resized_one_its_range():
    fixed = _card().ranked[0].estimate
    assert bill_words(fixed, "USD") == (
        "$35,040 a month on average over the term, for 16 GPUs reserved all term; the fleet at "
        "peak is 16 GPUs in month 12, the term's peak month (8 in month 1)"
    )
    assert gpus_beside_bill(fixed) == "16"
    resized = _card(reserved_resize_months=1).ranked[0].estimate
    assert resized.monthly_cost == pytest.approx(297_840 / 12)
    assert gpus_beside_bill(resized) == "8-16"
    assert bill_words(resized, "USD").startswith(
        "$24,820 a month on average over the term, for GPUs reserved from 8 in month 1 to 16 in "
        "month 12;"
    )


def test_the_export_names_each_months_gpus_and_the_mean_month():
    card = _card(reserved_resize_months=1)
    row = serving_comparison_rows(card)[0]
    assert "GPUs billed" not in row and "cost per month [USD]" not in row
    assert row["GPUs billed at the peak of month 1"] == 8
    assert row["GPUs billed at the peak of the term's peak month"] == 16
    assert row["term's peak month"] == 12
    assert row["GPUs reserved over the term"] == "8-16"
    assert row["cost per month, mean over the term [USD]"] == pytest.approx(24_820)


def test_the_app_shows_the_same_words_beside_the_bill():
    card = _card()
    score = card.ranked[0]
    words = bill_words(score.estimate, "USD")
    assert escape(words) in bid_details_html(card, score.bid.id)  # the details are HTML
    details = bid_details_html(card, score.bid.id)
    assert "8 billed at the peak of month 1;" in details  # GPUs named with their month
    assert "16 billed at the peak of month 12" in details
    tip = row_tip(card, score)
    assert f"Monthly cost: {words}" in tip and "8 billed; $35,040" not in tip


def test_without_growth_the_bill_reads_as_before():
    card = _card(growth=0)
    e = card.ranked[0].estimate
    assert e.peak_month is None
    assert bill_words(e, "USD") == "$17,520 for 8 GPUs billed at peak provisioning"
    header = next(x for x in format_serving_table(card).splitlines() if x.startswith("rank"))
    assert "  GPUs   per month " in header
    row = serving_comparison_rows(card)[0]
    assert (row["GPUs needed"], row["GPUs billed"], row["cost per month [USD]"]) == (
        e.gpus_needed,
        8,
        pytest.approx(17_520),
    )
    assert comparison_rows(card)[0][5:7] == ("Per month", "GPUs")
    assert "monthly_cost_is" not in serving_scorecard_to_json(card)["bids"][0]["figures"]
    tip = row_tip(card, card.ranked[0])
    assert f"{e.gpus_needed:,} GPUs needed, 8 billed; $17,520.00 a month" in tip


def test_counts_are_written_singular_or_plural():
    assert (counted(1, "spare replica"), counted(2, "spare replica")) == (
        "1 spare replica",
        "2 spare replicas",
    )
    for spares, words in ((1, "with 1 spare replica (N+1)"), (2, "with 2 spare replicas (N+2)")):
        workload = serving_workload(spare_replicas=spares)
        card = score_serving_evaluation(
            Evaluation(title="s", workload=workload, bids=[serving_bid()])
        )
        assert words in fleet_text(card.band("s1"), "USD", workload)
        assert "(s)" not in format_serving_table(card)


def test_the_unused_fabric_note_prices_the_gpus_the_term_reserves(demo_grown):
    # Northwind itemises $0.55 of its $2.90 for the fabric; grown 6% a month its fixed base is the
    # 120 GPUs of month 12 all term: 120 x 730 x $0.55 = $48,180 a month (not month 1's 64).
    assert pytest.approx(48_180) == 120 * 730 * 0.55
    e = next(s.estimate for s in demo_grown.ranked if s.bid.id == "northwind-ib")
    assert e.reserved_by_month == (120,) * 12
    note = next(w.message for w in e.warnings if w.code == "unused_training_fabric")
    assert "about 48,180 USD a month on average over the term" in note
    assert "64 GPUs billed" not in note
