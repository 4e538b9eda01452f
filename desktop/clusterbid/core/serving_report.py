"""The serving scorecard as a plain-text ranking table (`clusterbid score`) and as flat rows (the
spreadsheet export and the app's table); its JSON is core/serving_json.py, its words
core/serving_words.py."""

from __future__ import annotations

from clusterbid.core.costmodel.serving_bill_gpus import (
    bill_headings,
    gpus_beside_bill,
    grows,
)
from clusterbid.core.costmodel.serving_growth_words import (
    growth_words,
    peak_month_words,
    term_words,
)
from clusterbid.core.report import format_money, money
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_traffic import profile_words
from clusterbid.core.serving_words import (
    band_text,
    billing_basis,
    blended,
    fleet_text,
    sla_line,
    slo_text,
)
from clusterbid.core.uncertainty.serving_montecarlo import ServingBand
from clusterbid.core.uncertainty.serving_tipping import (
    serving_tipping_points,
    tipping_lines,
)


def format_serving_table(scorecard: ServingScorecard) -> str:
    """The ranked serving comparison as fixed-width text for a terminal."""
    evaluation = scorecard.evaluation
    w = evaluation.workload
    currency = evaluation.currency
    # Issue 37: a growing service's bill is the term's mean month, beside the GPUs it reserves.
    gpus_head, bill_head = bill_headings(any(grows(s.estimate) for s in scorecard.ranked))
    gpus_width = max(5, len(gpus_head))
    lines = [
        evaluation.title,
        f"Service: {w.name}; {w.weight_bytes / 1e9:,.0f} GB of {w.precision.upper()} weights, "
        f"{w.prompt_tokens:,} prompt + {w.output_tokens:,} output tokens, targets TTFT "
        f"{w.ttft_target_ms:g} ms "
        f"and {w.tpot_target_ms:g} ms per token, peak {w.peak_requests_per_s:g} req/s, average "
        f"{w.average_requests_per_s:g} req/s",
        billing_basis(w)[0].upper() + billing_basis(w)[1:] + ".",
        *([f"Traffic profile: {profile_words(w)}."] if profile_words(w) else []),
        *([f"Growth: {growth_words(w)}."] if growth_words(w) else []),
        f"Ranked by weighted score; its cost criterion is the {scorecard.decision_words}.",
        "",
        f"{'rank':>4}  {'bid':<16} {'GPU':<9} {'price/GPU-h':>11} {'TP':>3} {'batch':>5} "
        f"{'tok/s/GPU':>9} "
        f"{gpus_head:>{gpus_width}} {bill_head:>11} {'per M tokens':>12} {'per M in+out':>12} "
        f"{'score':>6}",
    ]
    for score in scorecard.scores:
        e = score.estimate
        price = format_money(e.price_per_gpu_hour, currency, cents=True)
        head = f"{e.bid.id:<16.16} {e.bid.capacity.gpu_model:<9.9} {price:>11}"
        if e.passes_gates:
            lines.append(
                f"{score.rank:>4}  {head} {e.tensor_parallel:>3} {e.batch:>5} "
                f"{e.tokens_per_s_per_gpu:>9,.0f} "
                f"{gpus_beside_bill(e):>{gpus_width}} {format_money(e.monthly_cost, currency):>11} "
                f"{format_money(e.cost_per_million_tokens, currency, cents=True):>12} "
                f"{format_money(blended(e.cost_per_million_tokens, w), currency, cents=True):>12} "
                f"{score.weighted_score:>6.3f}"
            )
        else:
            lines.append(f"{'--':>4}  {head}  CANNOT SERVE")
            lines.extend(f"{'':>8}cannot serve: {g.message}" for g in e.gates)
    for score in scorecard.scores:
        e = score.estimate
        if e.passes_gates:
            bound = "HBM-bandwidth-bound" if e.memory_bound else "compute-bound"
            lines.append(
                f"note {e.bid.id}: batch {e.batch} limited by {e.batch_limit}; {bound} decode step "
                f"{e.decode_step_ms:.1f} ms ({e.tp_allreduce_ms:.1f} ms of it TP all-reduce), "
                f"{e.tpot_ms:.1f} ms per token, "
                f"first token {e.ttft_ms:,.0f} ms + P{w.ttft_percentile:g} queueing "
                f"{e.queue_wait_ms:,.0f} ms"
                + (
                    f", TP across nodes adds {e.tp_fabric_latency_ms:.2f} ms per step"
                    if e.tp_fabric_latency_ms
                    else ""
                )
                + f"; {e.replicas} replicas ({e.replicas_for_mean} carry the stated peak's mean rate; the rest "
                f"are queueing headroom, the {w.forecast_margin_percent:g}% forecast margin and "
                f"N+{w.spare_replicas}), {e.slot_utilisation:.0%} of batch slots busy at the "
                "stated peak; "
                f"{e.gpus_needed:,} GPUs needed, {e.gpus_billed:,} billed"
                + (
                    f" in month 1; {e.gpus_needed_at_peak_month:,} needed, "
                    f"{e.gpus_billed_at_peak_month:,} billed in {peak_month_words(e)}"
                    if peak_month_words(e)
                    else ""
                )
                + (
                    f" at peak: {e.reserved_gpus:,} reserved all month plus "
                    f"{e.burst_gpu_hours:,.0f} GPU-hours "
                    "a month on demand above them"
                    if e.bursts
                    else ""
                )
            )
            lines.append(f"SLA credit {e.bid.id}: {sla_line(e, currency)}")
            if term_words(e, currency):
                lines.append(f"over the term {e.bid.id}: {term_words(e, currency)}")
        band = scorecard.band(e.bid.id)
        if e.passes_gates and band is not None and band.chance_servable > 0:
            lines.append(f"band {e.bid.id}: {band_text(band, currency)}")
            if band.fleet_at_percentile is not None:
                lines.append(f"fleet for approval {e.bid.id}: {fleet_text(band, currency, w)}")
            if slo_text(band, e):
                lines.append(f"targets at peak {e.bid.id}: {slo_text(band, e)}")
        lines.extend(f"note {e.bid.id}: {warning.message}" for warning in e.warnings)
        lines.extend(f"note {e.bid.id}: {note}" for note in e.calibration_notes)
    tipping = tipping_lines(scorecard, serving_tipping_points(scorecard))
    return "\n".join(lines + ([""] + tipping if tipping else []))


def serving_comparison_rows(scorecard: ServingScorecard) -> list[dict]:
    """One flat row per bid for the spreadsheet export and the app's table, with units."""
    currency = scorecard.evaluation.currency
    growing = any(grows(s.estimate) for s in scorecard.ranked)
    rows = []
    for score in scorecard.scores:
        e, bid = score.estimate, score.bid
        serves = e.passes_gates
        rows.append(
            {
                "rank": score.rank,
                "bid id": bid.id,
                "provider": bid.quote.provider,
                "GPU model": bid.capacity.gpu_model,
                f"price per GPU-hour [{currency}]": money(e.price_per_gpu_hour),
                "gates": "can serve" if serves else "; ".join(g.message for g in e.gates),
                "tensor parallel": e.tensor_parallel if serves else None,
                "batch per replica": e.batch if serves else None,
                "output tokens/s per GPU": round(e.tokens_per_s_per_gpu, 1) if serves else None,
                **_bill_columns(e, growing, currency),
                f"cost per million output tokens [{currency}]": money(e.cost_per_million_tokens)
                if serves
                else None,
                f"cost per million tokens, input and output [{currency}]": money(
                    blended(e.cost_per_million_tokens, scorecard.evaluation.workload)
                )
                if serves
                else None,
                f"cost per million P10-P90 [{currency}]": _band_range(scorecard.band(bid.id))
                if serves
                else None,
                "chance cheapest [%]": _chance(scorecard.band(bid.id)) if serves else None,
                "weighted score": None
                if score.weighted_score is None
                else round(score.weighted_score, 4),
                "flags": "; ".join(w.message for w in e.warnings),
            }
        )
    return rows


def _band_range(band: ServingBand | None) -> str | None:
    if band is None or band.chance_servable == 0:
        return None
    return f"{money(band.cost_per_million[0])}-{money(band.cost_per_million[2])}"


def _chance(band: ServingBand | None) -> float | None:
    return None if band is None else round(100 * band.chance_cheapest, 1)


def _bill_columns(e, growing: bool, currency: str) -> dict:
    """The fleet and the monthly bill for the export; when the service grows, the GPUs of month 1
    and of the term's peak month apart, and the mean month's bill beside the GPUs it reserves."""
    serves = e.passes_gates
    bill = money(e.monthly_cost) if serves else None
    if not growing:
        return {
            "GPUs needed": e.gpus_needed if serves else None,
            "GPUs billed": e.gpus_billed if serves else None,
            f"cost per month [{currency}]": bill,
        }
    return {
        "GPUs needed at the peak of month 1": e.gpus_needed if serves else None,
        "GPUs billed at the peak of month 1": e.gpus_billed if serves else None,
        "term's peak month": e.peak_month if serves else None,
        "GPUs billed at the peak of the term's peak month": e.gpus_billed_at_peak_month
        if serves
        else None,
        "GPUs reserved over the term": gpus_beside_bill(e) if serves else None,
        f"cost per month, mean over the term [{currency}]": bill,
    }
