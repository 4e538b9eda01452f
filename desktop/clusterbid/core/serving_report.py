"""The serving scorecard as JSON-ready data and as a plain-text ranking table."""

from __future__ import annotations

from clusterbid import __version__
from clusterbid.core.costmodel.payment_terms import per_million_cash_words
from clusterbid.core.costmodel.serving_bill_gpus import (
    bill_headings,
    counted,
    gpus_beside_bill,
    grows,
)
from clusterbid.core.costmodel.serving_growth_words import (
    growth_words,
    peak_month_words,
    term_words,
)
from clusterbid.core.costmodel.serving_sla_credit import credit_words
from clusterbid.core.ranking import BidScore
from clusterbid.core.report import format_money, money
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_traffic import profile_words
from clusterbid.core.uncertainty.serving_montecarlo import ServingBand
from clusterbid.core.uncertainty.serving_tipping import (
    serving_tipping_points,
    tipping_json,
    tipping_lines,
)


def _amount(value: float, currency: str) -> dict:
    return {"amount": str(money(value)), "currency": currency}


def band_json(band: ServingBand | None, currency: str) -> dict | None:
    """P10/P50/P90 of the serving cost over sampled efficiencies (core/uncertainty/serving_montecarlo)."""
    if band is None or band.chance_servable == 0:
        return None
    p10, p50, p90 = band.cost_per_million
    m10, m50, m90 = band.monthly_cost
    return {
        "cost_per_million_output_tokens": {
            "p10": _amount(p10, currency),
            "p50": _amount(p50, currency),
            "p90": _amount(p90, currency),
        },
        "monthly_cost": {
            "p10": _amount(m10, currency),
            "p50": _amount(m50, currency),
            "p90": _amount(m90, currency),
        },
        "chance_cheapest": round(band.chance_cheapest, 4),
        "chance_meets_targets": round(band.chance_servable, 4),
        "mean_cost_per_million_output_tokens": _amount(band.mean_cost_per_million, currency),
        "point_percentile": round(
            band.point_percentile, 4
        ),  # share of serving samples at or below the point figure
        "fleet_for_approval": fleet_json(band, currency),
        # Issue 37: the fleet as costed, its batch retuned to each draw, meets both targets at the stated peak.
        "chance_meets_slo_at_peak": None
        if band.chance_meets_slo_at_peak != band.chance_meets_slo_at_peak
        else round(band.chance_meets_slo_at_peak, 4),
    }


def fleet_json(band: ServingBand, currency: str) -> dict | None:
    """The fleet the approval is sized at (issue 31): a draw at the buyer's percentile."""
    if band.fleet_at_percentile is None:
        return None
    needed, billed, bill = band.fleet_at_percentile
    return {
        "percentile": band.fleet_percentile,
        "gpus_needed": needed,
        "gpus_billed": billed,
        "monthly_cost": _amount(bill, currency),
    }


def slo_text(band: ServingBand | None, estimate) -> str | None:
    """Issue 37: the chance the fleet as costed meets the targets at peak, in words (None: no band)."""
    chance = None if band is None else band.chance_meets_slo_at_peak
    if chance is None or chance != chance or not estimate.replicas:
        return None
    gpus = f"{estimate.tensor_parallel} GPU{'' if estimate.tensor_parallel == 1 else 's'}"
    judged = band.judged_months if band is not None else (1,)
    if len(judged) > 1:  # issue 37: a growing service is judged at month 1's and the last's peak
        last = judged[-1]
        months = estimate.replicas_by_month or (estimate.replicas,) * last
        return (
            f"{chance:.0%} of the Monte Carlo draws: the fleet as costed for each month "
            f"({months[0]:,} replicas of {gpus} in month 1, {months[last - 1]:,} in month "
            f"{last}) meets the first-token and per-token targets at the peak of month 1 "
            f"and of month {last}, the term's last, with the growth drawn; "
            "its batch retuned to each draw's efficiencies"
        )
    return (
        f"{chance:.0%} of the Monte Carlo draws: the fleet as costed ({estimate.replicas:,} "
        f"replicas of {gpus}) meets the "
        "first-token and per-token targets at the stated peak, "
        "its batch retuned to each draw's efficiencies"
    )


def fleet_text(band: ServingBand, currency: str, w) -> str:
    """The approval's fleet in words: GPUs needed against billed, and what sized it."""
    needed, billed, bill = band.fleet_at_percentile or (0, 0, float("nan"))
    return (
        f"P{band.fleet_percentile} of the draws: {needed:,} GPUs needed, {billed:,} billed (whole "
        "nodes), "
        f"{format_money(bill, currency)} a month; sized for the stated peak "
        f"+{w.forecast_margin_percent:g}% "
        f"forecast margin with {counted(w.spare_replicas, 'spare replica')} (N+{w.spare_replicas})"
        + (
            "; the GPUs are those of the draw's peak month (the term's last while the traffic "
            "grows) and the bill the term's average month"
            if w.traffic_growth_percent_per_month or w.growth_spread_percent_per_month
            else ""
        )
    )


def billing_basis(w) -> str:
    """How the fleets are billed, in words (issue 37: a reserved base plus burst over the profile)."""
    if profile_words(w) is None:
        return (
            "GPUs billed at peak provisioning, in whole nodes, all month; cost per token at the "
            "average load"
        )
    return (
        "a reserved base billed all month plus on-demand GPU-hours above it where the bid offers "
        "burst, "
        "over the stated traffic profile (otherwise the peak fleet reserved all month), in whole "
        "nodes; "
        "cost per token at the average load"
    )


def blended(per_million_output: float, w) -> float:
    """Issue 37: the same monthly bill over every token the service moves, prompts and outputs
    (what API prices quote): cost per million output tokens x output / (prompt + output)."""
    return per_million_output * w.output_tokens / (w.prompt_tokens + w.output_tokens)


def months_json(e, currency: str) -> list[dict] | None:
    """Issue 37: a growing service's months (None when the traffic does not grow)."""
    if not e.monthly_bills:
        return None
    return [
        {
            "month": m,
            "gpus_at_peak": gpus,
            "replicas_at_peak": replicas,
            "reserved_gpus": base,
            "bill": _amount(bill, currency),
            "peak_month": m == e.peak_month,  # where the fleet's size is judged
        }
        for m, (gpus, replicas, base, bill) in enumerate(
            zip(
                e.gpus_at_peak_by_month,
                e.replicas_by_month,
                e.reserved_by_month,
                e.monthly_bills,
                strict=True,
            ),
            1,
        )
    ]


def sla_line(e, currency: str) -> str:
    """Issue 37: the claimable SLA credit of a bid that serves, in words."""
    return credit_words(
        e.sla_credit_per_month or 0.0, e.sla_headline_credit_per_month or 0.0, currency
    )


def cash_json(e, currency: str, w) -> dict:
    """Issue 31: the cost of cash of the bid's payment terms, a share of the cost per million tokens
    and never of the monthly bill or the approval (the provider is not paid it)."""
    share = e.cash_cost_per_million_tokens or 0.0
    return {
        "per_month": _amount(e.cash_cost_per_month or 0.0, currency),
        "per_million_output_tokens": _amount(share, currency),
        "payment_terms_days": e.bid.terms.payment_terms_days,
        "in_monthly_cost": False,
        "words": None if w is None else per_million_cash_words(e.bid, share, currency, w),
    }


def serving_bid_to_json(
    score: BidScore, currency: str, band: ServingBand | None = None, w=None
) -> dict:
    e = score.estimate
    figures = None
    if e.passes_gates:
        figures = {
            "tensor_parallel": e.tensor_parallel,
            "batch_per_replica": e.batch,
            "batch_limited_by": e.batch_limit,
            "memory_bound": e.memory_bound,
            "decode_step_ms": round(e.decode_step_ms, 4),
            "tp_allreduce_ms_per_step": round(e.tp_allreduce_ms, 4),
            "tp_fabric_latency_ms": round(e.tp_fabric_latency_ms, 4),
            "time_per_output_token_ms": round(e.tpot_ms, 4),
            "time_to_first_token_ms": round(e.ttft_ms, 4),
            "output_tokens_per_s_per_replica": round(e.replica_tokens_per_s, 3),
            "output_tokens_per_s_per_gpu": round(e.tokens_per_s_per_gpu, 3),
            "replicas_for_mean_rate": e.replicas_for_mean,
            "replicas": e.replicas,
            "ttft_queue_wait_ms_at_percentile": round(e.queue_wait_ms, 4),
            "batch_slots_busy_at_peak": round(e.slot_utilisation, 4),
            "gpus_needed": e.gpus_needed,
            "gpus_billed": e.gpus_billed,
            "monthly_cost": _amount(e.monthly_cost, currency),
            "cost_per_million_output_tokens": _amount(e.cost_per_million_tokens, currency),
            "cost_per_million_tokens_input_and_output": None
            if w is None
            else _amount(blended(e.cost_per_million_tokens, w), currency),
            "fabric_cost_per_month": None
            if e.fabric_cost_per_month is None
            else _amount(e.fabric_cost_per_month, currency),
            "cost_of_cash": cash_json(e, currency, w),
            # Issue 37: the reserved base and the on-demand GPU-hours a month above it.
            "reserved_gpus": e.reserved_gpus,
            "burst_gpu_hours_per_month": None
            if e.burst_gpu_hours is None
            else round(e.burst_gpu_hours, 3),
            # Issue 37: the SLA credit expected to be claimed, in the cost per million tokens only.
            "sla_credit_claimable_per_month": _amount(e.sla_credit_per_month or 0.0, currency),
            "sla_credit_headline_per_month_not_counted": _amount(
                e.sla_headline_credit_per_month or 0.0, currency
            ),
            "months": months_json(e, currency),
        }
        if grows(e):  # issue 37: the bill is the term's mean month; gpus_billed is month 1's
            figures["gpus_billed_in"] = "month 1, at its peak"
            figures["monthly_cost_is"] = "the mean month over the term"
            figures["peak_month"] = e.peak_month
            figures["gpus_billed_at_peak_month"] = e.gpus_billed_at_peak_month
    return {
        "rank": score.rank,
        "cost_rank": score.cost_rank,
        "bid_id": e.bid.id,
        "provider": e.bid.quote.provider,
        "gpu_model": e.bid.capacity.gpu_model,
        "gates": {
            "passed": e.passes_gates,
            "failed": [{"code": g.code, "reason": g.message} for g in e.gates],
        },
        "warnings": [{"code": w.code, "message": w.message} for w in e.warnings],
        "hbm_efficiency": round(e.hbm_efficiency, 6),
        "compute_efficiency": round(e.compute_efficiency, 6),
        "figures": figures,
        "uncertainty": band_json(band, currency) if e.passes_gates else None,
        "criteria": {name: round(value, 6) for name, value in score.criteria.items()},
        "weighted_score": None if score.weighted_score is None else round(score.weighted_score, 6),
        "calibration_notes": list(e.calibration_notes),
    }


def serving_scorecard_to_json(scorecard: ServingScorecard) -> dict:
    evaluation = scorecard.evaluation
    w = evaluation.workload
    return {
        "evaluation": evaluation.title,
        "kind": "inference",
        "currency": evaluation.currency,
        "model_version": __version__,
        "workload": {
            "name": w.name,
            "weights_gb": w.weight_bytes / 1e9,
            "kv_cache_bytes_per_token": w.kv_bytes_per_token,
            "peak_output_tokens_per_s": w.peak_output_tokens_per_s,
            "average_output_tokens_per_s": w.average_output_tokens_per_s,
            "ttft_target_ms": w.ttft_target_ms,
            "tpot_target_ms": w.tpot_target_ms,
            "ttft_percentile": w.ttft_percentile,
            "context_cv": w.context_cv,
        },
        "billing": billing_basis(w),
        "traffic_profile": profile_words(w),
        "weights": {name: round(value, 6) for name, value in scorecard.weights.items()},
        "decision": {"basis": scorecard.decision_basis, "words": scorecard.decision_words},
        "uncertainty": None
        if scorecard.uncertainty is None
        else {
            "samples": scorecard.uncertainty.samples,
            "seed": scorecard.uncertainty.seed,
            "inputs": "HBM efficiency (MBU) with a shared shock and compute efficiency shared by every bid "
            "without evidence; a benchmarked bid's engine factor (both efficiencies) by its "
            "evidence grade; "
            "payment terms not stated, due on invoice to net 30 (resources/methodology.md section "
            "8)",
        },
        "tipping_points": tipping_json(serving_tipping_points(scorecard)),
        "bids": [
            serving_bid_to_json(score, evaluation.currency, scorecard.band(score.bid.id), w)
            for score in scorecard.scores
        ],
    }


def band_text(band: ServingBand, currency: str) -> str:
    p10, _, p90 = band.cost_per_million
    m10, _, m90 = band.monthly_cost
    text = (
        "P10-P90 "
        f"{format_money(p10, currency, cents=True)}-{format_money(p90, currency, cents=True)} per "
        "M tokens, "
        f"{format_money(m10, currency)}-{format_money(m90, currency)} a month; "
        f"cheapest in {band.chance_cheapest:.0%} of samples; mean "
        f"{format_money(band.mean_cost_per_million, currency, cents=True)}, the point figure at "
        "its "
        f"P{100 * band.point_percentile:.0f}"
    )
    if band.chance_servable < 1:
        text += f"; meets the targets in {band.chance_servable:.0%}"
    return text


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
        f"Ranked on the {scorecard.decision_words}.",
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
