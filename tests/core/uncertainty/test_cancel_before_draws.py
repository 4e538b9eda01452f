"""A Monte Carlo a newer edit supersedes stops before its first draw (issue 32 item 1): the app's
worker raises at the checkpoint, which the run now calls after the point scoring and after the
set-up, not first before the first block of draws (at 500 bids about 0.2 s of CPU in, beside the
new edit's own scoring). Counted, not timed."""

from __future__ import annotations

import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import decision, montecarlo


class Superseded(Exception):
    pass


def _raising_after(calls: int):
    seen = []

    def checkpoint() -> None:
        seen.append(1)
        if len(seen) >= calls:
            raise Superseded

    return checkpoint, seen


def test_a_run_cancelled_at_once_stops_before_it_sets_up_any_draw(monkeypatch):
    set_up = []
    real = montecarlo.setup
    monkeypatch.setattr(montecarlo, "setup", lambda *a, **k: set_up.append(1) or real(*a, **k))
    checkpoint, seen = _raising_after(1)
    evaluation = demo_evaluation()
    with pytest.raises(Superseded):
        decision.decide(evaluation, 4_096, evaluation.policy.random_seed, checkpoint=checkpoint)
    assert seen == [1] and set_up == []  # stopped after the point scoring, nothing set up


def test_a_run_cancelled_at_its_second_checkpoint_stops_before_its_first_block(monkeypatch):
    blocks = []
    real = montecarlo.KeptOutcomes
    monkeypatch.setattr(
        montecarlo, "KeptOutcomes", lambda *a, **k: blocks.append(1) or real(*a, **k)
    )
    checkpoint, seen = _raising_after(2)
    evaluation = demo_evaluation()
    with pytest.raises(Superseded):
        decision.decide(evaluation, 4_096, evaluation.policy.random_seed, checkpoint=checkpoint)
    assert seen == [1, 1] and blocks == []  # set up, then stopped before any draw was made
