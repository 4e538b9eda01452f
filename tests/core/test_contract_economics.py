"""The commercial model (methodology section 9), one hand-computed case per billing kind.

Every case runs seed 001's illustrative job: 256 GPUs for exactly 100 hours at $7 per GPU-hour
($179,200 on demand), so each figure below is arithmetic on those three numbers."""

from __future__ import annotations

import json

import pytest
from tests.conftest import EXAMPLES

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation

JOB_GPUS, HOURS, PRICE = 256, 100.0, 7.0
MONTH = 730.0  # hours per billing month (8,760 / 12)


def _seed(plan: dict | None = None, **terms) -> dict:
    data = json.loads((EXAMPLES / "seed-network-example.json").read_text())
    data["bids"] = [data["bids"][0]]  # suitable-network: 100 hours exactly
    # Invoices due net 30, the buyer's own terms by default: no cost of cash unless a test sets one.
    data["bids"][0]["terms"].update({"payment_terms_days": 30, **terms})
    if plan:
        data["workload"]["plan"] = plan
    return data


def _estimate(plan: dict | None = None, **terms):
    scorecard = score_evaluation(Evaluation.model_validate(_seed(plan, **terms)))
    estimate = scorecard.scores[0].estimate
    assert estimate.wall_hours == pytest.approx(HOURS, abs=1e-6)
    return estimate


def test_on_demand_bills_the_job_only():
    e = _estimate(billing=None)
    # The seed file names no billing kind: read as on demand (no term), and flagged.
    assert e.bid.terms.billing is None and e.bid.terms.billing_kind == "on-demand"
    assert "billing_not_stated" in {w.code for w in e.warnings}
    assert e.commitment == pytest.approx(179_200, abs=0.01)
    assert e.job_cost == pytest.approx(179_200, abs=0.01)
    assert e.plan_cost == pytest.approx(179_200, abs=0.01)
    assert e.idle_gpu_hours == pytest.approx(0)


def test_on_demand_rounds_up_to_the_billing_increment_and_the_minimum():
    # 100 h in 8-hour steps is 13 steps = 104 h: 256 x 104 x 7 = $186,368.
    e = _estimate(billing="on-demand", billing_increment_hours=8)
    assert e.commitment == pytest.approx(256 * 104 * 7, abs=0.01) == 186_368
    assert e.plan_cost == pytest.approx(186_368, abs=0.01)  # round-up time cannot run other work
    # A 120-hour minimum per GPU: 256 x 120 x 7 = $215,040.
    e = _estimate(billing="on-demand", minimum_billed_hours=120)
    assert e.commitment == pytest.approx(215_040, abs=0.01)


RESERVED = {"billing": "reserved", "term_months": 1, "reserved_gpus": 256}


def test_a_reserved_term_longer_than_the_job_commits_the_whole_term():
    e = _estimate(**RESERVED)
    # 256 GPUs x 730 h x $7 = $1,308,160, whatever the job uses.
    assert e.commitment == pytest.approx(1_308_160, abs=0.01)
    assert e.job_cost == pytest.approx(179_200, abs=0.01)
    assert e.idle_gpu_hours == pytest.approx(256 * 630)  # 161,280 GPU-hours the job leaves idle
    assert e.plan_cost == pytest.approx(
        1_308_160, abs=0.01
    )  # the default plan: idle time is worth nothing
    assert e.jobs_in_commitment == pytest.approx(7.3)


def test_idle_time_valued_as_more_runs_or_other_work():
    # The term finishes 7.3 such jobs: with the 6.3 further runs stated, $1,308,160 / 7.3 = $179,200
    # each (two stated: a third, $436,053.33); with none stated (issue 31) idle time is worth
    # nothing, flagged.
    two = _estimate({"idle_use": "more-runs", "further_runs": 2}, **RESERVED)
    assert two.plan_cost == pytest.approx(1_308_160 / 3, abs=0.01)
    more = _estimate({"idle_use": "more-runs", "further_runs": 6.3}, **RESERVED)
    assert more.plan_cost == pytest.approx(179_200, abs=0.01)
    unstated = _estimate({"idle_use": "more-runs"}, **RESERVED)
    assert unstated.plan_cost == pytest.approx(1_308_160, abs=0.01)
    assert "further_runs_not_stated" in {w.code for w in unstated.warnings}
    other = _estimate({"idle_use": "other-work", "idle_value_per_gpu_hour": "3"}, **RESERVED)
    # 161,280 idle GPU-hours worth $3 each: $1,308,160 - $483,840 = $824,320.
    assert other.idle_value == pytest.approx(483_840, abs=0.01)
    assert other.plan_cost == pytest.approx(824_320, abs=0.01)
    # Idle time is never worth more than it costs: at $50 it counts at the term's $7.
    capped = _estimate({"idle_use": "other-work", "idle_value_per_gpu_hour": "50"}, **RESERVED)
    assert capped.plan_cost == pytest.approx(179_200, abs=0.01)


def test_an_early_exit_is_taken_when_it_costs_less_than_the_idle_term():
    e = _estimate(**RESERVED, exit_clause=True, early_exit_fee_percent=50)
    # Until exit 256 x 100 x 7 = $179,200, then half of the rest: 0.5 x 256 x 630 x 7 = $564,480.
    assert e.exit_cost == pytest.approx(743_680, abs=0.01)
    assert e.leaves_early and e.plan_cost == pytest.approx(743_680, abs=0.01)
    assert e.commitment == pytest.approx(
        1_308_160, abs=0.01
    )  # the contract signed is still the term


def test_spares_are_billed_unless_free_in_writing_and_unstated_reserved_gpus_bill_every_offered_gpu():
    data = _seed(**RESERVED)
    data["bids"][0]["capacity"].update(
        gpus_offered=512, largest_contiguous_block_gpus=512, spare_pool_gpus=16
    )
    data["bids"][0]["topology"]["leaf_domain_gpus"] = 512
    e = score_evaluation(Evaluation.model_validate(data)).scores[0].estimate
    assert e.commitment == pytest.approx((256 + 16) * 730 * 7, abs=0.01)  # $1,389,920
    assert "spares_billed" in {w.code for w in e.warnings}
    del data["bids"][0]["terms"]["reserved_gpus"]
    data["bids"][0]["terms"]["spares_free_in_writing"] = True
    e = score_evaluation(Evaluation.model_validate(data)).scores[0].estimate
    assert e.commitment == pytest.approx(512 * 730 * 7, abs=0.01)  # $2,616,320
    assert "reserved_gpus_not_stated" in {w.code for w in e.warnings}


def test_price_escalation_applies_from_each_anniversary():
    e = _estimate(
        billing="reserved", term_months=24, reserved_gpus=256, price_escalation_percent_per_year=10
    )
    # 24 x 730 = 17,520 h: 8,760 h at $7 and 8,760 h at $7.70 -> 256 x (61,320 + 67,452) = $32,965,632.
    assert (
        e.commitment
        == pytest.approx(256 * (8760 * 7 + 8760 * 7.7), abs=0.01)
        == pytest.approx(32_965_632)
    )


def test_committed_spend_under_and_over_used():
    under = _estimate(billing="committed-spend", term_months=1, committed_spend="250000")
    assert under.commitment == pytest.approx(250_000, abs=0.01)  # the minimum is owed
    assert under.idle_gpu_hours == pytest.approx(
        (250_000 - 179_200) / 7
    )  # 10,114.3 GPU-hours unused
    assert under.plan_cost == pytest.approx(250_000, abs=0.01)
    valued = _estimate(
        {"idle_use": "other-work", "idle_value_per_gpu_hour": "5"},
        billing="committed-spend",
        term_months=1,
        committed_spend="250000",
    )
    assert valued.plan_cost == pytest.approx(
        250_000 - (250_000 - 179_200) / 7 * 5, abs=0.01
    )  # $199,428.57
    over = _estimate(billing="committed-spend", term_months=1, committed_spend="100000")
    assert over.commitment == pytest.approx(179_200, abs=0.01)  # usage above the minimum is billed
    assert over.idle_gpu_hours == pytest.approx(0)


def test_committed_gpu_hours_bill_the_minimum():
    e = _estimate(billing="committed-gpu-hours", term_months=1, committed_gpu_hours=30_000)
    assert e.commitment == pytest.approx(30_000 * 7, abs=0.01)  # 25,600 used, 30,000 billed
    assert e.idle_gpu_hours == pytest.approx(4_400)


def test_a_block_booking_must_hold_the_job():
    e = _estimate(billing="block", block_days=5, reserved_gpus=256)
    assert e.passes_gates and e.commitment == pytest.approx(256 * 120 * 7, abs=0.01)  # $215,040
    short = _estimate(billing="block", block_days=4, reserved_gpus=256)  # 96 h < 100 h
    assert [g.code for g in short.gates] == ["job_outlasts_block"]
    assert "100.0" not in short.gates[0].message and "4.2 days" in short.gates[0].message


def test_a_missed_deadline_fails_a_gate_with_the_date_it_would_finish():
    # Start 2027-01-01 00:00 + 100 h = 2027-01-05 04:00.
    late = _estimate({"start_date": "2027-01-01", "deadline": "2027-01-04"})
    assert [g.code for g in late.gates] == ["misses_deadline"]
    assert "2027-01-05" in late.gates[0].message and "2027-01-04" in late.gates[0].message
    on_time = _estimate({"start_date": "2027-01-01", "deadline": "2027-01-05"})
    assert on_time.passes_gates and on_time.dates.finish.isoformat() == "2027-01-05"
    # A provisioning lead time moves the start: 10 days later, it finishes 2027-01-15.
    lead = _estimate(
        {"start_date": "2027-01-01", "deadline": "2027-01-14"}, provisioning_lead_days=10
    )
    assert lead.dates.finish.isoformat() == "2027-01-15" and not lead.passes_gates


def test_the_ranking_follows_the_buyers_plan_for_idle_time():
    data = _seed()
    reserved = json.loads(json.dumps(data["bids"][0]))
    reserved["id"] = "reserved"
    reserved["terms"].update(RESERVED)
    data["bids"][0]["terms"]["price_per_gpu_hour"] = (
        "9"  # on demand at $9: 256 x 100 x 9 = $230,400
    )
    data["bids"].append(reserved)
    order = lambda plan: [
        s.bid.id
        for s in score_evaluation(
            Evaluation.model_validate(  # noqa: E731
                {**data, "workload": {**data["workload"], "plan": plan}}
            )
        ).ranked
    ]
    assert order({"idle_use": "nothing"}) == [
        "suitable-network",
        "reserved",
    ]  # $230,400 vs $1,308,160
    assert order({"idle_use": "more-runs", "further_runs": 6.3}) == [
        "reserved",
        "suitable-network",
    ]  # $179,200 vs $230,400


def test_terms_that_contradict_their_billing_kind_are_refused_by_name():
    from pydantic import ValidationError

    for terms, words in (
        ({"billing": "reserved"}, "term_months of at least 1"),
        ({"billing": "on-demand", "term_months": 12}, "has no term"),
        ({"billing": "block"}, "block_days"),
        ({"billing": "committed-spend", "term_months": 6}, "committed_spend above 0"),
        (
            {"billing": "on-demand", "reserved_gpus": 8},
            "reserved_gpus applies to reserved and block",
        ),
    ):
        with pytest.raises(ValidationError, match=words):
            Evaluation.model_validate(_seed(**terms))


def test_the_effective_price_is_never_below_the_sticker_price():
    from clusterbid.core.documents import read_model

    for path in (EXAMPLES / "demo-evaluation.json", EXAMPLES / "seed-network-example.json"):
        for score in score_evaluation(read_model(Evaluation, path)).ranked:
            e = score.estimate
            assert e.effective_price_per_useful_gpu_hour >= e.price_per_gpu_hour, e.bid.id
