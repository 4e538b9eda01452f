"""The one place the GUI asks for Monte Carlo uncertainty and weight sensitivity (the table's
bands, the tipping points, the tornado and the memo export all use it)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.operations.progress import Cancelled

# The same count and seed as `clusterbid score` and the memo: one band everywhere.
MONTE_CARLO_SAMPLES = DEFAULT_SAMPLES


@dataclass(frozen=True)
class UncertaintyAnalysis:
    uncertainty: object | None  # core.uncertainty.UncertaintyResult
    sensitivity: object | None  # core.uncertainty.Sensitivity
    value: object | None = None  # core.uncertainty.value_of_information.ValueOfInformation
    # The snapshot these figures are of: a window shows them only while it still shows that one.
    evaluation: Evaluation | None = None
    # The scorecard ranked on the policy's decision basis (core/uncertainty/decision.py), as
    # `clusterbid score` and the memo rank it; the first paint shows the point ranking until then.
    scorecard: object | None = None
    # Issue 31: the buyer's own plan figures, each valued as a measurement is, in words
    # (core/uncertainty/plan_value.py); computed here, on the worker, as the memo and score do.
    plan_values: tuple[str, ...] = ()


def analyse_uncertainty(evaluation: Evaluation, progress=None) -> UncertaintyAnalysis:
    """Run on a worker thread (the memo export, tests): the bands, then the value of information."""
    return with_value(analyse_bands(evaluation, progress), progress)


def analyse_bands(evaluation: Evaluation, progress=None) -> UncertaintyAnalysis:
    """Everything but the value of information, which was 70% of the work (issue 32): the window
    shows these first and the evidence worth asking for when `with_value` has it."""
    from clusterbid.core.comparison_table import rank_resting_on, shown_rows
    from clusterbid.core.uncertainty import analyse_sensitivity
    from clusterbid.core.uncertainty.decision import decide
    from clusterbid.core.uncertainty.waterfall import keep_waterfall

    if progress is not None:
        progress(0.0, "Monte Carlo")
    scorecard, uncertainty = decide(
        evaluation,
        MONTE_CARLO_SAMPLES,
        evaluation.policy.random_seed,
        checkpoint=None if progress is None else partial(_stop_if_cancelled, progress),
    )
    if progress is not None:
        progress(0.3, "tipping points")
    # The tipping points of the ranking shown (the decided one), and the draws already made.
    sensitivity = analyse_sensitivity(evaluation, uncertainty, scorecard)
    rank_resting_on(scorecard)  # derived here, not by the window that shows the decided ranking
    keep_waterfall(scorecard, uncertainty)  # the Details pane's "why it wins" (issue 34)
    shown_rows(scorecard, uncertainty)  # and every cell's text with its band
    # The value of the plan's own figures (about 0.2 s CPU at 50 bids) comes with the value of
    # information, after the bands (issue 32: bands within 1 s of an edit).
    return UncertaintyAnalysis(uncertainty, sensitivity, None, evaluation, scorecard)


def with_value(analysis: UncertaintyAnalysis, progress=None) -> UncertaintyAnalysis:
    """`analysis` with the value of information of its evaluation (the same seed and samples as
    `clusterbid score` and the memo). `progress` is called per measurement valued: a newer edit
    stops the work there."""
    from clusterbid.core.uncertainty.plan_value import plan_value_lines
    from clusterbid.core.uncertainty.value_of_information import value_of_information

    evaluation = analysis.evaluation
    if evaluation is None:
        return analysis
    if progress is not None:
        progress(0.35, "value of your plan's figures")
    if analysis.scorecard is not None:
        analysis = replace(analysis, plan_values=tuple(plan_value_lines(analysis.scorecard)))
    if progress is not None:
        progress(0.4, "value of information")
    step = None if progress is None else _Throttled(progress)
    value = value_of_information(
        evaluation, MONTE_CARLO_SAMPLES, evaluation.policy.random_seed, step=step
    )
    return replace(analysis, value=value)


def _stop_if_cancelled(progress) -> None:
    """Called before each block of bids of each pass of the Monte Carlo's draws: a run superseded
    by a newer edit stops there instead of keeping a core busy to its end (1.6 s CPU at 500
    bids)."""
    if getattr(progress, "cancelled", False):
        raise Cancelled


class _Throttled:
    """Tells `progress` each whole percent of the valuation, and checks at every step whether the
    task was cancelled: at 500 bids there are 2,500 steps, each a signal to the window's thread."""

    def __init__(self, progress) -> None:
        self._progress, self._told = progress, -1

    def __call__(self, done: float) -> None:
        percent = int(100 * done)
        if percent != self._told:
            self._told = percent
            self._progress(0.4 + 0.6 * done, "value of information")
        elif getattr(self._progress, "cancelled", False):
            raise Cancelled
