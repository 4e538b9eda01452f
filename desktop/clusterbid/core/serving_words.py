"""A serving bid's figures in words: the chance its fleet meets the targets at peak, the fleet
the approval is sized at, how fleets are billed, the blended cost per million tokens, the SLA
credit and the P10-P90 band. The JSON, the terminal table, the app's details and the memo all
read them here, so each is worded once."""

from __future__ import annotations

from clusterbid.core.costmodel.engine_efficiency import engine_line
from clusterbid.core.costmodel.serving_bill_gpus import counted
from clusterbid.core.costmodel.serving_estimate import ServingEstimate
from clusterbid.core.costmodel.serving_sla_credit import credit_words
from clusterbid.core.engine_names import NOT_STATED, engine_words
from clusterbid.core.money import format_money
from clusterbid.core.serving_traffic import profile_words
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.uncertainty.serving_montecarlo import ServingBand


def slo_text(band: ServingBand | None, estimate: ServingEstimate) -> str | None:
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


def fleet_text(band: ServingBand, currency: str, w: InferenceWorkload) -> str:
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


def billing_basis(w: InferenceWorkload) -> str:
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


def blended(per_million_output: float, w: InferenceWorkload) -> float:
    """Issue 37: the same monthly bill over every token the service moves, prompts and outputs
    (what API prices quote): cost per million output tokens x output / (prompt + output)."""
    return float(per_million_output * w.output_tokens / (w.prompt_tokens + w.output_tokens))


def sla_line(e: ServingEstimate, currency: str) -> str:
    """Issue 37: the claimable SLA credit of a bid that serves, in words."""
    return credit_words(
        e.sla_credit_per_month or 0.0, e.sla_headline_credit_per_month or 0.0, currency
    )


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
        # Not the fleet as costed (slo_text's chance) but whether any fleet within the GPUs
        # offered can meet the targets; never rounded up to a whole 100% (a tester read "meets
        # the targets in 100%" beside "88% of the Monte Carlo draws" for one bid).
        share = band.chance_servable
        shown = "over 99%" if share >= 0.995 else f"{share:.0%}"
        text += f"; the GPUs offered can carry the workload within the targets in {shown}"
    return text


def engine_text(e: ServingEstimate | None, w: InferenceWorkload) -> str:
    """Issue 37: the serving engine, whose statement it is and what it does; for a bid costed with
    its own serving benchmark, that the benchmark set its efficiencies instead."""
    value, effect = engine_line(w)
    if e is not None and e.throughput_evidence is not None:
        return (
            f"{value}; this bid's efficiencies are set by its own serving benchmark instead (a "
            "measured figure beats a catalog one)"
        )
    return f"{value}; {effect}"


def engine_memo_words(w: InferenceWorkload) -> str:
    """Issue 37: the engine as the memo's Model row ends, short enough to keep the service table
    on page 1 beside the decision: which engine and whose statement (the Details pane and the
    JSON carry engine_text's full words, the methodology section 8 the figures' sources)."""
    if w.serving_engine == NOT_STATED:
        return "engine not stated: band widened by the spread across engines"
    return f"engine: {engine_words(w.serving_engine)} (buyer's)"
