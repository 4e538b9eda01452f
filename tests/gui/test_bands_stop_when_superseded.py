"""Issue 32 item 1: the app's bands work stops within one block of one pass of the Monte Carlo's
draws once a newer edit cancels it (the runner's `Progress` token), instead of keeping a core
busy to the end of `decide`. Passes are counted, never timed."""

from __future__ import annotations

import pytest
from tests.core.uncertainty.test_decide_reuses_draws import bids_like_the_demo, count_passes

from clusterbid.gui.uncertainty_source import analyse_bands
from clusterbid.operations.progress import Cancelled


class RunnerToken:
    """As the background runner's Progress: reports when called, raises once cancelled."""

    def __init__(self) -> None:
        self.cancelled = False
        self.reports: list[str] = []

    def __call__(self, fraction: float, message: str = "") -> None:
        if self.cancelled:
            raise Cancelled
        self.reports.append(message)


def test_the_bands_stop_in_the_pass_a_newer_edit_cancels(monkeypatch):
    token = RunnerToken()

    def newer_edit(k: int) -> None:
        if k == 2:
            token.cancelled = True

    passes = count_passes(monkeypatch, during=newer_edit)
    with pytest.raises(Cancelled):
        analyse_bands(bids_like_the_demo(50), token)
    # Three passes under the stop rule at 50 bids: the cancel comes as the second's common
    # draws are made, before its first block of bids, and none of its blocks runs.
    assert len(passes) == 2
    assert token.reports == ["Monte Carlo"]  # nothing after the draws was started


def test_bands_not_cancelled_draw_each_pass_once_for_both_rankings(monkeypatch):
    passes = count_passes(monkeypatch)
    analysis = analyse_bands(bids_like_the_demo(50), RunnerToken())
    # The Monte Carlo's passes once for the point and the decided ranking (the old code drew
    # them twice), then the waterfall's, which draws the same samples again for its mixtures.
    assert sum(passes) == 2 * analysis.uncertainty.samples
    assert analysis.uncertainty.samples == 3 * 4096
