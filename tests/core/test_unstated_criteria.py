"""A blank data-centre tier or certification list scores 0 and is named where the rank is read when
stating it could move the rank (issue 38 item 1: as entered 3rd, with its facility 2nd)."""

from __future__ import annotations

from clusterbid.core.comparison_table import rank_resting_on
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.bid_pages import bid_page
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.default_effects import scorecard_default_effects
from clusterbid.core.unstated_criteria import unstated_criteria, unstated_lines


def _with_prime_facility(facility: dict) -> Evaluation:
    data = demo_evaluation().model_dump(mode="json")
    for bid in data["bids"]:
        if bid["id"] == "prime-efa":
            bid["facility"] = facility
    return Evaluation.model_validate(data)


def _prime(scorecard):
    return next(s for s in scorecard.scores if s.bid.id == "prime-efa")


BLANK = {"datacenter_tier": None, "certifications": []}
BEST = {
    "datacenter_tier": 4,
    "certifications": ["SOC2", "ISO27001"],
}  # the demo policy requires these two


def test_the_blank_facility_costs_exactly_its_two_weights():
    blank, best = (
        score_evaluation(_with_prime_facility(BLANK)),
        score_evaluation(_with_prime_facility(BEST)),
    )
    # Demo weights 70+8+5+5+3+4+5 = 100: tier 5/100 and certifications 5/100, each scored 0 when blank
    # and 1 at tier IV with both required certifications.
    assert abs((_prime(best).weighted_score - _prime(blank).weighted_score) - 0.10) < 1e-12


def test_the_rank_it_would_reach_is_the_rank_a_full_rescore_gives():
    blank, best = (
        score_evaluation(_with_prime_facility(BLANK)),
        score_evaluation(_with_prime_facility(BEST)),
    )
    found = unstated_criteria(blank)["prime-efa"]
    assert [item.criterion for item in found] == ["datacenter_tier", "certifications"]
    assert {item.rank for item in found} == {_prime(blank).rank}
    assert {item.rank_if_stated for item in found} == {_prime(best).rank}
    assert _prime(blank).rank == 3 and _prime(best).rank == 2
    assert rank_resting_on(blank)["prime-efa"] == [
        "data-centre tier (not stated)",
        "certifications (none stated)",
    ]


def test_the_memo_page_says_what_stating_it_would_do():
    blank = score_evaluation(_with_prime_facility(BLANK))
    page = bid_page(_prime(blank), blank, None, scorecard_default_effects(blank))
    assert (
        "Not stated: the data-centre tier (scored as tier I) and its certifications (each required "
        "one "
        "scored as not held); stated at their best the bid would rank 2, not 3: ask the provider "
        "before "
        "deciding."
    ) in page.risks


def test_a_stated_facility_is_not_flagged_and_an_excluded_bid_gets_no_rank_words():
    scorecard = score_evaluation(demo_evaluation())
    found = unstated_criteria(scorecard)
    # The demo's budget-tcp names no certification but a gate excludes it: listed, never ranked.
    assert list(found) == ["budget-tcp"] and found["budget-tcp"][0].rank is None
    assert unstated_lines(found["budget-tcp"]) == []
    assert "budget-tcp" not in rank_resting_on(scorecard)
