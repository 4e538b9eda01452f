"""What the main window shows as figures arrive: the evaluation's summary as edited, the scores
of each edit, then its bands and tipping points, then the value of asking for evidence; and the
table kept for the next start's first paint. Each arrival is checked against the evaluation the
window holds now, so a late result of an older edit is dropped."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from clusterbid.core.flops import flops_text
from clusterbid.gui.comparison.scorecard_table_model import BAND, WIN
from clusterbid.gui.release import release

if TYPE_CHECKING:
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui.main_window import MainWindow


def audit_banner(report) -> str:
    """The line under the summary for a document that fails its audit; it stays while it is open."""
    return (
        "<br><span style='color:#b00020'><b>This document fails its audit:</b> "
        f"{html.escape(report.reason or '')}. Edits are refused; a memo needs a reason, which is "
        "recorded."
        "</span>"
    )


class ShownFigures:
    """The main window's figures as each result arrives (gui/rescoring.py's signals)."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window

    def evaluation(self, evaluation) -> None:
        win = self.window
        w = evaluation.workload
        report = win.session.audit_report  # not waiting for the edit's commit
        failed = "" if report.ok else "AUDIT FAILED — "
        win.setWindowTitle(f"{failed}{evaluation.title} — {win.session.file_name} — ClusterBid")
        win.summary.setText(
            f"<b>{evaluation.title}</b> &nbsp; Planned job: {w.name}, <b>{w.job_gpus:,} GPUs</b>, "
            f"{flops_text(w.total_training_flops)}, TP{w.tensor_parallel} × "
            f"PP{w.pipeline_parallel} × "
            f"CP{w.context_parallel} × DP{w.data_parallel}, baseline MFU {w.baseline_mfu:.0%}"
            + ("" if report.ok else audit_banner(report))
        )
        win.weights.show_weights(evaluation.policy.weights)
        if (
            not win.workload_editor.isVisible()
            or win.workload_editor.validated() != evaluation.workload
        ):
            win.workload_editor.show_workload(evaluation.workload)

    def scorecard(self, scorecard) -> None:
        win = self.window
        if scorecard.evaluation != win.session.evaluation:
            return  # an older snapshot finished late; the newer one is on its way
        keep = win.pending_selection or win.comparison.selected_bid_id()
        win.pending_selection = None
        replaced = win.model.scorecard  # freed off this thread once every view has let go
        win.model.set_scorecard(scorecard)
        win.score_matrix.show_scorecard(scorecard)
        win.comparison.select_bid(keep)
        win.outline.show_scorecard(scorecard, win.comparison.selected_bid_id())
        win.requests.show_bid(win.session, None, keep_value=False)  # the last value is stale
        win._on_bid_selected(win.comparison.selected_bid_id())
        win.charts.set_inputs(scorecard=scorecard, uncertainty=None, sensitivity=None)
        has_bid = win.comparison.selected_bid_id() is not None
        for action in (
            win.actions_.edit_bid,
            win.actions_.duplicate_bid,
            win.actions_.delete_bid,
            win.actions_.acceptance_plan,
            win.actions_.acceptance_status,
        ):
            action.setEnabled(has_bid)
        self.remember_shown()  # before the bands: a window closed before they come opens fast too
        release(replaced)

    def rests(self, scorecard) -> None:
        """What each bid's rank rests on, derived after the table was shown (gui/rescoring.py):
        the findings column and the Details pane filled in, and the table kept with them."""
        win = self.window
        if scorecard is not win.model.scorecard:
            return  # a newer edit or the decided ranking is shown, with its own
        win.model.rests_known()
        win.comparison.findings_known()
        bid_id = win.comparison.selected_bid_id()
        row = None if bid_id is None else win.model.row_of(bid_id)
        if row is not None:
            win.details.show_bid(scorecard, win.model.score_at(row))
        self.remember_shown(win.model.uncertainty)

    def analysis(self, analysis) -> None:
        win = self.window
        if analysis.evaluation is not None and analysis.evaluation != win.session.evaluation:
            return  # figures of an older snapshot (bids since removed): the newer ones are on their way
        if analysis.scorecard is not None:  # ranked on the decision basis, as the CLI and memo rank
            release(win.model.scorecard)  # held here, freed there once the views let go
            keep = win.comparison.selected_bid_id()
            win.model.set_scorecard(
                analysis.scorecard, analysis.uncertainty
            )  # texts the worker made
            win.score_matrix.show_scorecard(analysis.scorecard)
            win.comparison.select_bid(keep)
            # The same bid stays selected, so no selection signal re-draws its pane: its rank, the
            # figure it ranks on and what it rests on are the decided scorecard's from here.
            row = None if keep is None else win.model.row_of(keep)
            if row is not None:
                win.details.show_bid(analysis.scorecard, win.model.score_at(row))
            win.outline.show_scorecard(analysis.scorecard, win.comparison.selected_bid_id())
            win.charts.set_inputs(scorecard=analysis.scorecard)
        win.model.set_uncertainty(analysis.uncertainty)
        win.comparison.findings_known()  # measured while pending, if the bands came first
        win.comparison.measure_columns(
            (BAND, WIN)
        )  # sized for "—" until now: the bands need their width
        win.weights.show_sensitivity(
            analysis.sensitivity, {b.id: b.quote.provider for b in win.session.evaluation.bids}
        )
        win.charts.set_inputs(uncertainty=analysis.uncertainty, sensitivity=analysis.sensitivity)
        win.requests.show_bid(
            win.session,
            win.comparison.selected_bid_id(),
            analysis.value,
            plan_values=analysis.plan_values,
        )
        self.remember_shown(analysis.uncertainty)

    def value(self, analysis) -> None:
        """The evidence worth asking for, once valued after the bands (gui/rescoring.py)."""
        win = self.window
        if analysis.evaluation == win.session.evaluation:
            win.requests.show_bid(
                win.session,
                win.comparison.selected_bid_id(),
                analysis.value,
                plan_values=analysis.plan_values,
            )

    def remember_shown(self, uncertainty=None) -> None:
        """The table as shown now kept for the next start's first paint (issue 24): once the new
        scores are shown and again with the bands. Core writes it, as at every command-line edit,
        on the commit lane after the edit's own commit (issue 32: ~10 ms a write, and the check
        of the table kept before, off the window's thread)."""
        win = self.window
        from clusterbid.core.comparison_table import keep_shown_table
        from clusterbid.core.shown_scorecard import read_shown

        scorecard, resting = win.model.scorecard, win.model.resting
        if resting is None:
            return  # kept once what each rank rests on is derived (`rests`), never derived here

        def keep(document: EvaluationDocument) -> None:
            if uncertainty is None and read_shown(document.path) is not None:
                return  # without bands, a table kept for this very state (perhaps with them) stays
            keep_shown_table(document, scorecard, uncertainty, resting)

        win.session.write_behind(keep)
