"""One page per bid (offer, fabric, block vs job, cost, evidence, risks) and what was not verified."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clusterbid.core.assumptions import busbw_source_words
from clusterbid.core.contract_summary import (
    bands_words,
    billing_words,
    contract_lines,
    decision_figure,
)
from clusterbid.core.costmodel.payment_terms import payment_line
from clusterbid.core.evidence.model import GRADE_WORDS, EvidenceGrade, EvidenceKind
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.core.memo.delivery_lines import delivery_rows, rating_row
from clusterbid.core.memo.provenance_lines import not_verified_lines, risk_lines, workload_lines
from clusterbid.core.provenance import DOCUMENTED_DEFAULTS, effective_reliability
from clusterbid.core.provider_rating import ratings_by_provider
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.core.uncertainty.default_effects import scorecard_default_effects
from clusterbid.core.unstated_criteria import (
    UnstatedCriterion,
    unstated_criteria,
    unstated_lines,
)

Rows = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class BidPage:
    bid_id: str
    provider: str  # the bid as officers name it: provider, GPU model (bid_words.bid_label)
    status: str  # "Rank 2 of 4" or "Excluded"
    offer_rows: Rows
    fabric_rows: Rows
    block_vs_job: str
    block_fits: bool
    cost_rows: Rows
    evidence_rows: Rows  # header first; only the header when no evidence
    risks: tuple[str, ...]


def _date(value) -> str:
    return value.isoformat() if value else "not given"


def bid_pages(scorecard: Scorecard, uncertainty: Any, effects: dict) -> tuple[BidPage, ...]:
    """Every bid's page, with what is worked out over all the bids (the blank criteria's ranks)
    worked out once: per page, it made the memo quadratic in bids."""
    unstated = unstated_criteria(scorecard)
    return tuple(bid_page(s, scorecard, uncertainty, effects, unstated) for s in scorecard.scores)


def bid_page(
    score: BidScore,
    scorecard: Scorecard,
    uncertainty: Any,
    effects: dict | None = None,
    unstated: dict[str, list[UnstatedCriterion]] | None = None,
) -> BidPage:
    evaluation = scorecard.evaluation
    effects = effects if effects is not None else scorecard_default_effects(scorecard)
    unstated = unstated if unstated is not None else unstated_criteria(scorecard)
    bid, e = score.bid, score.estimate
    workload = evaluation.workload
    offer = _quote_rows(bid, e, evaluation.currency) + _service_rows(bid, evaluation)
    fits = bid.capacity.largest_contiguous_block_gpus >= workload.job_gpus
    block = (
        f"Largest contiguous block {bid.capacity.largest_contiguous_block_gpus:,} GPUs vs the "
        f"planned job of {workload.job_gpus:,} GPUs: "
        + ("the job fits in one block." if fits else "the job does NOT fit in one block.")
    )
    cost, status = _cost_rows_and_status(score, scorecard, uncertainty)
    risks = [f"Gate failed: {g.message}" for g in e.gates] + [
        f"Flag: {w.message}" for w in e.warnings
    ]
    risks += list(e.calibration_notes)
    risks += risk_lines(effects[bid.id], evaluation.currency)  # issue 14: the defaults it rests on
    risks += unstated_lines(unstated.get(bid.id, []))  # issue 38: blank criteria
    return BidPage(
        bid.id,
        bid_label(bid),
        status,
        offer,
        _fabric_rows(bid, e),
        block,
        fits,
        tuple(cost),
        _evidence_rows(bid),
        tuple(risks),
    )


def _quote_rows(bid: Any, e: Any, currency: str) -> Rows:
    """Who offers what, at which price (and in the evaluation's currency), how long, what fees."""
    t, c = bid.terms, bid.capacity
    price = format_money(float(t.price_per_gpu_hour), t.currency, cents=True)
    if t.currency != currency:
        price += (
            f" = {format_money(e.price_per_gpu_hour, currency, cents=True)} at {e.exchange_rate:g} "
            f"{currency}/{t.currency}"
        )
    return (
        ("Provider", bid.quote.provider),
        (
            "Quote",
            f"{bid.quote.reference or 'no reference'}; quoted {_date(bid.quote.quoted_on)}, valid "
            f"until {_date(bid.quote.valid_until)}",
        ),
        (
            "Capacity",
            f"{c.gpus_offered:,} x {c.gpu_model}, {c.gpus_per_node} per node; "
            f"{c.spare_pool_gpus:,} spare GPUs; from {_date(c.available_from)}",
        ),
        ("Price", f"{price} per GPU-hour"),
        (
            "Term",
            ("on demand" if t.term_months == 0 else f"{t.term_months} months")
            + (
                f", {t.committed_gpu_hours:,.0f} GPU-hours committed"
                if t.committed_gpu_hours
                else ""
            ),
        ),
        (
            "Fees",
            f"{_fee(t.one_off_fees, t.currency, 'terms.one_off_fees')} one-off, "
            f"{_fee(t.recurring_fees_per_month, t.currency, 'terms.recurring_fees_per_month')} per "
            "month" + "; " + payment_line(t.payment_terms_days, e.cash_cost, currency),
        ),
    )


def _service_rows(bid: Any, evaluation: Any) -> Rows:
    """Support, reliability, facility, then the delivery schedule and third-party rating."""
    t, r = bid.terms, effective_reliability(bid)
    offer = (
        (
            "Support and terms",
            f"{t.support_tier} support; exit clause {'yes' if t.exit_clause else 'no'}; "
            f"next-generation migration {'yes' if t.next_gen_migration else 'no'}",
        ),
        (
            "Reliability",
            f"SLA {r.uptime_sla_percent:g}% with {r.sla_credit_percent:g}% credit; "
            f"{r.failures_per_1000_gpu_days:g} failures per 1,000 GPU-days; node replaced in "
            f"{r.node_replacement_hours:g} h (sources: What was not verified)",
        ),
        (
            "Facility",
            f"tier {bid.facility.datacenter_tier or 'not stated'}; certifications: "
            f"{', '.join(bid.facility.certifications) or 'none stated'}",
        ),
    )
    # Issue 39: the delivery schedule and the provider's third-party rating (the SLA credit
    # claimable against its headline is in the net cost's line, contract_summary.py).
    rating = ratings_by_provider(evaluation.provider_ratings).get(bid.quote.provider)
    offer += tuple(
        row
        for row in (*delivery_rows(bid, evaluation.workload.job_gpus), rating_row(rating))
        if row is not None
    )
    return offer


def _fabric_rows(bid: Any, e: Any) -> Rows:
    """The network offered and the all-reduce speed the cost model used, with its source."""
    f, top = bid.fabric, bid.topology
    fabric = (
        (
            "Fabric",
            f"{f.technology}: {f.nics_per_node} x {f.nic_line_rate_gbit_s:g} Gb/s per node "
            f"({f.aggregate_gb_s:g} GB/s aggregate); GPUDirect RDMA "
            f"{'yes' if f.gpudirect_rdma else 'no'}; SHARP {'yes' if f.sharp else 'no'}",
        ),
        (
            "Topology",
            f"{top.kind}, {top.oversubscription_ratio:g}:1 beyond a {top.leaf_domain_gpus:,}-GPU "
            f"leaf; NVLink domain {top.nvlink_domain_gpus} GPUs",
        ),
        (
            "busbw used",
            f"{e.node_busbw_gb_s:.1f} GB/s per node (spec would give "
            f"{e.spec_node_busbw_gb_s:.1f}); "
            f"{e.dp_busbw_gb_s:.2f} GB/s per data-parallel rank",
        ),
        ("busbw source", busbw_source_words(e)),
    )
    return fabric


def _cost_rows_and_status(
    score: BidScore, scorecard: Scorecard, uncertainty: Any
) -> tuple[list[tuple[str, str]], str]:
    """Passing the gates: how its time and cost are worked out; failing: why it is not costed."""
    bid, e = score.bid, score.estimate
    currency = scorecard.evaluation.currency
    if e.passes_gates:
        ranked = decision_figure(scorecard, bid.id)
        cost = [
            (
                "Effective MFU",
                f"{e.effective_mfu:.1%} (baseline {e.baseline_mfu:.1%}, scaling efficiency "
                f"{e.scaling_efficiency:.1%})",
            ),
            (
                "Step time",
                f"{e.step_s:.2f} s: compute {e.compute_s:.2f} s, bubble {e.bubble_fraction:.1%}, "
                f"exposed communication {e.exposed_comm_s:.3f} s",
            ),
            (
                "Goodput",
                f"{e.goodput:.1%} ({e.failures_per_hour:.3f} failures per job-hour, "
                f"{e.hours_lost_per_failure:.2f} h lost each)",
            ),
            ("Wall-clock", f"{e.wall_hours:,.1f} hours (run {e.run_hours:,.1f} h plus burn-in)"),
            *contract_lines(e, currency, ranked_on=ranked, ranked_row=False),
        ]
        stats = None if uncertainty is None else uncertainty.bids.get(bid.id)
        if stats is not None:
            cost.append(("P10 / P50 / P90 net cost", bands_words(stats, scorecard, ranked)))
        status = f"Rank {score.rank} of {len(scorecard.ranked)}"
    else:
        cost = [
            ("Contract", billing_words(bid, currency)),
            ("Not costed", "the bid fails a gate, so no cost is given"),
        ]
        status = "Excluded"
    return cost, status


def _evidence_rows(bid: Any) -> Rows:
    """The evidence table, header first (only the header when the bid has none)."""
    evidence = [("Kind", "Value", "Scale", "Grade", "By / date", "Artefact SHA-256")]
    for item in bid.evidence:
        evidence.append(
            (
                item.kind.value.replace("_", " "),
                f"{item.value:g} {item.unit}",
                f"{item.scale_gpus:,} GPUs",
                GRADE_WORDS[item.grade],
                f"{item.measured_by.replace('_', ' ')}, {_date(item.measured_on)}",
                item.artefact_sha256 or "none attached",
            )
        )
    return tuple(evidence)


def unverified_items(scorecard: Scorecard, effects: dict | None = None) -> tuple[str, ...]:
    """Plain words on every figure the memo rests on that nobody measured independently."""
    effects = effects if effects is not None else scorecard_default_effects(scorecard)
    job = scorecard.evaluation.workload.job_gpus
    items = workload_lines(scorecard.evaluation.workload)  # issue 14: the buyer's inputs by source
    for score in scorecard.scores:
        bid, e = score.bid, score.estimate
        who = bid_label(bid)  # as the bid's page and the comparison table name it, never its id
        if e.busbw_evidence is None:
            items.append(
                f"{who}: no all-reduce measurement; its network speed ({e.node_busbw_gb_s:.1f} "
                "GB/s) "
                "is worked out from the spec sheet and a typical efficiency."
            )
        if e.efficiency_evidence is None:
            items.append(
                f"{who}: no training-efficiency measurement; the buyer's own baseline MFU is "
                "assumed."
            )
        for item in bid.evidence:
            what = f"{item.kind.value.replace('_', ' ')} of {item.value:g} {item.unit}"
            if item.grade is EvidenceGrade.PROVIDER_CLAIM:
                items.append(
                    f"{who}: the {what} is the provider's word only; no raw data was supplied."
                )
            elif item.grade is EvidenceGrade.MEASURED_PROVIDER:
                items.append(
                    f"{who}: the {what} was measured by the provider, not by us or a third party."
                )
            if item.kind is not EvidenceKind.OTHER and item.scale_gpus < job:
                items.append(
                    f"{who}: the {what} was measured on {item.scale_gpus:,} GPUs; the job uses "
                    f"{job:,}."
                )
        # Issue 14: each figure by its real source, the one that can move the decision most first.
        items += not_verified_lines(bid, effects[bid.id], scorecard.evaluation.currency, who)
    return tuple(items)


def _fee(amount, currency: str, path: str) -> str:
    """A stated fee as money; an empty one as not stated, with the share of the GPU bill it is priced at."""
    if amount is None:
        return f"not stated (priced at {DOCUMENTED_DEFAULTS[path].value:g}% of the GPU bill)"
    return format_money(float(amount), currency)
