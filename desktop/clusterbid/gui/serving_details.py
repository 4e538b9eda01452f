"""The serving window's words beside the ranking: the selected bid's every figure (what the
ranking's columns leave out), and every bid's gates, workload-fit flags, calibration and bands."""

from __future__ import annotations

from html import escape

from clusterbid.core.contract_summary import decision_figure
from clusterbid.core.costmodel.payment_terms import per_million_cash_words
from clusterbid.core.costmodel.serving_bill_gpus import bill_words, fleet_words, grows
from clusterbid.core.costmodel.serving_growth_words import term_words
from clusterbid.core.money import format_money
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_words import band_text, engine_text, sla_line, slo_text


def _line(name: str, value: str) -> str:
    return f"<p style='margin:3px 0'><b>{escape(name)}:</b> {escape(value)}</p>"


def bid_details_html(scorecard: ServingScorecard, bid_id: str | None) -> str:
    """The selected bid's figures, each with its unit and currency to the cent."""
    score = next((s for s in scorecard.scores if s.bid.id == bid_id), None)
    if score is None:
        return "<p>Select a bid to see its figures and why it ranks where it does.</p>"
    e, bid, currency = score.estimate, score.bid, scorecard.evaluation.currency
    parts = [
        f"<h3>{escape(bid.quote.provider)}</h3>",
        _line("GPU", bid.capacity.gpu_model),
        _line(
            "Price per GPU-hour",
            format_money(e.price_per_gpu_hour, currency, cents=True) + " (stated by the provider)",
        ),
    ]
    if score.rank is None:
        parts.append(
            "<p style='color:#b3261e'><b>Cannot serve this workload, so it is not ranked:</b></p>"
        )
        parts.append("<ul>" + "".join(f"<li>{escape(g.message)}</li>" for g in e.gates) + "</ul>")
        return "".join(parts)
    ranked = decision_figure(scorecard, bid.id)  # issue 31: the mean ranks once the bands are in
    parts += [
        _line(
            "Rank",
            f"{score.rank} of {len(scorecard.ranked)}, weighted score {score.weighted_score:.3f}",
        ),
        _line(
            "Cost per million output tokens",
            format_money(e.cost_per_million_tokens, currency, cents=True)
            + (" (the point estimate)" if ranked else "")
            + ", "
            + per_million_cash_words(
                bid, e.cash_cost_per_million_tokens or 0.0, currency, scorecard.evaluation.workload
            )
            + "; "
            + sla_line(e, currency),
        ),
        *(
            [
                _line(
                    "Ranked on", f"{format_money(ranked[1], currency, cents=True)}, the {ranked[0]}"
                )
            ]
            if ranked
            else []
        ),
        _line(
            "Cost per month",
            # Issue 37: a growing service's bill is the term's mean month, beside its own GPUs.
            (
                bill_words(e, currency)
                if grows(e)
                else format_money(e.monthly_cost, currency, cents=True)
            )
            + " (the provider's bill; the cost of cash is not in it)",
        ),
        _line("GPUs", fleet_words(e)),
        *([_line("Over the term", term)] if (term := term_words(e, currency)) else []),
        _line("Output tokens per second per GPU", f"{e.tokens_per_s_per_gpu:,.1f}"),
        _line("Replica", f"tensor parallel {e.tensor_parallel}, batch {e.batch}"),
        _line("Serving engine", engine_text(e, scorecard.evaluation.workload)),
    ]
    band = scorecard.band(bid.id)
    if band is not None and band.chance_servable > 0:
        parts.append(_line("Likely range", band_text(band, currency)))
    if slo_text(band, e):
        parts.append(_line("Chance of meeting the targets at peak", slo_text(band, e) or ""))
    if e.warnings:
        parts.append(
            "<p><b>Flags:</b></p><ul>"
            + "".join(f"<li>{escape(w.message)}</li>" for w in e.warnings)
            + "</ul>"
        )
    return "".join(parts)


def findings_html(scorecard: ServingScorecard) -> str:
    """Every bid's gates, workload-fit flags, calibration notes and cost band, by provider."""
    parts = ["<h3>Gates, workload-fit flags, calibration and cost bands</h3>"]
    for score in scorecard.scores:
        e = score.estimate
        lines = [f"<b>Cannot serve</b>: {escape(g.message)}" for g in e.gates]
        lines += [f"Flag: {escape(w.message)}" for w in e.warnings]
        lines += [escape(note) for note in e.calibration_notes]
        band = scorecard.band(e.bid.id)
        if e.passes_gates and band is not None and band.chance_servable > 0:
            lines.append(escape(band_text(band, scorecard.evaluation.currency)))
        if lines:
            parts.append(
                f"<p><b>{escape(e.bid.quote.provider)}</b><br>" + "<br>".join(lines) + "</p>"
            )
    return "".join(parts)
