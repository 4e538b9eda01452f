"""Score an evaluation as `clusterbid score` prints it: ranked on the policy's decision basis,
with the Monte Carlo bands, win chances and tipping points (a serving evaluation: its cost per
million tokens). The app shows the same ranking; it scores live, as the officer edits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation


@dataclass(frozen=True)
class ScoreResult:
    """A training evaluation's scorecard with its bands and sensitivity, or a serving scorecard
    (`serving`, no bands: its own scorecard carries them)."""

    scorecard: Any
    uncertainty: Any = None
    sensitivity: Any = None
    serving: bool = False

    def as_json(self) -> dict[str, Any]:
        from clusterbid.core.report import scorecard_to_json

        if self.serving:
            from clusterbid.core.serving_report import serving_scorecard_to_json

            return serving_scorecard_to_json(self.scorecard)
        from clusterbid.core.uncertainty.waterfall import waterfall

        report = scorecard_to_json(self.scorecard, self.uncertainty, self.sensitivity)
        # Issue 34: why the first-ranked bid wins, from the runner-up's net cost to its own.
        parts = waterfall(self.scorecard, self.uncertainty)
        report["waterfall"] = parts.to_json(self.scorecard.evaluation.currency) if parts else None
        return report

    def as_table(self) -> str:
        from clusterbid.core.report import format_ranking_table

        if self.serving:
            from clusterbid.core.serving_report import format_serving_table

            return format_serving_table(self.scorecard)
        return format_ranking_table(self.scorecard, self.uncertainty, self.sensitivity)


def score(
    evaluation: Evaluation,
    progress: ProgressCallback,
    cancel: CancelToken,
    samples: int = DEFAULT_SAMPLES,
) -> ScoreResult:
    """Score `evaluation` with `samples` Monte Carlo draws (the policy's seed: the same figures
    every time, from every door)."""
    from clusterbid.core.workloads import is_serving

    if is_serving(evaluation):
        from clusterbid.core.serving_scoring import score_serving_evaluation

        return ScoreResult(score_serving_evaluation(evaluation), serving=True)
    from clusterbid.core.uncertainty import analyse_sensitivity
    from clusterbid.core.uncertainty.decision import decide

    progress(0.1, "drawing the Monte Carlo samples")
    scorecard, uncertainty = decide(evaluation, samples)  # ranked on the policy's decision basis
    checkpoint(cancel)
    progress(0.8, "finding the tipping points")
    sensitivity = analyse_sensitivity(evaluation, uncertainty, scorecard)
    return ScoreResult(scorecard, uncertainty, sensitivity)
