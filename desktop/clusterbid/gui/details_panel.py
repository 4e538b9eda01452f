"""The selected bid's findings and the assumptions behind its figures, in palette colours."""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QTextBrowser

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.contract_summary import billing_words, contract_lines, decision_figure
from clusterbid.core.costmodel.payment_terms import cash_words
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.core.stack_names import input_value_words
from clusterbid.gui.bid_status import BidStatus, missing_evidence, status_colour
from clusterbid.gui.waterfall_details import waterfall_html

PENDING = "How far each figure can move this bid's cost and rank is being worked out."


def _muted(palette: QPalette) -> str:
    """Text colour two-thirds of the way from the background: quieter, still readable on a projector."""
    text, base = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
    mix = [round(t * 0.65 + b * 0.35) for t, b in zip(text.getRgb()[:3], base.getRgb()[:3])]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def _first_upper(words: str) -> str:
    return words[:1].upper() + words[1:]  # not str.capitalize(): "SLA" stays upper case


def _moves_words(effect, path: str, currency: str, *, pending: bool) -> str:
    """How far a figure moves the bid's cost and rank; `pending` while a worker derives it."""
    from clusterbid.core.memo.provenance_lines import effect_words

    if effect:
        return effect_words(effect, currency)
    if path == "reliability.sla_credit_percent":
        return "enters the net cost only as the credit expected to be claimed"
    return "being worked out" if pending else "does not enter the cost to finish"


class DetailsPanel(QTextBrowser):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("details")
        self.setAccessibleName("Details of the selected bid")
        self.setOpenExternalLinks(False)
        self._shown_html: str | None = None

    def _set_page(self, html: str) -> None:
        # An edit selects its bid once by the view and once by the window: the second laid out the
        # same page again (issue 32). The same page is kept; what is on it is always built afresh
        # (a worker adds to a scorecard after it is first shown: the waterfall).
        if html != self._shown_html:
            self._shown_html = html
            self.setHtml(html)

    def show_bid(self, scorecard: Scorecard, score: BidScore | None) -> None:
        if score is None:
            self._set_page(
                "<p>Select a bid to see its figures and the assumptions behind them.</p>"
            )
            return
        palette = self.palette()
        muted = _muted(palette)
        estimate = score.estimate
        bid = score.bid
        # the bid as the table shows it, provider and GPU model, never the evaluation's id
        parts = [
            f"<h3>{escape(bid.quote.provider)} "
            f"<small>({escape(bid.capacity.gpu_model)})</small></h3>"
        ]
        if estimate.gates:
            colour = status_colour(BidStatus.FAILED_GATE, palette).name()
            items = "".join(f"<li>{escape(g.message)}</li>" for g in estimate.gates)
            parts.append(
                f"<p style='color:{colour}'><b>Excluded from the ranking:</b></p><ul>{items}</ul>"
            )
        gaps = missing_evidence(score)
        if gaps:
            colour = status_colour(BidStatus.MISSING_EVIDENCE, palette).name()
            parts.append(
                f"<p style='color:{colour}'><b>Missing evidence:</b> {escape('; '.join(gaps))}</p>"
            )
        if estimate.warnings:
            items = "".join(f"<li>{escape(w.message)}</li>" for w in estimate.warnings)
            parts.append(f"<p><b>Notes:</b></p><ul>{items}</ul>")
        currency = scorecard.evaluation.currency
        money_rows = (
            contract_lines(
                estimate, currency, cents=True, ranked_on=decision_figure(scorecard, bid.id)
            )
            if estimate.passes_gates
            else [("Contract", billing_words(bid, currency))]
        )
        contract = "".join(
            f"<p style='margin:4px 0'><b>{escape(k)}:</b> {escape(v)}</p>" for k, v in money_rows
        )
        parts.append(f"<h4>What the contract commits to</h4>{contract}")
        parts.append(
            f"<p><small style='color:{muted}'>Payment terms priced at the "
            f"{escape(cash_words(scorecard.evaluation.workload.plan))}</small></p>"
        )
        # Name and value on one line, the source small beneath: readable in a narrow pane.
        rows = "".join(
            f"<p style='margin:4px 0'><b>{escape(a.name)}:</b> {escape(a.value)}<br>"
            f"<small style='color:{muted}'>{escape(a.source)}</small></p>"
            for a in bid_assumptions(
                estimate, scorecard.evaluation.workload, scorecard.evaluation.currency
            )
        )
        parts.append(f"<h4>Assumptions behind the figures</h4>{rows}")
        parts.append(waterfall_html(scorecard, score, muted))
        parts.append(self._sources_html(scorecard, bid, muted))
        self._set_page("".join(parts))

    def _sources_html(self, scorecard: Scorecard, bid, muted: str) -> str:
        """Issue 14: each reliability figure with where it came from and how far it can move the bid."""
        from clusterbid.core.memo.provenance_lines import field_words, figure_value
        from clusterbid.core.provenance import DOCUMENTED_DEFAULTS
        from clusterbid.core.uncertainty.default_effects import known_default_effects

        # Derived on a worker after the table is shown (gui/rescoring.py) and kept on the scorecard:
        # a lookup here. None until then: said so, and the window shows the pane again with them.
        known = known_default_effects(scorecard)
        effects = {effect.field: effect for effect in (known or {}).get(bid.id, [])}
        currency = scorecard.evaluation.currency
        deciding = [
            field_words(e.field) for e in effects.values() if e.moves_rank and e.kind != "measured"
        ]
        html = ["<h4>Where the figures come from</h4>"]
        if known is None:
            html.append(f"<p><small style='color:{muted}'>{PENDING}</small></p>")
        if deciding:
            html.append(
                f"<p><b>This bid's cost rank depends on figures nobody verified:</b> "
                f"{escape(', '.join(deciding))}.</p>"
            )
        ordered = [*effects] + sorted(path for path in bid.provenance if path not in effects)
        for path in ordered:
            source = bid.provenance[path]
            words = source.label + (f", {source.reference}" if source.reference else "")
            default = DOCUMENTED_DEFAULTS.get(path)
            if source.kind in ("default", "not_stated") and default is not None:
                words += f" (range {default.low:g}-{default.high:g}; {default.source})"
            moves = _moves_words(effects.get(path), path, currency, pending=known is None)
            html.append(
                f"<p style='margin:4px 0'><b>{escape(_first_upper(field_words(path)))}:</b> "
                f"{figure_value(bid, path):g} — {escape(words)}<br>"
                f"<small style='color:{muted}'>{escape(moves)}</small></p>"
            )
        workload = scorecard.evaluation.workload
        html.append("<p><b>Workload inputs (every bid):</b></p>")
        for name, source in sorted(workload.provenance.items()):
            who = f" ({source.who})" if source.kind == "assumption" and source.who else ""
            html.append(
                f"<p style='margin:2px 0'>{escape(_first_upper(field_words(name)))}: "
                f"{escape(input_value_words(name, getattr(workload, name)))} — "
                f"{escape(source.label + who)}</p>"
            )
        return "".join(html)
