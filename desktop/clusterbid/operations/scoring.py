"""Score an evaluation as `clusterbid score` prints it: ranked on the policy's decision basis,
with the Monte Carlo bands, win chances and tipping points (a serving evaluation: its cost per
million tokens). The app shows the same ranking; it scores live, as the officer edits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clusterbid.core.kinds import kind_of, kind_of_scorecard
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation


@dataclass(frozen=True)
class ScoreResult:
    """A scorecard of the evaluation's kind (core/kinds.py) with its bands and tipping points
    (a serving scorecard: None for both, its own scorecard carries them)."""

    scorecard: Any
    uncertainty: Any = None
    sensitivity: Any = None

    def as_json(self) -> dict[str, Any]:
        kind = kind_of_scorecard(self.scorecard)
        return kind.report_json(self.scorecard, self.uncertainty, self.sensitivity)

    def as_table(self) -> str:
        kind = kind_of_scorecard(self.scorecard)
        return kind.report_table(self.scorecard, self.uncertainty, self.sensitivity)


def score(
    evaluation: Evaluation,
    progress: ProgressCallback,
    cancel: CancelToken,
    samples: int = DEFAULT_SAMPLES,
) -> ScoreResult:
    """Score `evaluation` with `samples` Monte Carlo draws (the policy's seed: the same figures
    every time, from every door), through what its kind provides."""
    kind = kind_of(evaluation)
    progress(0.1, "drawing the Monte Carlo samples")
    scorecard, uncertainty = kind.monte_carlo(evaluation, samples)
    checkpoint(cancel)
    progress(0.8, "finding the tipping points")
    return ScoreResult(scorecard, uncertainty, kind.tipping(evaluation, uncertainty, scorecard))
