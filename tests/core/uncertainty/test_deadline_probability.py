"""Issue 31, item 6: deadlines as probabilities. A bid whose point estimate finishes late but
whose draws finish in time often enough for the buyer is ranked and flagged, never excluded on the
point; the buyer's cost of delay per day enters the net cost in every late draw. Worked by hand on
one 8-GPU node without failures, where the wall-clock hours are the point's hours x 0.42 / the
drawn MFU, log-normal with sigma sqrt(0.15^2 + 0.10^2) = 0.1803 (uptime's draw is negligible)."""

from __future__ import annotations

import datetime as dt
import math
import re

import pytest
from pydantic import ValidationError
from tests.core.uncertainty.helpers import evaluation, no_failure_bid, one_node_workload

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.decision import decide

SAMPLES = 20_000
SIGMA = math.hypot(0.15, 0.10)
START = dt.date(2027, 1, 4)


def _phi(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))


def _timed(days: int, **plan) -> Evaluation:
    """The one-node bid with a deadline `days` days after the start (days x 24 h to its end)."""
    data = evaluation([no_failure_bid("only")], one_node_workload()).model_dump(mode="json")
    data["workload"]["plan"].update(
        start_date=START.isoformat(),
        deadline=(START + dt.timedelta(days=days - 1)).isoformat(),
        **plan,
    )
    return Evaluation.model_validate(data)


def _point_hours() -> float:
    return (
        score_evaluation(evaluation([no_failure_bid("only")], one_node_workload()))
        .scores[0]
        .estimate.wall_hours
    )


def _late_by_a_little() -> tuple[int, float]:
    """A deadline day just before the point's finish: the point is late, P(on time) under 50%."""
    hours = _point_hours()
    days = math.floor(0.97 * hours / 24)
    return days, _phi(math.log(days * 24 / hours) / SIGMA)


def test_a_late_point_with_enough_draws_in_time_is_ranked_and_flagged():
    days, chance = _late_by_a_little()
    assert 0.3 < chance < 0.5  # by hand: Phi(ln(B / H) / 0.1803)
    timed = _timed(days, deadline_confidence=0.3)
    assert [g.code for g in score_evaluation(timed).scores[0].estimate.gates] == [
        "misses_deadline"
    ]  # the point
    card, drawn = decide(timed, SAMPLES)
    assert [s.bid.id for s in card.ranked] == ["only"]
    assert drawn.bids["only"].on_time_probability == pytest.approx(chance, abs=0.01)
    risk = next(w for w in card.ranked[0].estimate.warnings if w.code == "deadline_risk")
    shown = float(re.search(r"but ([0-9.]+)% of the draws finish by it", risk.message).group(1))
    assert shown / 100 == pytest.approx(chance, abs=0.01)
    assert "(the buyer requires 30%): ranked, a deadline risk" in risk.message
    # The same bid against the default 80% fails the gate, its chance in the reason.
    strict, _ = decide(_timed(days), SAMPLES)
    assert not strict.ranked and strict.scores[0].estimate.gates[0].code == "deadline_unlikely"


def test_the_cost_of_delay_enters_the_net_cost_per_late_day():
    """$50,000 a day late. Point: (H - B) / 24 days x $50,000 on top of the plan cost. Draws: the
    expected hours late are E[max(0, H e^(sigma Z) - B)] = H e^(sigma^2 / 2) Phi(d1) - B Phi(d2),
    d2 = ln(H / B) / sigma, d1 = d2 + sigma (the log-normal's partial expectation), so the mean
    net cost rises by $50,000 / 24 per expected late hour."""
    days, _ = _late_by_a_little()
    hours, budget = _point_hours(), days * 24.0
    plain, costly = (
        _timed(days, deadline_confidence=0.3),
        _timed(days, deadline_confidence=0.3, delay_cost_per_day="50000"),
    )
    a, b = (score_evaluation(e).scores[0].estimate for e in (plain, costly))
    assert b.delay_cost == pytest.approx(50_000 * (hours - budget) / 24, rel=1e-9)
    assert b.plan_cost - a.plan_cost == pytest.approx(50_000 * (hours - budget) / 24, rel=1e-9)
    assert a.delay_cost == 0
    d2 = math.log(hours / budget) / SIGMA
    late_hours = hours * math.exp(SIGMA**2 / 2) * _phi(d2 + SIGMA) - budget * _phi(d2)
    (_, drawn_plain), (card, drawn_costly) = decide(plain, SAMPLES), decide(costly, SAMPLES)
    added = drawn_costly.bids["only"].cost_mean - drawn_plain.bids["only"].cost_mean
    assert added == pytest.approx(50_000 / 24 * late_hours, rel=0.03)
    risk = next(w for w in card.ranked[0].estimate.warnings if w.code == "deadline_risk")
    assert "each day past it costs $50,000, counted in the net cost" in risk.message


def test_a_cost_of_delay_without_a_deadline_is_refused_by_name():
    data = evaluation([no_failure_bid("only")], one_node_workload()).model_dump(mode="json")
    data["workload"]["plan"]["delay_cost_per_day"] = "1000"
    with pytest.raises(ValidationError, match="delay_cost_per_day needs a deadline"):
        Evaluation.model_validate(data)


def test_page_one_says_a_ranked_bid_late_at_the_point_is_a_deadline_risk():
    from clusterbid.core.memo.decision_checks import schedule_fit

    days, chance = _late_by_a_little()
    card, _ = decide(_timed(days, deadline_confidence=0.3), SAMPLES)
    fit = schedule_fit(card.ranked[0], card)
    assert fit["schedule_ok"] is False
    assert fit["schedule"].startswith("a deadline risk: the point estimate finishes on ")
    deadline = (START + dt.timedelta(days=days - 1)).isoformat()
    shown = re.search(
        rf"after the deadline of {deadline}, but ([0-9.]+)% of the draws", fit["schedule"]
    )
    assert float(shown.group(1)) / 100 == pytest.approx(chance, abs=0.01)
