"""The scorecard as JSON-ready data and as a plain-text ranking table."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from clusterbid import __version__
from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.scoring import BidScore, Scorecard

CENT = Decimal("0.01")
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money(amount: float) -> Decimal:
    """Floats leave the numpy model here, rounded half-up to the cent."""
    return Decimal(repr(amount)).quantize(CENT, rounding=ROUND_HALF_UP)


def format_money(amount: float, currency: str, cents: bool = False) -> str:
    value = money(amount)
    text = f"{value:,.2f}" if cents else f"{value.quantize(Decimal(1), rounding=ROUND_HALF_UP):,}"
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


def evidence_json(evidence) -> dict:
    """One evidence item as the report shows it: what, how much, how trusted, at what scale."""
    return {
        "kind": evidence.kind.value,
        "value": evidence.value,
        "unit": evidence.unit,
        "grade": evidence.grade.value,
        "scale_gpus": evidence.scale_gpus,
        "measured_by": evidence.measured_by,
        "artefact_sha256": evidence.artefact_sha256,
    }


def bid_to_json(score: BidScore, scorecard: Scorecard) -> dict:
    e = score.estimate
    currency = scorecard.evaluation.currency
    workload = scorecard.evaluation.workload
    figures = None
    if e.passes_gates:
        figures = {
            "effective_mfu": round(e.effective_mfu, 6),
            "scaling_efficiency": round(e.scaling_efficiency, 6),
            "goodput": round(e.goodput, 6),
            "step_seconds": round(e.step_s, 6),
            "wall_clock_hours": round(e.wall_hours, 4),
            "cost_to_finish": {"amount": str(money(e.cost_to_finish)), "currency": currency},
            "effective_price_per_useful_gpu_hour": {
                "amount": str(money(e.effective_price_per_useful_gpu_hour)),
                "currency": currency,
            },
        }
    return {
        "rank": score.rank,
        "cost_rank": score.cost_rank,
        "bid_id": e.bid.id,
        "provider": e.bid.quote.provider,
        "gates": {
            "passed": e.passes_gates,
            "failed": [{"code": g.code, "reason": g.message} for g in e.gates],
        },
        "warnings": [{"code": w.code, "message": w.message} for w in e.warnings],
        "figures": figures,
        "criteria": {name: round(value, 6) for name, value in score.criteria.items()},
        "weighted_score": None if score.weighted_score is None else round(score.weighted_score, 6),
        "scaling_curve": [
            {"gpus": n, "effective_mfu": round(m, 6)} for n, m in zip(e.scaling.gpus, e.scaling.effective_mfu)
        ],
        "calibration_notes": list(e.calibration_notes),
        "evidence_used": {
            "busbw": None if e.busbw_evidence is None else evidence_json(e.busbw_evidence),
            "efficiency": None if e.efficiency_evidence is None else evidence_json(e.efficiency_evidence),
        },
        "assumptions": [{"name": a.name, "value": a.value, "source": a.source} for a in bid_assumptions(e, workload)],
    }


def scorecard_to_json(scorecard: Scorecard, uncertainty=None, sensitivity=None) -> dict:
    """The scorecard; with an UncertaintyResult and Sensitivity (core.uncertainty), also each bid's
    P10-P90 band and win probability, the tipping points and the tornado."""
    evaluation = scorecard.evaluation
    report = {
        "evaluation": evaluation.title,
        "currency": evaluation.currency,
        "model_version": __version__,
        "workload": {
            "name": evaluation.workload.name,
            "job_gpus": evaluation.workload.job_gpus,
            "total_flops": evaluation.workload.total_training_flops,
        },
        "weights": {name: round(value, 6) for name, value in scorecard.weights.items()},
        "bids": [bid_to_json(score, scorecard) for score in scorecard.scores],
    }
    if uncertainty is not None:
        from clusterbid.core.uncertainty.presentation import add_uncertainty_json

        add_uncertainty_json(report, evaluation.currency, uncertainty, sensitivity)
    return report


def format_ranking_table(scorecard: Scorecard, uncertainty=None, sensitivity=None) -> str:
    """The ranked comparison as fixed-width text for a terminal; with an UncertaintyResult and
    Sensitivity (core.uncertainty), followed by the bands, evidence, tipping points and tornado."""
    evaluation = scorecard.evaluation
    w = evaluation.workload
    currency = evaluation.currency
    lines = [
        evaluation.title,
        f"Job: {w.name}; {w.job_gpus:,} GPUs, {w.total_training_flops:.3g} FLOPs, "
        f"TP{w.tensor_parallel} PP{w.pipeline_parallel} CP{w.context_parallel} DP{w.data_parallel}, "
        f"baseline MFU {w.baseline_mfu:.0%}",
        "",
        f"{'rank':>4}  {'bid':<16} {'provider':<22} {'price/GPU-h':>11} {'MFU':>6} {'goodput':>7} "
        f"{'hours':>8} {'cost to finish':>15} {'per useful GPU-h':>16} {'score':>6}",
    ]
    for score in scorecard.scores:
        e = score.estimate
        price = format_money(e.price_per_gpu_hour, currency, cents=True)
        if e.passes_gates:
            lines.append(
                f"{score.rank:>4}  {e.bid.id:<16.16} {e.bid.quote.provider:<22.22} {price:>11} "
                f"{e.effective_mfu:>6.1%} {e.goodput:>7.1%} {e.wall_hours:>8,.1f} "
                f"{format_money(e.cost_to_finish, currency):>15} "
                f"{format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True):>16} "
                f"{score.weighted_score:>6.3f}"
            )
        else:
            lines.append(f"{'--':>4}  {e.bid.id:<16.16} {e.bid.quote.provider:<22.22} {price:>11}  EXCLUDED")
            lines.extend(f"{'':>8}gate {g.code}: {g.message}" for g in e.gates)
    for score in scorecard.scores:
        for warning in score.estimate.warnings:
            lines.append(f"note {score.estimate.bid.id}: {warning.message}")
    if uncertainty is not None:
        from clusterbid.core.uncertainty.presentation import uncertainty_lines

        lines += uncertainty_lines(scorecard, uncertainty, sensitivity)
    return "\n".join(lines)


def comparison_rows(scorecard: Scorecard) -> list[dict]:
    """One flat row per bid for the spreadsheet export: what the table shows, with units."""
    currency = scorecard.evaluation.currency
    rows = []
    for score in scorecard.scores:
        e, bid = score.estimate, score.bid
        passed = e.passes_gates
        rows.append({
            "rank": score.rank,
            "bid id": bid.id,
            "provider": bid.quote.provider,
            "GPU model": bid.capacity.gpu_model,
            "fabric": f"{bid.fabric.technology} {bid.fabric.nics_per_node}x{bid.fabric.nic_line_rate_gbit_s:g} Gb/s",
            "largest contiguous block [GPUs]": bid.capacity.largest_contiguous_block_gpus,
            f"price per GPU-hour [{currency}]": money(e.price_per_gpu_hour),
            "gates": "passed" if passed else "; ".join(g.message for g in e.gates),
            "effective MFU [%]": round(e.effective_mfu * 100, 2) if passed else None,
            "goodput [%]": round(e.goodput * 100, 2) if passed else None,
            "wall-clock [hours]": round(e.wall_hours, 1) if passed else None,
            f"cost to finish [{currency}]": money(e.cost_to_finish) if passed else None,
            f"effective price per useful GPU-hour [{currency}]": money(e.effective_price_per_useful_gpu_hour) if passed else None,
            "weighted score": None if score.weighted_score is None else round(score.weighted_score, 4),
        })
    return rows
