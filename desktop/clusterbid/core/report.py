"""The scorecard as JSON-ready data and as a plain-text ranking table."""

from __future__ import annotations

from clusterbid import __version__
from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.evidence.model import evidence_json  # noqa: F401 (re-exported)
from clusterbid.core.flops import flops_text
from clusterbid.core.money import CENT, SYMBOLS, format_money, money  # noqa: F401 (re-exported)
from clusterbid.core.provenance import unverified_inputs
from clusterbid.core.scoring import BidScore, Scorecard


def contract_json(e, currency: str) -> dict:
    """The commercial figures (methodology section 9): the commitment the signature approves,
    the planned job's cost, idle time and its value under the plan, and the net cost that ranks."""
    amount = lambda value: {"amount": str(money(value)), "currency": currency}  # noqa: E731
    return {
        "billing": e.bid.terms.billing_kind,
        "total_commitment": amount(e.commitment),
        "cost_of_planned_job": amount(e.job_cost),
        "used_gpu_hours": round(e.used_gpu_hours, 1),
        "idle_gpu_hours": round(e.idle_gpu_hours, 1),
        "idle_value": amount(e.idle_value),
        "leaves_early": e.leaves_early,
        "net_plan_cost": amount(e.plan_cost),
        "delay_cost_in_net_cost": amount(
            e.delay_cost
        ),  # the plan's cost of finishing late (issue 31)
        "payment_terms_cost_in_net_cost": amount(
            e.cash_cost
        ),  # cost of cash against the buyer's terms
        # Issue 39: the SLA credit subtracted is what can be claimed; the headline is never counted.
        "sla_credit_claimable_in_net_cost": amount(e.sla_credit),
        "sla_credit_headline_not_counted": amount(e.sla_headline_credit),
        "late_delivery_remedy_in_net_cost": amount(e.late_remedy),
        # Issue 31: what the commitment risks if the plan for idle time does not happen.
        "commitment_at_risk": {
            "idle_share": round(
                e.idle_gpu_hours / max(e.idle_gpu_hours + e.used_gpu_hours, 1e-9), 4
            ),
            "idle_value_under_the_plan": amount(e.idle_value),
            "net_cost_if_the_plan_fails": amount(e.cost_if_plan_fails),
        },
        "jobs_in_commitment": round(e.jobs_in_commitment, 4),
        "cost_per_finished_job": amount(e.commitment / e.jobs_in_commitment),
        "start_date": e.dates.start.isoformat() if e.dates.start else None,
        "finish_date": e.dates.finish.isoformat() if e.dates.finish else None,
    }


def _passing_figures(e: BidEstimate, currency: str) -> dict:
    """A passing bid's time and efficiency figures, then its commercial ones (contract_json)."""
    return {
        "effective_mfu": round(e.effective_mfu, 6),
        "scaling_efficiency": round(e.scaling_efficiency, 6),
        "goodput": round(e.goodput, 6),
        "step_seconds": round(e.step_s, 6),
        "wall_clock_hours": round(e.wall_hours, 4),
        "effective_price_per_useful_gpu_hour": {
            "amount": str(money(e.effective_price_per_useful_gpu_hour)),
            "currency": currency,
        },
        **contract_json(e, currency),
    }


def bid_to_json(score: BidScore, scorecard: Scorecard) -> dict:
    e = score.estimate
    currency = scorecard.evaluation.currency
    workload = scorecard.evaluation.workload
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
        "figures": _passing_figures(e, currency) if e.passes_gates else None,
        "criteria": {name: round(value, 6) for name, value in score.criteria.items()},
        "weighted_score": None if score.weighted_score is None else round(score.weighted_score, 6),
        "scaling_curve": [
            {"gpus": n, "effective_mfu": round(m, 6)}
            for n, m in zip(e.scaling.gpus, e.scaling.effective_mfu)
        ],
        "calibration_notes": list(e.calibration_notes),
        "evidence_used": {
            "busbw": None if e.busbw_evidence is None else evidence_json(e.busbw_evidence),
            "efficiency": None
            if e.efficiency_evidence is None
            else evidence_json(e.efficiency_evidence),
        },
        # Issue 14: every default, not-stated or assumed input, so no reader takes it for the provider's.
        "provenance": {
            path: source.model_dump(exclude_defaults=True)
            for path, source in sorted(e.bid.provenance.items())
        },
        "unverified_inputs": unverified_inputs(e.bid),
        "assumptions": [
            {"name": a.name, "value": a.value, "source": a.source}
            for a in bid_assumptions(e, workload, currency)
        ],
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
            # Issue 14: each input the cost rests on, the buyer's assumption or a default.
            "provenance": {
                name: source.model_dump(exclude_defaults=True)
                for name, source in sorted(evaluation.workload.provenance.items())
            },
        },
        "weights": {name: round(value, 6) for name, value in scorecard.weights.items()},
        # Issue 31: what the cost criterion ranked on (the policy's basis once the Monte Carlo ran).
        "decision": {"basis": scorecard.decision_basis, "words": scorecard.decision_words},
        "bids": [bid_to_json(score, scorecard) for score in scorecard.scores],
    }
    for row, score in zip(report["bids"], scorecard.scores, strict=True):
        if score.rank is not None:
            row["decision_cost"] = {
                "amount": str(money(scorecard.decision_cost(score))),
                "currency": evaluation.currency,
            }
    from clusterbid.core.uncertainty.default_effects import scorecard_default_effects

    # Issue 14: per bid, how far each unverified input can move its cost and cost rank.
    effects = scorecard_default_effects(scorecard)
    for row in report["bids"]:
        row["rank_depends_on"] = [effect.to_json() for effect in effects[row["bid_id"]]]
    if uncertainty is not None:
        from clusterbid.core.uncertainty.presentation import add_uncertainty_json

        add_uncertainty_json(report, evaluation.currency, uncertainty, sensitivity)
        # Issue 31, item 7: which of the buyer's own plan figures matters most to the decision.
        report["plan_assumption_values"] = _plan_values_json(scorecard)
    return report


def _plan_values_json(scorecard: Scorecard) -> list[dict]:
    """Each of the buyer's plan figures: its range, what it is worth, and where the choice turns."""
    from clusterbid.core.uncertainty.plan_value import plan_assumption_values

    currency = scorecard.evaluation.currency
    return [
        {
            "field": v.name,
            "stated": v.stated,
            "range": [v.low, v.high],
            "value": {"amount": str(money(v.value)), "currency": currency},
            "choice_changes_over": round(v.change_share, 4),
            "choice_after": v.choice_after,
        }
        for v in plan_assumption_values(scorecard)
    ]


def format_ranking_table(scorecard: Scorecard, uncertainty=None, sensitivity=None) -> str:
    """The ranked comparison as fixed-width text for a terminal; with an UncertaintyResult and
    Sensitivity (core.uncertainty), followed by the bands, evidence, tipping points and tornado."""
    evaluation = scorecard.evaluation
    w = evaluation.workload
    currency = evaluation.currency
    lines = [
        evaluation.title,
        f"Job: {w.name}; {w.job_gpus:,} GPUs, {flops_text(w.total_training_flops, plain=True)}, "
        f"TP{w.tensor_parallel} PP{w.pipeline_parallel} CP{w.context_parallel} "
        f"DP{w.data_parallel}, "
        f"baseline MFU {w.baseline_mfu:.0%}",
        "",
        f"{'rank':>4}  {'bid':<16} {'provider':<22} {'price/GPU-h':>11} {'MFU':>6} {'goodput':>7} "
        f"{'hours':>8} {'commitment':>12} {'net plan cost':>13} {'per useful GPU-h':>16} "
        f"{'score':>6}",
    ]
    for score in scorecard.scores:
        e = score.estimate
        price = format_money(e.price_per_gpu_hour, currency, cents=True)
        if e.passes_gates:
            lines.append(
                f"{score.rank:>4}  {e.bid.id:<16.16} {e.bid.quote.provider:<22.22} {price:>11} "
                f"{e.effective_mfu:>6.1%} {e.goodput:>7.1%} {e.wall_hours:>8,.1f} "
                f"{format_money(e.commitment, currency):>12} "
                f"{format_money(e.plan_cost, currency):>13} "
                f"{format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True):>16} "
                f"{score.weighted_score:>6.3f}"
            )
        else:
            lines.append(
                f"{'--':>4}  {e.bid.id:<16.16} {e.bid.quote.provider:<22.22} {price:>11}  EXCLUDED"
            )
            lines.extend(f"{'':>8}excluded: {g.message}" for g in e.gates)
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
        rows.append(
            {
                "rank": score.rank,
                "bid id": bid.id,
                "provider": bid.quote.provider,
                "GPU model": bid.capacity.gpu_model,
                "fabric": (
                    f"{bid.fabric.technology} "
                    f"{bid.fabric.nics_per_node}x{bid.fabric.nic_line_rate_gbit_s:g} Gb/s"
                ),
                "largest contiguous block [GPUs]": bid.capacity.largest_contiguous_block_gpus,
                f"price per GPU-hour [{currency}]": money(e.price_per_gpu_hour),
                "gates": "passed" if passed else "; ".join(g.message for g in e.gates),
                "effective MFU [%]": round(e.effective_mfu * 100, 2) if passed else None,
                "goodput [%]": round(e.goodput * 100, 2) if passed else None,
                "wall-clock [hours]": round(e.wall_hours, 1) if passed else None,
                "billing": bid.terms.billing_kind,
                f"total commitment [{currency}]": money(e.commitment) if passed else None,
                f"cost of the planned job [{currency}]": money(e.job_cost) if passed else None,
                "idle GPU-hours bought": round(e.idle_gpu_hours) if passed else None,
                f"net cost of the plan [{currency}]": money(e.plan_cost) if passed else None,
                "finish date": (e.dates.finish.isoformat() if e.dates.finish else None)
                if passed
                else None,
                f"effective price per useful GPU-hour [{currency}]": money(
                    e.effective_price_per_useful_gpu_hour
                )
                if passed
                else None,
                "weighted score": None
                if score.weighted_score is None
                else round(score.weighted_score, 4),
            }
        )
    return rows
