"""Issue 39, item 1: a phased delivery and its slips move the start, the finish, the deadline's
chance and the net cost, worked by hand.

The conftest bid offers 512 H100s at $2.50 on demand for a 512-GPU job. Spreads.zero() holds every
drawn input at its point figure, so in the Monte Carlo only the handover's slip varies."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest
from pydantic import ValidationError
from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.delivery_lines import delivery_rows
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.model_inputs import model_inputs, outcomes
from clusterbid.core.uncertainty.montecarlo import run_monte_carlo
from clusterbid.core.uncertainty.spreads import Spreads

JAN, FEB = dt.date(2027, 1, 4), dt.date(2027, 2, 1)
PHASED = {
    "phases": [
        {"gpus": 256, "handover": JAN.isoformat()},
        {"gpus": 256, "handover": FEB.isoformat()},
    ]
}


def _evaluation(delivery: dict | None, plan: dict | None = None, **bid_sections) -> Evaluation:
    bid = bid_dict("b1", capacity={"available_from": JAN.isoformat()}, **bid_sections)
    if delivery is not None:
        bid["delivery"] = delivery
    data = evaluation_dict([bid])
    data["workload"]["plan"] = {"start_date": "2026-12-01", **(plan or {})}
    return Evaluation.model_validate(data)


def _point(evaluation: Evaluation):
    return score_evaluation(evaluation).scores[0].estimate


def _drawn(evaluation: Evaluation, samples: int):
    """The draws as the decision makes them (a bid late at its point estimate is drawn too, as
    uncertainty/decision.py does), every input but the slip at its point."""
    lifted = score_evaluation(evaluation, on_time={"b1": None})
    return run_monte_carlo(
        evaluation, samples, spreads=Spreads.zero(), scorecard=lifted, precision=None
    ).bids["b1"]


def _finish(start: dt.date, hours: float) -> dt.date:
    return (dt.datetime.combine(start, dt.time()) + dt.timedelta(hours=hours)).date()


def test_the_job_starts_when_its_contiguous_block_is_handed_over():
    """256 GPUs on 4 January and 256 on 1 February: the 512-GPU job's block is complete on
    1 February, 28 days after the single date, and finishes 28 days later on the same run."""
    single = _point(_evaluation(None))
    phased = _point(_evaluation(PHASED))
    assert single.dates.start == JAN and phased.dates.start == FEB
    assert phased.wall_hours == pytest.approx(single.wall_hours)
    assert phased.dates.finish == _finish(FEB, phased.wall_hours)
    assert (phased.dates.finish - single.dates.finish).days == 28
    assert "phase" in phased.dates.basis


def test_a_phase_outside_the_block_does_not_complete_it():
    """The February GPUs sit on another fabric: the block never reaches 512, which is said."""
    apart = {
        "phases": [
            {"gpus": 256, "handover": JAN.isoformat()},
            {"gpus": 256, "handover": FEB.isoformat(), "contiguous": False},
        ]
    }
    estimate = _point(_evaluation(apart))
    assert any(w.code == "delivery_block_short" and "512" in w.message for w in estimate.warnings)


def test_phases_that_do_not_add_up_to_the_offer_are_refused_by_name():
    short = {"phases": [{"gpus": 256, "handover": JAN.isoformat()}]}
    with pytest.raises(
        ValidationError, match="delivery.phases hand over 256 GPUs but capacity.gpus_offered is 512"
    ):
        _evaluation(short)
    backwards = {
        "phases": [
            {"gpus": 256, "handover": FEB.isoformat()},
            {"gpus": 256, "handover": JAN.isoformat()},
        ]
    }
    with pytest.raises(ValidationError, match="date order"):
        _evaluation(backwards)


def test_a_slip_moves_the_finish_and_the_deadline_probability_as_counted_by_hand():
    """The provider's past deliveries: one on time, one 20 days late, so half the draws hand the
    block over 480 hours late. The deadline leaves 10 days beyond the run: on time exactly when the
    draw did not slip, so P(on time) = 1/2 (within 4 standard errors of the draws); the P90 finish
    is the run plus 480 hours."""
    base = _point(_evaluation(None))
    run_days = math.ceil(base.wall_hours / 24.0)
    deadline = FEB + dt.timedelta(days=run_days + 10)
    slipping = {**PHASED, "past_slip_days": [0, 20]}
    evaluation = _evaluation(slipping, {"deadline": deadline.isoformat()})
    samples = 8_192
    result = _drawn(evaluation, samples)
    assert result.on_time_probability == pytest.approx(0.5, abs=4 * math.sqrt(0.25 / samples))
    assert result.finish_hours_p90 == pytest.approx(base.wall_hours + 480.0, rel=1e-5)
    assert result.hours_p90 == pytest.approx(
        base.wall_hours, rel=1e-5
    )  # the run itself is not longer
    # The same schedule stated as always on time: every draw makes the deadline.
    on_time = _evaluation({**PHASED, "on_time_percent": 100}, {"deadline": deadline.isoformat()})
    assert _drawn(on_time, 4_096).on_time_probability == 1.0


def test_a_slip_costs_the_delay_and_earns_the_damages_stated():
    """Always 30 days late (history [30]), a deadline the run misses anyway, $1,000 a day of delay
    and $400 a day of liquidated damages (far under the 10% cap): every draw costs 30 x 1,000 more
    and earns 30 x 400 back than the same bid without a schedule, so the mean moves by $18,000."""
    deadline = (JAN + dt.timedelta(days=2)).isoformat()
    plan = {"deadline": deadline, "delay_cost_per_day": "1000"}
    late = {
        "phases": [{"gpus": 512, "handover": JAN.isoformat()}],
        "past_slip_days": [30],
        "liquidated_damages_per_day": "400",
    }
    with_slip, without = (
        _drawn(_evaluation(late, plan), 4_096),
        _drawn(_evaluation(None, plan), 4_096),
    )
    assert with_slip.cost_mean - without.cost_mean == pytest.approx(30 * 1_000 - 30 * 400, rel=1e-4)
    assert with_slip.on_time_probability == without.on_time_probability == 0.0


def test_a_term_billed_from_the_stated_date_pays_for_the_slip():
    """A 2-month reserved term (1,460 h) billed from the stated date: 720 hours of slip plus the run
    outlast it, and the overrun is billed at the price on the job's GPUs, 512 x $2.50 x (run + 720 -
    1,460). Billing from acceptance: nothing moves."""
    terms = {"billing": "reserved", "term_months": 2, "spares_free_in_writing": True}
    billed = _evaluation(
        {
            "phases": [{"gpus": 512, "handover": JAN.isoformat()}],
            "billing_starts_at_acceptance": False,
        },
        terms=terms,
    )
    at_acceptance = _evaluation(
        {
            "phases": [{"gpus": 512, "handover": JAN.isoformat()}],
            "billing_starts_at_acceptance": True,
        },
        terms=terms,
    )
    bills = []
    for evaluation in (billed, at_acceptance):
        inputs = model_inputs(evaluation)
        arrays = inputs.arrays.replace(slip_hours=np.array([720.0]))
        bills.append(outcomes(inputs.workload, arrays))
    wall = float(bills[0].wall_hours[0])
    assert wall + 720 > 1_460  # the case this test is about
    term_value = 512 * 2.50 * 1_460
    assert float(bills[0].contract.commitment[0]) == pytest.approx(
        term_value + 512 * 2.50 * (wall + 720 - 1_460)
    )
    assert float(bills[1].contract.commitment[0]) == pytest.approx(term_value)


def test_the_bid_page_says_where_the_slip_comes_from_and_how_often_termination_is_reached():
    """Past slips of 0, 20, 40 and 60 days and a right to terminate after 30 days late: reached by
    2 of the 4 (50%). Nothing stated: ClusterBid's default, late in half the draws by 30 days on
    average, reaches 30 days in 0.5 x e^-1 = 18% of them, and says it is a default."""
    history = {
        **PHASED,
        "past_slip_days": [0, 20, 40, 60],
        "terminate_after_days_late": 30,
        "liquidated_damages_per_day": "400",
    }
    rows = dict(delivery_rows(_evaluation(history).bids[0], 512))
    assert (
        rows["Delivery"]
        == "256 GPUs on 2027-01-04; 256 GPUs on 2027-02-01: the job's 512-GPU block is complete on 2027-02-01"
    )
    assert rows["Slip"].startswith(
        "drawn from the provider's 4 past deliveries (3 late), stated by provider"
    )
    assert (
        "terminate after 30 days late (reached in 50% of the slips drawn)" in rows["Late delivery"]
    )
    assert "no cap stated, counted up to 10% (ClusterBid default)" in rows["Late delivery"]
    assert "not stated when billing starts" in rows["Late delivery"]
    blank = dict(
        delivery_rows(_evaluation({**PHASED, "terminate_after_days_late": 30}).bids[0], 512)
    )
    assert blank["Slip"].startswith("not stated:") and "ClusterBid default" in blank["Slip"]
    assert f"(reached in {0.5 * math.exp(-1):.0%} of the slips drawn)" in blank["Late delivery"]
