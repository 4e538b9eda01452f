"""Issue 32 item 1: `decide` tallies the decided ranking on the draws the point ranking's run
made, instead of drawing them all again. Its bands and chances must be the very figures the old
second run (a Monte Carlo set up from the decided scorecard) gave: compared here with that run,
and with a tally by hand from the kept sample arrays; the passes of draws are counted, never
timed. A superseded run stops within one pass of its cancel."""

from __future__ import annotations

import datetime as dt
import threading
from decimal import Decimal

import numpy as np
import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import sampling
from clusterbid.core.uncertainty.decision import decide
from clusterbid.core.uncertainty.montecarlo import monte_carlo_kept, run_monte_carlo, tallied
from clusterbid.core.uncertainty.sampling import CHUNK, sample_plan_costs, setup
from clusterbid.core.uncertainty.spreads import Spreads

SAMPLES = 20_000


def bids_like_the_demo(count: int) -> Evaluation:
    """The demo's workload with its bids repeated under new ids, each a few cents dearer (0-6):
    many near-equal bids, so the decided ranking orders some differently from the point."""
    demo = demo_evaluation()
    bids = []
    for i in range(count):
        bid = demo.bids[i % len(demo.bids)].model_dump()
        bid["id"] = f"bid-{i:04d}"
        bid["terms"]["price_per_gpu_hour"] += Decimal(i % 7) / 100
        bids.append(bid)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})


def old_two_runs(evaluation: Evaluation, precision: float | None):
    """`decide` as it was: the draws set up from the point scorecard, then, when the decided
    ranking differs, a second Monte Carlo set up from the decided scorecard."""
    deadline = evaluation.workload.plan.deadline is not None
    point = score_evaluation(
        evaluation, on_time={b.id: None for b in evaluation.bids} if deadline else None
    )
    first = run_monte_carlo(evaluation, SAMPLES, scorecard=point, precision=precision)
    basis = evaluation.policy.decision_basis
    decided = score_evaluation(
        evaluation,
        {i: b.decision_cost(basis) for i, b in first.bids.items()},
        basis,
        {i: b.on_time_probability for i, b in first.bids.items()},
    )
    if [s.bid.id for s in decided.ranked] == [s.bid.id for s in point.ranked]:
        return decided, first, first
    return (
        decided,
        first,
        run_monte_carlo(evaluation, SAMPLES, scorecard=decided, precision=precision),
    )


def same(a, b) -> bool:
    """Every figure equal to the last bit (repr round-trips a float; nan prints alike)."""
    return repr(a) == repr(b)


@pytest.mark.parametrize("basis", ["expected", "p50"])
def test_the_demo_decides_as_with_two_runs(basis):
    data = demo_evaluation().model_dump(mode="json")
    data["policy"]["decision_basis"] = basis
    demo = Evaluation.model_validate(data)
    decided, result = decide(demo, SAMPLES)
    old_decided, _, old = old_two_runs(demo, 0.01)
    assert [s.bid.id for s in decided.ranked] == [s.bid.id for s in old_decided.ranked]
    assert same(result, old)


@pytest.mark.parametrize("precision", [0.01, None])
def test_fifty_bids_reranked_on_the_same_draws_give_the_second_runs_figures(precision):
    evaluation = bids_like_the_demo(50)
    decided, result = decide(evaluation, SAMPLES, precision=precision)
    old_decided, first, old = old_two_runs(evaluation, precision)
    assert old is not first  # the decided ranking differs: the path the old code ran twice
    assert [s.bid.id for s in decided.ranked] == [s.bid.id for s in old_decided.ranked]
    assert same(result, old)
    # And by hand from the whole sample arrays of a run set up from the decided scorecard.
    kept = sample_plan_costs(evaluation, SAMPLES, scorecard=decided)
    taken = result.samples
    cost = kept.cost[:, :taken].astype(np.float64)
    assert list(result.bids) == list(kept.ids)  # the decided cost order
    leader = kept.ids.index(decided.ranked[0].bid.id)
    wins = np.bincount(cost.argmin(axis=0), minlength=len(kept.ids))
    kept_rank = (np.sort(cost, axis=0) == cost).sum(axis=1)
    for i, bid_id in enumerate(kept.ids):
        bid = result.bids[bid_id]
        assert bid.win_probability == wins[i] / taken
        assert bid.beats_leader == np.count_nonzero(cost[i] < cost[leader]) / taken
        assert bid.rank_stability == kept_rank[i] / taken
        assert bid.point_cost_rank == i + 1
        assert bid.cost_mean == pytest.approx(cost[i].mean(), rel=1e-12)
        p10, p50, p90 = np.percentile(cost[i], [10, 50, 90])
        assert (bid.cost_p10, bid.cost_p50, bid.cost_p90) == pytest.approx((p10, p50, p90))


def test_bids_gated_on_their_draws_leave_the_decided_tally_and_its_stop():
    """A deadline most bids' points meet only just: half of them finish in time in under half
    of their draws and are gated, so the decided tally has fewer bids, other chances and stops
    at another count of samples than the point's run; still the second run's figures."""
    data = bids_like_the_demo(14).model_dump(mode="json")
    data["workload"]["plan"].update(deadline="2027-03-08", deadline_confidence=0.5)
    evaluation = Evaluation.model_validate(data)
    assert evaluation.workload.plan.deadline == dt.date(2027, 3, 8)
    decided, result = decide(evaluation, SAMPLES)
    _, first, old = old_two_runs(evaluation, 0.01)
    assert 0 < len(result.bids) < len(first.bids)
    assert result.samples != first.samples
    assert same(result, old)


def test_a_tally_that_needs_more_samples_draws_on_where_the_first_stopped():
    evaluation = bids_like_the_demo(50)
    point = score_evaluation(evaluation)
    first, kept = monte_carlo_kept(evaluation, SAMPLES, scorecard=point)
    assert kept is not None and first.samples < SAMPLES
    assert kept.passes_run == first.samples // CHUNK  # drawn only as far as the stop rule asked
    every = tallied(kept, first.seed, None, point.ranked[0].bid.id, None)
    assert kept.passes_run == -(-SAMPLES // CHUNK)
    assert same(every, run_monte_carlo(evaluation, SAMPLES, scorecard=point, precision=None))


def count_passes(monkeypatch, during=None) -> list[int]:
    """Counts the passes of draws (each draws the common streams once) made on this thread
    (a window's worker left by another test may still be drawing); `during` is called inside
    each, as a newer edit arriving while the pass runs."""
    passes: list[int] = []
    original = sampling._common_draws
    here = threading.get_ident()

    def counted(s, n):
        if threading.get_ident() == here:
            passes.append(n)
            if during is not None:
                during(len(passes))
        return original(s, n)

    monkeypatch.setattr(sampling, "_common_draws", counted)
    return passes


def test_fifty_bids_are_drawn_once_however_the_ranking_moves(monkeypatch):
    evaluation = bids_like_the_demo(50)
    passes = count_passes(monkeypatch)
    _, result = decide(evaluation, SAMPLES)
    # 12,288 samples under the stop rule: three passes of 4,096, where the old code ran six.
    assert sum(passes) == result.samples == 3 * CHUNK
    assert len(passes) == 3


class Superseded(Exception):
    pass


def test_a_run_cancelled_during_a_block_of_bids_runs_no_other(monkeypatch):
    """The cancel comes while the first block of the second pass is drawn: that block ends, no
    other starts (the old decide ran every pass of both runs, ten at this size, to its end)."""
    evaluation = bids_like_the_demo(50)
    blocks = len(setup(evaluation, 7, Spreads(), score_evaluation(evaluation)).blocks)
    assert blocks > 1  # the bids are drawn in more than one block per pass
    drawn: list[int] = []
    original = sampling._factors
    here = threading.get_ident()

    def counted(block, n, common):
        if threading.get_ident() == here:
            drawn.append(len(block.rows))
        return original(block, n, common)

    monkeypatch.setattr(sampling, "_factors", counted)

    def checkpoint() -> None:
        if len(drawn) > blocks:  # the newer edit came during block 1 of pass 2
            raise Superseded

    with pytest.raises(Superseded):
        decide(evaluation, SAMPLES, precision=None, checkpoint=checkpoint)
    assert len(drawn) == blocks + 1
