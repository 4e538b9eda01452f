"""Re-score off the GUI thread: at once for a lone edit, debounced while edits keep coming."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

from clusterbid.core.comparison_table import rank_resting_on, resting_if_known, shown_rows
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard, score_evaluation
from clusterbid.core.uncertainty.default_effects import reuse_default_effects
from clusterbid.gui.background import BackgroundTasks
from clusterbid.gui.outline import outline_rows
from clusterbid.gui.uncertainty_source import analyse_bands, with_value

DEBOUNCE_MS = 150
# The Monte Carlo waits until the new figures are painted and the officer pauses: started at
# once, its worker competes for the GIL with the table's repaint (measured: +20-30 ms per edit).
ANALYSIS_DELAY_MS = 120


def scored_and_derived(evaluation: Evaluation, progress) -> Scorecard:
    """The scorecard with what the views derive from it kept on it, all on the worker: the
    window's thread only lays out and paints (issue 32). The default effects (what each rank rests
    on) only when a weights edit leaves them as they were; else the table is shown first, its
    findings saying they are pending, and `rests_derived` follows (issue 32 item 1: 69-159 ms of
    a bid edit at 500 bids)."""
    scorecard = score_evaluation(evaluation)
    progress(0.5, "cell texts")  # a newer edit stops this run here
    known = reuse_default_effects(scorecard)
    if known:
        rank_resting_on(scorecard)
    shown_rows(scorecard, waiting=not known)  # every cell's text, for the table (and kept table)
    outline_rows(scorecard)  # each bid's line and badge in the outline
    return scorecard


def rests_derived(scorecard: Scorecard, progress) -> Scorecard:
    """The default effects of a shown scorecard, what each bid's rank rests on, and the cells'
    texts with them, kept on it: the window's second, later update of the table and Details."""
    rank_resting_on(scorecard)
    progress(0.9, "cell texts")  # a newer edit stops this run here
    shown_rows(scorecard)
    return scorecard


def bands_and_derived(evaluation: Evaluation, progress):
    """The bands and the decided ranking, with the outline's lines of that ranking made here too."""
    analysis = analyse_bands(evaluation, progress)
    if analysis.scorecard is not None:
        outline_rows(analysis.scorecard)
    return analysis


class Rescorer(QObject):
    """Emits `scored` with each fresh Scorecard, `analysed` once its bands are known, then
    `valued` with the same analysis and its value of information (issue 32: the bands no longer
    wait for the value of information, which was 70% of the work)."""

    scored = Signal(object)  # Scorecard
    rested = Signal(object)  # the same Scorecard, once what each rank rests on is derived
    analysed = Signal(object)  # UncertaintyAnalysis, value None
    valued = Signal(object)  # UncertaintyAnalysis with its value of information
    failed = Signal(str)

    def __init__(self, tasks: BackgroundTasks, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._pending: Evaluation | None = None
        self._last_start = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start)
        self._analysis_timer = QTimer(self)
        self._analysis_timer.setSingleShot(True)
        self._analysis_timer.setInterval(ANALYSIS_DELAY_MS)
        self._analysis_timer.timeout.connect(self._start_analysis)
        self._to_analyse = None
        # Started once the new table is laid out (a zero timer runs after the queued events):
        # started at once, its worker competes for the GIL with the window's thread.
        self._rest_timer = QTimer(self)
        self._rest_timer.setSingleShot(True)
        self._rest_timer.setInterval(0)
        self._rest_timer.timeout.connect(self._start_rests)
        self._to_rest: Scorecard | None = None

    def request(self, evaluation: Evaluation) -> None:
        self._pending = evaluation
        quiet = (time.monotonic() - self._last_start) * 1000 >= DEBOUNCE_MS
        if quiet and not self._timer.isActive():
            self._start()  # leading edge: a lone edit is re-scored without waiting
        else:
            self._timer.start()  # a burst (slider drag, typing): wait until it pauses

    def _start(self) -> None:
        evaluation, self._pending = self._pending, None
        if evaluation is None:
            return
        self._last_start = time.monotonic()
        self._analysis_timer.stop()  # the figures it would analyse are about to be replaced
        self._to_analyse = None
        self._rest_timer.stop()
        self._to_rest = None
        self._tasks.cancel("default effects")
        self._tasks.cancel("uncertainty")
        self._tasks.cancel("value of information")
        self._tasks.run(
            "score",
            lambda progress: scored_and_derived(evaluation, progress),
            self._on_scored,
            self._on_error,
        )

    def _on_scored(self, scorecard) -> None:
        self.scored.emit(scorecard)
        self.rest(scorecard)
        self.analyse(scorecard)

    def rest(self, scorecard: Scorecard) -> None:
        """What each bid's rank rests on, derived on a worker once `scorecard` is shown and then
        emitted as `rested`; nothing when it is already known."""
        if resting_if_known(scorecard) is None:
            self._to_rest = scorecard
            self._rest_timer.start()

    def _start_rests(self) -> None:
        scorecard, self._to_rest = self._to_rest, None
        if scorecard is None:
            return
        self._tasks.run(
            "default effects",
            lambda progress: rests_derived(scorecard, progress),
            self.rested.emit,
            lambda exc: self.failed.emit(f"What the ranks rest on could not be derived: {exc}"),
        )

    def analyse(self, scorecard) -> None:
        """Monte Carlo bands and tipping points for `scorecard`'s evaluation, after its figures show."""
        self._to_analyse = scorecard.evaluation
        self._analysis_timer.start()  # restarted by each new scorecard: one analysis per pause

    def _start_analysis(self) -> None:
        evaluation, self._to_analyse = self._to_analyse, None
        if evaluation is None:
            return
        self._tasks.run(
            "uncertainty",
            lambda progress: bands_and_derived(evaluation, progress),
            self._on_bands,
            lambda exc: self.failed.emit(f"Uncertainty analysis failed: {exc}"),
        )

    def _on_bands(self, analysis) -> None:
        self.analysed.emit(analysis)
        self._tasks.run(
            "value of information",
            lambda progress: with_value(analysis, progress),
            self.valued.emit,
            lambda exc: self.failed.emit(f"Value of information failed: {exc}"),
        )

    def _on_error(self, error: Exception) -> None:
        self.failed.emit(f"Scoring failed: {error}")
