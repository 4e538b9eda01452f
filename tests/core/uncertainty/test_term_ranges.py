"""Issue 31 item 5: a commercial term nobody put in writing is drawn across a range by the Monte
Carlo, never fixed at a point. Seed 001's job: 256 GPUs for exactly 100 hours at $7 per GPU-hour
on a one-month reservation (730 h) with an exit clause (test_unstated_terms.py): leaving after the
job costs 256 x 100 x 7 = $179,200 plus the fee's share of the 630 hours left, 256 x 630 x 7 =
$1,128,960; keeping the term costs 256 x 730 x 7 = $1,308,160 (idle time worth nothing)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from pydantic import ValidationError
from tests.core.test_contract_economics import RESERVED, _seed

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.provenance import Source
from clusterbid.core.uncertainty import Spreads, run_monte_carlo
from clusterbid.core.uncertainty.sampling import sample_plan_costs

UNTIL_EXIT, REST_OF_TERM, WHOLE_TERM = 179_200.0, 1_128_960.0, 1_308_160.0
ONLY_TERMS = dataclasses.replace(Spreads.zero(), term_ranges=True)  # every other input at its point


def _exit_fee(fee: float | None, source: dict | None = None) -> Evaluation:
    data = _seed(**RESERVED, exit_clause=True, early_exit_fee_percent=fee)
    if source is not None:
        data["bids"][0]["provenance"] = {"terms.early_exit_fee_percent": source}
    return Evaluation.model_validate(data)


def _triangular_quantile(q: float, low: float, likely: float, high: float) -> float:
    """Inverse CDF of the triangular distribution, from its definition."""
    split = (likely - low) / (high - low)
    if q < split:
        return low + math.sqrt(q * (high - low) * (likely - low))
    return high - math.sqrt((1 - q) * (high - low) * (high - likely))


def _within_sampling_error(
    got: float, q: float, low: float, likely: float, high: float, samples: int
) -> bool:
    """Whether a sampled P(q) of the cost is the fee's quantile give or take four standard errors
    of a sample quantile, sqrt(q (1 - q) / n) / density (the density of the triangle at it)."""
    fee = _triangular_quantile(q, low, likely, high)
    density = 2 * (
        (fee - low) / ((high - low) * (likely - low))
        if fee < likely
        else (high - fee) / ((high - low) * (high - likely))
    )
    error = 4 * math.sqrt(q * (1 - q) / samples) / density
    return abs(got - (UNTIL_EXIT + fee / 100 * REST_OF_TERM)) <= error / 100 * REST_OF_TERM


def test_a_fee_the_buyer_gives_as_a_range_is_drawn_across_it():
    """Fee 'about 30%, somewhere in 20-40%' (the buyer's assumption): leaving always beats keeping
    the term (at 40%: $179,200 + $451,584 = $630,784 < $1,308,160), so the cost is $179,200 + fee x
    $1,128,960 with the fee triangular(20, 30, 40): P10 at 20 + sqrt(0.1 x 20 x 10) = 24.47%, P50
    at 30% ($517,888), P90 at 35.53%."""
    ev = _exit_fee(
        30,
        {
            "kind": "assumption",
            "who": "J. Ruiz",
            "why": "said 20-40% on the call",
            "low": 20,
            "high": 40,
        },
    )
    result = run_monte_carlo(ev, 20_000, spreads=ONLY_TERMS, precision=None)
    b = result.bids["suitable-network"]
    assert UNTIL_EXIT + 0.30 * REST_OF_TERM == 517_888
    for got, q in ((b.cost_p10, 0.1), (b.cost_p50, 0.5), (b.cost_p90, 0.9)):
        assert _within_sampling_error(got, q, 20, 30, 40, 20_000)
    assert b.cost_mean == pytest.approx(
        517_888, rel=0.003
    )  # the triangle's mean, (20 + 30 + 40) / 3
    (term,) = b.term_ranges
    assert (term.path, term.low, term.likely, term.high) == (
        "terms.early_exit_fee_percent",
        20,
        30,
        40,
    )


def test_a_fee_nobody_stated_is_drawn_from_the_typical_statement_to_the_cautious_default():
    """Not stated: the point keeps the cautious 100% (keep the term, $1,308,160); the draws run
    triangular(50, 100, 100): P10 at 50 + 50 sqrt(0.1) = 65.81%, P50 at 85.36%, never below the
    typical 50% ($743,680) nor above the point."""
    result = run_monte_carlo(_exit_fee(None), 20_000, spreads=ONLY_TERMS, precision=None)
    b = result.bids["suitable-network"]
    for got, q in ((b.cost_p10, 0.1), (b.cost_p50, 0.5), (b.cost_p90, 0.9)):
        assert _within_sampling_error(got, q, 50, 100, 100, 20_000)
    assert b.point_percentile == 1.0  # every draw at or below the cautious point figure
    costs = sample_plan_costs(_exit_fee(None), 20_000, spreads=ONLY_TERMS).cost[0]
    assert costs.min() >= UNTIL_EXIT + 0.5 * REST_OF_TERM - 1 and costs.max() <= WHOLE_TERM + 1


def test_a_fee_in_writing_is_not_drawn():
    result = run_monte_carlo(_exit_fee(50), 2_000, spreads=ONLY_TERMS, precision=None)
    b = result.bids["suitable-network"]
    assert b.term_ranges == ()
    assert (
        b.cost_p10 == b.cost_p90 == pytest.approx(UNTIL_EXIT + 0.5 * REST_OF_TERM, rel=1e-6)
    )  # $743,680


@pytest.mark.parametrize("term", ["exit fee", "escalation"])
def test_silence_never_pays_sample_by_sample(term):
    """Every input drawn as usual, the same bid id (the same streams): leaving the term out is
    never cheaper, in any sample, than stating the typical figure (exit fee 50%; escalation 3% a
    year on a 24-month term, which reaches its first anniversary)."""
    if term == "exit fee":
        silent, stated = _exit_fee(None), _exit_fee(50)
    else:
        term24 = {"billing": "reserved", "term_months": 24, "reserved_gpus": 256}
        silent = Evaluation.model_validate(_seed(**term24, price_escalation_percent_per_year=None))
        stated = Evaluation.model_validate(_seed(**term24, price_escalation_percent_per_year=3))
    quiet = sample_plan_costs(silent, 8_000).cost[0]
    honest = sample_plan_costs(stated, 8_000).cost[0]
    assert np.all(quiet >= honest * (1 - 1e-6))
    assert quiet.mean() > honest.mean()  # and the range is drawn: not always the same cost


def test_a_range_is_the_buyers_and_holds_its_figure():
    with pytest.raises(ValueError, match="a range .* is the buyer's assumption"):
        Source(kind="provider", low=10, high=20)
    with pytest.raises(ValueError, match="'low' \\(40\\) is above its 'high' \\(20\\): swap them"):
        Source(kind="assumption", who="J. Ruiz", low=40, high=20)
    with pytest.raises(ValueError, match="gives both 'low' and 'high'"):
        Source(kind="assumption", who="J. Ruiz", low=40)
    with pytest.raises(
        ValidationError, match="terms.early_exit_fee_percent is 50, outside the buyer's range 20-40"
    ):
        _exit_fee(50, {"kind": "assumption", "who": "J. Ruiz", "low": 20, "high": 40})
