"""Issue 32 item 7: verify re-scores the attached inputs and renders them again, and both decide
the same evaluation on the same draws (the seed, the samples and the precision fix them); the
Monte Carlo is run once and its answer shared (core/uncertainty/decision.py decisions_shared).
Runs are counted, never timed; the shared answer is the one a run of its own gives."""

from __future__ import annotations

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import decision
from clusterbid.core.uncertainty.decision import decide, decisions_shared

SAMPLES = 400  # a Monte Carlo small enough for the test, big enough to rank on


def counting(monkeypatch) -> list[tuple]:
    """Each run of the Monte Carlo behind `decide`, as (samples, seed) in call order."""
    runs: list[tuple] = []
    real = decision._decide

    def counted(evaluation, samples, seed, *rest):
        runs.append((samples, seed))
        return real(evaluation, samples, seed, *rest)

    monkeypatch.setattr(decision, "_decide", counted)
    return runs


def test_decide_shares_one_run_for_the_same_draws(monkeypatch):
    runs = counting(monkeypatch)
    evaluation, again = demo_evaluation(), demo_evaluation()  # equal content, other objects
    seed = evaluation.policy.random_seed
    alone = decide(evaluation, SAMPLES)
    assert len(runs) == 1
    with decisions_shared():
        first = decide(evaluation, SAMPLES)  # the policy's seed by default ...
        second = decide(again, SAMPLES, seed)  # ... is the seed named: the same draws
        assert len(runs) == 2 and second is first
        decide(evaluation, SAMPLES, seed + 1)  # other draws: run again
        decide(evaluation, SAMPLES + 1)
        decide(evaluation, SAMPLES, checkpoint=lambda: None)  # the app's worker: never shared
        assert len(runs) == 5
    decide(evaluation, SAMPLES)  # outside: not shared
    assert len(runs) == 6
    # the shared answer is what a run of its own gives
    assert [s.bid.id for s in first[0].ranked] == [s.bid.id for s in alone[0].ranked]
    assert first[1].bids.keys() == alone[1].bids.keys()
    for bid_id, band in alone[1].bids.items():
        assert first[1].bids[bid_id].decision_cost("mean") == band.decision_cost("mean")


def test_verify_runs_the_monte_carlo_once(monkeypatch):
    """A memo ranked on its Monte Carlo: the re-score and the re-render ran it twice before."""
    from clusterbid.core.memo.making import make_memo
    from clusterbid.core.memo.verification import verify_memo

    pdf = make_memo(demo_evaluation(), approvers=["Ada Lovelace, CFO"], samples=SAMPLES)
    runs = counting(monkeypatch)
    result = verify_memo(pdf)
    assert runs == [(SAMPLES, None)]  # the re-score's run; the re-render took its answer
    assert result.pages_proven and result.rescore_matches  # every page still rendered again
