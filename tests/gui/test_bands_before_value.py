"""Issue 32 item 3: the bands are shown without waiting for the value of information (70% of
the work); it follows on the worker, from the same seed and samples, and a newer edit stops it."""

from __future__ import annotations

import math

import pytest
from tests.gui.conftest import wait_for_scoring
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.uncertainty.sampling import CHUNK
from clusterbid.core.uncertainty.value_of_information import value_of_information
from clusterbid.gui.uncertainty_source import analyse_bands, analyse_uncertainty, with_value
from clusterbid.operations.progress import Cancelled


def test_the_bands_come_without_the_value_and_the_value_is_the_one_score_computes(monkeypatch):
    import clusterbid.core.uncertainty.value_of_information as voi

    evaluation = demo_evaluation()
    calls: list[int] = []
    valued = voi.value_of_information
    monkeypatch.setattr(
        voi, "value_of_information", lambda *a, **k: calls.append(1) or valued(*a, **k)
    )
    bands = analyse_bands(evaluation)
    assert bands.value is None and bands.uncertainty is not None and calls == []
    whole = with_value(bands)
    assert len(calls) == 1
    # The same figures `clusterbid score` and the memo get: the policy's seed, the default samples.
    assert whole.value == value_of_information(
        evaluation, DEFAULT_SAMPLES, evaluation.policy.random_seed
    )
    together = analyse_uncertainty(evaluation)
    assert together.value == whole.value and together.uncertainty == bands.uncertainty


class TaskProgress:
    """As the worker's Progress: raises once cancelled; counts every look (told or asked)."""

    def __init__(self, cancel_at: int | None = None) -> None:
        self.told: list[float] = []
        self.looks, self.cancel_at = 0, cancel_at

    def _look(self) -> bool:
        self.looks += 1
        return self.cancel_at is not None and self.looks >= self.cancel_at

    @property
    def cancelled(self) -> bool:
        return self._look()

    def __call__(self, fraction: float, _message: str = "") -> None:
        if self._look():
            raise Cancelled
        self.told.append(fraction)


def test_a_newer_edit_stops_the_value_at_the_next_pass_of_draws_or_measurement():
    bands = analyse_bands(demo_evaluation())
    progress = TaskProgress()
    with_value(bands, progress)
    # A look before each pass of 4,096 draws (20,000 samples: 5 passes) and each (bid, input)
    # valued, after the first two words (the plan's figures, then the value of information);
    # the window is told each whole percent only.
    pairs = sum(len(bid.inputs) for bid in bands.uncertainty.bids.values())
    assert progress.looks == 2 + math.ceil(DEFAULT_SAMPLES / CHUNK) + pairs
    assert progress.told == sorted(progress.told) and len(progress.told) <= 1 + 100
    cancelled = TaskProgress(cancel_at=4)  # cancelled while the second pass was drawn
    with pytest.raises(Cancelled):
        with_value(bands, cancelled)
    assert cancelled.looks == 4


def test_the_window_shows_the_bands_then_the_evidence_worth_asking_for(qtbot, window):
    wait_for_scoring(qtbot, window)
    order: list[tuple[str, object]] = []
    window.rescorer.analysed.connect(lambda a: order.append(("bands", a.value)))
    window.rescorer.valued.connect(lambda a: order.append(("value", a.value)))
    weights = window.weights.current_weights()
    weights["sla"] = 20.0
    window.apply_weights(weights, "test")
    qtbot.waitUntil(lambda: len(order) == 2, timeout=HANG_GUARD_MS)
    assert order[0] == ("bands", None) and order[1][0] == "value" and order[1][1] is not None
    assert window.requests.voi is order[1][1]
