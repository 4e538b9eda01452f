"""The serving scorecard as JSON-ready data (`clusterbid score --json`, the memo's attached
figures): each bid's figures, its band and the fleet for approval, amounts as exact decimals with
their currency."""

from __future__ import annotations

from typing import Any

from clusterbid import __version__
from clusterbid.core.costmodel.payment_terms import per_million_cash_words
from clusterbid.core.costmodel.serving_bill_gpus import grows
from clusterbid.core.costmodel.serving_estimate import ServingEstimate
from clusterbid.core.money import money
from clusterbid.core.ranking import BidScore
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_traffic import profile_words
from clusterbid.core.serving_words import billing_basis, blended, engine_text
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.uncertainty.serving_montecarlo import ServingBand
from clusterbid.core.uncertainty.serving_tipping import serving_tipping_points, tipping_json


def _amount(value: float, currency: str) -> dict[str, Any]:
    return {"amount": str(money(value)), "currency": currency}


def band_json(band: ServingBand | None, currency: str) -> dict[str, Any] | None:
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


def fleet_json(band: ServingBand, currency: str) -> dict[str, Any] | None:
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


def months_json(e: ServingEstimate, currency: str) -> list[dict[str, Any]] | None:
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


def cash_json(e: ServingEstimate, currency: str, w: InferenceWorkload | None) -> dict[str, Any]:
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
    score: BidScore[ServingEstimate],
    currency: str,
    band: ServingBand | None = None,
    w: InferenceWorkload | None = None,
) -> dict[str, Any]:
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


def serving_scorecard_to_json(scorecard: ServingScorecard) -> dict[str, Any]:
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
            # Issue 37: the engine, whose statement it is and what it does to the figures.
            "serving_engine": w.serving_engine,
            "serving_engine_words": engine_text(None, w),
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
            "without evidence, with the serving engine's range (widened across published engines when "
            "not stated); a benchmarked bid's engine factor (both efficiencies) by its "
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
