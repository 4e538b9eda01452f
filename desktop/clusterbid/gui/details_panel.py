"""The selected bid's findings and the assumptions behind its figures, in palette colours."""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QTextBrowser

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.gui.bid_status import BidStatus, missing_evidence, status_colour


class DetailsPanel(QTextBrowser):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("details")
        self.setAccessibleName("Details of the selected bid")
        self.setOpenExternalLinks(False)

    def show_bid(self, scorecard: Scorecard, score: BidScore | None) -> None:
        if score is None:
            self.setHtml("<p>Select a bid to see its figures and the assumptions behind them.</p>")
            return
        palette = self.palette()
        muted = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text).name()
        estimate = score.estimate
        bid = score.bid
        parts = [f"<h3>{escape(bid.quote.provider)} <small>({escape(bid.id)})</small></h3>"]
        if estimate.gates:
            colour = status_colour(BidStatus.FAILED_GATE, palette).name()
            items = "".join(f"<li>{escape(g.message)}</li>" for g in estimate.gates)
            parts.append(f"<p style='color:{colour}'><b>Excluded from the ranking:</b></p><ul>{items}</ul>")
        gaps = missing_evidence(score)
        if gaps:
            colour = status_colour(BidStatus.MISSING_EVIDENCE, palette).name()
            parts.append(f"<p style='color:{colour}'><b>Missing evidence:</b> {escape('; '.join(gaps))}</p>")
        if estimate.warnings:
            items = "".join(f"<li>{escape(w.message)}</li>" for w in estimate.warnings)
            parts.append(f"<p><b>Notes:</b></p><ul>{items}</ul>")
        rows = "".join(
            f"<tr><td><b>{escape(a.name)}</b></td><td>{escape(a.value)}</td>"
            f"<td style='color:{muted}'>{escape(a.source)}</td></tr>"
            for a in bid_assumptions(estimate, scorecard.evaluation.workload)
        )
        parts.append(f"<table cellspacing='0' cellpadding='3'>{rows}</table>")
        self.setHtml("".join(parts))
