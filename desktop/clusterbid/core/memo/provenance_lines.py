"""The memo's words on each figure nobody measured: its source and how far it moves the decision.

Issue 14: listed per bid (the winner included) in the order of how far each can move the bid's cost
rank, then its cost; a default or an assumption is never called the provider's.
"""

from __future__ import annotations

from clusterbid.core.costmodel.stack_efficiency import stack_catalog
from clusterbid.core.money import format_money
from clusterbid.core.provenance import effective_reliability, effective_terms, unverified_inputs
from clusterbid.core.provenance.defaults import (
    DOCUMENTED_DEFAULTS,
    FEE_SHARE_PATHS,
    WORKLOAD_TRACKED_FIELDS,
)
from clusterbid.core.stack_names import NOT_STATED, stack_words
from clusterbid.core.uncertainty.default_effects import DefaultEffect

# The names the wizard shows, so the officer reads the same words in the app and the memo.
FIGURE_WORDS = {
    "reliability.uptime_sla_percent": "uptime SLA (%)",
    "reliability.sla_credit_percent": "SLA credit (%)",
    "reliability.failures_per_1000_gpu_days": "failures per 1,000 GPU-days",
    "reliability.node_replacement_hours": "node replacement (hours)",
    "reliability.pool_swap_hours": "swap from the provider's pool (hours)",
    "reliability.burn_in_hours": "burn-in billed (hours)",
    "reliability.storage_write_gb_s": "checkpoint write (GB/s)",
    "capacity.spare_pool_gpus": "spare GPUs",
    "terms.one_off_fees": "one-off fees (% of the GPU bill)",
    "terms.recurring_fees_per_month": "recurring fees (% of the GPU bill)",
    "terms.billing_increment_hours": "billing increment (hours)",
    "terms.minimum_billed_hours": "minimum billed (hours per GPU)",
    "terms.payment_terms_days": "payment due (days after invoice)",
    "baseline_mfu": "baseline MFU",
    "dp_comm_overlap": "all-reduce share hidden",
    "checkpoint_interval_minutes": "checkpoint interval (minutes)",
    "checkpoint_blocking_share": "checkpoint share that blocks",
    "restart_minutes": "restart (minutes)",
}


def field_words(path: str) -> str:
    return FIGURE_WORDS.get(path, path.rpartition(".")[2].replace("_", " "))


def figure_value(bid, path: str) -> float:
    if path in FEE_SHARE_PATHS and getattr(bid.terms, path.split(".")[1]) is None:
        return DOCUMENTED_DEFAULTS[
            path
        ].value  # an unstated fee is priced as this % of the GPU bill
    section, name = path.split(".")
    holder = {"reliability": effective_reliability, "terms": effective_terms}.get(
        section, lambda b: getattr(b, section)
    )(bid)
    return getattr(holder, name)


def effect_words(effect: DefaultEffect, currency: str) -> str:
    """'across 0-16 the net cost runs $1.63M to $1.03M; its cost rank goes from 2 to 1'."""
    money = lambda amount: format_money(amount, currency)  # noqa: E731
    if effect.swing == 0:
        return (
            f"across {effect.low:g}-{effect.high:g} ({effect.range_from}) it does not move the cost"
        )
    words = (
        f"across {effect.low:g}-{effect.high:g} ({effect.range_from}) the net cost runs "
        f"{money(effect.cost_low)} to {money(effect.cost_high)}"
    )
    if effect.cost_rank_low is None:
        return words
    if effect.moves_rank:
        return words + (
            f"; its cost rank goes from {effect.cost_rank_low} to {effect.cost_rank_high}, "
            "so the ranking depends on it"
        )
    return words + f"; its cost rank stays {effect.cost_rank_low}"


def not_verified_lines(bid, effects: list[DefaultEffect], currency: str, who: str) -> list[str]:
    """One line per unmeasured figure of the bid, the one that can move the decision most first."""
    unverified = {row["field"]: row for row in unverified_inputs(bid)}
    lines = []
    steady = []  # the provider's statements whose +/-15% leaves the cost rank as it is
    for effect in effects:
        value = figure_value(bid, effect.field)
        row = unverified.pop(effect.field, None)
        if row is None and not effect.moves_rank:
            steady.append(f"{field_words(effect.field)} {value:g}")
            continue
        if row is None:  # the provider's statement: named as such, never measured
            lines.append(
                f"{who}: {field_words(effect.field)} = {value:g} is stated by the provider, not "
                f"measured; {effect_words(effect, currency)}."
            )
            continue
        span = f" (plausible {row['range'][0]:g}-{row['range'][1]:g})" if row["range"] else ""
        lines.append(
            f"{who}: {field_words(effect.field)} = {value:g} is {row['label']}{span}; source: "
            f"{row['source']}; {effect_words(effect, currency)}."
        )
    if steady:  # one line, not one each: none of them can change the decision
        why = (
            "none moving its cost rank across +/-15%"
            if effects[0].cost_rank_low is not None
            else "the bid is excluded, so none moves the decision"
        )
        lines.append(f"{who}: stated by the provider and not measured, {why}: {', '.join(steady)}.")
    for row in unverified.values():  # figures not moved across a range here (SLA credit)
        span = f" (plausible {row['range'][0]:g}-{row['range'][1]:g})" if row["range"] else ""
        lines.append(
            f"{who}: {field_words(row['field'])} = {row['value']:g} is {row['label']}{span}; "
            f"source: {row['source']}; it enters the net cost only as the credit expected to be "
            "claimed."
        )
    return lines


def risk_lines(effects: list[DefaultEffect], currency: str) -> list[str]:
    """The bid page's risks: each default, not-stated or assumed figure that moves its cost."""
    return [
        f"Rests on a figure that is {effect.label}: {field_words(effect.field)}; "
        f"{effect_words(effect, currency)}."
        for effect in effects
        if effect.kind != "provider" and effect.swing > 0
    ]


def workload_lines(workload) -> list[str]:
    """The workload inputs every bid's cost rests on, each by its source (buyer's or default)."""
    lines = []
    # A fixed order, not the dict's: the same workload read from differently ordered JSON (the
    # attached inputs are canonical, sorted) must print the same memo, byte for byte.
    order = {name: i for i, name in enumerate(WORKLOAD_TRACKED_FIELDS)}
    for name, source in sorted(
        workload.provenance.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])
    ):
        if source.verified:
            continue
        who = f" ({source.who})" if source.kind == "assumption" and source.who else ""
        value = getattr(workload, name)
        if name == "software_stack":
            lines.append(_stack_line(value, source.label, who))
            continue
        lines.append(
            f"Workload: {field_words(name)} = {value:g} is "
            f"{source.label}{who}; it moves every bid's cost and was not measured here."
        )
    return lines


def _stack_line(stack: str, label: str, who: str) -> str:
    """The software stack's line: what it does to the bands (issue 36), not to the point."""
    published = [v for spec in stack_catalog().values() for v in spec.h100_bf16_mfu]
    effect = (
        "so the bands are widened by the spread across published stacks "
        f"({min(published):.0%}-{max(published):.0%} of the H100 BF16 peak, methodology "
        "section 7)"
        if stack == NOT_STATED
        else "its published efficiency range sets how wide the bands are"
    )
    return f"Workload: software stack = {stack_words(stack)} is {label}{who}; {effect}."
