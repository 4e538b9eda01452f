"""The score operation `clusterbid score` prints: a cancel stops it between its two analyses."""

from __future__ import annotations

import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.kinds import TRAINING, kind_of_scorecard
from clusterbid.operations import scoring
from clusterbid.operations.progress import NEVER_CANCELLED, CancelFlag, Cancelled


def test_a_cancel_during_the_draws_skips_the_tipping_points(monkeypatch):
    token, heard, analysed = CancelFlag(), [], []
    monkeypatch.setattr(
        "clusterbid.core.uncertainty.analyse_sensitivity", lambda *args: analysed.append(args)
    )

    def progress(fraction: float, message: str = "") -> None:
        heard.append(message)
        token.cancel()  # the officer cancels as soon as the work starts

    with pytest.raises(Cancelled):
        scoring.score(demo_evaluation(), progress, token, samples=200)
    assert heard == ["drawing the Monte Carlo samples"] and analysed == []


def test_the_sample_count_asked_for_is_the_one_drawn():
    result = scoring.score(demo_evaluation(), lambda *_: None, NEVER_CANCELLED, samples=300)
    assert result.uncertainty.samples == 300 and kind_of_scorecard(result.scorecard) is TRAINING
