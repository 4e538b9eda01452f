"""What the memo says, as plain text and rows built from the scorecard; no looks here."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from clusterbid import __version__
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel import MODEL_VERSION
from clusterbid.core.costmodel.stack_efficiency import baseline_mfu_words
from clusterbid.core.flops import flops_text
from clusterbid.core.memo.bid_pages import GRADE_WORDS, BidPage, bid_pages, unverified_items
from clusterbid.core.memo.bid_words import bid_label, bid_names
from clusterbid.core.memo.commitment_chart import commitment_rows
from clusterbid.core.memo.criteria_tables import Rows, criteria_rows, tipping_rows
from clusterbid.core.memo.decision_checks import price_reasonableness_rows
from clusterbid.core.memo.inputs import Approver, MemoInputs, RecommendationOverride
from clusterbid.core.memo.methodology import methodology_for
from clusterbid.core.memo.summary import DecisionSummary, decision_summary
from clusterbid.core.memo.waterfall_table import memo_waterfall_rows
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.core.uncertainty.default_effects import scorecard_default_effects
from clusterbid.resources import resource_path

CONFIDENTIALITY = (
    "Confidential: procurement in progress. Do not forward outside the approval group."
)


@dataclass(frozen=True, slots=True)
class MemoContent:
    title: str
    memo_number: str
    inputs_sha256: str
    as_of: dt.date
    confidentiality: str
    software_version: str
    model_version: str
    summary: DecisionSummary
    job_rows: Rows  # (name, value)
    busbw_rows: Rows  # (bid and provider, busbw used, where it came from)
    comparison_rows: Rows  # header first
    criteria_rows: (
        Rows  # header first: each ranked bid's normalised criteria, weights in the header
    )
    bid_pages: tuple[BidPage, ...]
    tipping_rows: Rows | None  # header first; None: sensitivity not computed
    unverified: tuple[str, ...]
    notes: str
    approvers: tuple[Approver, ...]
    methodology: str
    evidence_requests: tuple[str, ...] = ()  # evidence worth asking for, requests and their states
    audit_anchor: str = (
        ""  # the document's audit row this memo was made from, in words; "" from JSON
    )
    decision_date: str = ""  # the approval meeting's date, or the export date said to be one
    price_rows: Rows = ()  # header first: each bid's price against public list prices
    approval_terms: str = ""  # what a signature approves (approval_statement.approval_terms)
    commitment_rows: tuple[
        tuple[str, float, float, float], ...
    ] = ()  # commitment_chart.commitment_rows
    not_verified_line: str = ""  # page 1's pointer to section 6 and the question most worth asking
    expired: tuple[
        tuple[str, bool], ...
    ] = ()  # quotes lapsed by the decision date (text, the winner's)
    panel: dict[str, Any] | None = (
        None  # the evaluation panel's page (core/panel/summary.py); None: no panel
    )
    waterfall_rows: Rows = ()  # waterfall_table.waterfall_rows: why the recommendation wins (issue 34)

    @classmethod
    def from_scorecard(
        cls,
        scorecard: Scorecard,
        inputs: MemoInputs,
        *,
        approvers: tuple[Approver, ...],
        uncertainty: Any = None,
        sensitivity: Any = None,
        notes: str = "",
        override: RecommendationOverride | None = None,
        rationale: str = "",
        odds_against: str | None = None,
    ) -> MemoContent:
        evaluation = scorecard.evaluation
        effects = scorecard_default_effects(
            scorecard
        )  # issue 14: once for the bid pages and the list
        return cls(
            title=evaluation.title,
            memo_number=memo_number(inputs.sha256),
            inputs_sha256=inputs.sha256,
            as_of=inputs_date(scorecard),
            confidentiality=CONFIDENTIALITY,
            software_version=str(inputs.data.get("software_version") or __version__),
            model_version=MODEL_VERSION,
            summary=decision_summary(scorecard, uncertainty, override, rationale, odds_against),
            job_rows=job_rows(scorecard),
            busbw_rows=busbw_rows(scorecard),
            comparison_rows=comparison_rows(scorecard, uncertainty),
            criteria_rows=criteria_rows(scorecard),
            price_rows=price_reasonableness_rows(
                [
                    (s.bid.quote.provider, s.bid.capacity.gpu_model, s.estimate.price_per_gpu_hour)
                    for s in scorecard.scores
                ],  # the GPU model, beside it, tells one provider's bids apart
                evaluation.currency,
            ),
            bid_pages=bid_pages(scorecard, uncertainty, effects),
            tipping_rows=tipping_rows(sensitivity, scorecard),
            unverified=unverified_items(scorecard, effects),
            notes=notes.strip(),
            approvers=tuple(approvers),
            methodology=methodology_for(
                resource_path("methodology.md").read_text(encoding="utf-8"), serving=False
            ),
            audit_anchor=anchor_words(inputs.data.get("audit_anchor")),
            commitment_rows=commitment_rows(scorecard),
            waterfall_rows=memo_waterfall_rows(
                scorecard,
                uncertainty,
                next(
                    (s for s in scorecard.ranked if override and s.bid.id == override.bid_id), None
                ),
            ),
        )


def anchor_words(value: object) -> str:
    from clusterbid.core.store.anchor import AuditAnchor

    anchor = AuditAnchor.from_json(value)
    return anchor.describe() if anchor else ""


def memo_number(sha256: str) -> str:
    return f"CB-{sha256[:8].upper()}"


def inputs_date(scorecard: Scorecard) -> dt.date:
    """The latest quote or measurement date in the inputs: the memo's fixed creation date, so
    the same inputs always give the same file (no wall clock)."""
    dates = [dt.date(2000, 1, 1)]
    for bid in scorecard.evaluation.bids:
        dates += [d for d in (bid.quote.quoted_on,) if d]
        dates += [e.measured_on for e in bid.evidence if e.measured_on]
    return max(dates)


def _name(score: BidScore) -> str:
    return bid_label(score.bid)  # the officer's words, never the evaluation's id (issue 38)


def job_rows(scorecard: Scorecard) -> Rows:
    w = scorecard.evaluation.workload
    return (
        ("Planned job size", f"{w.job_gpus:,} GPUs in one synchronous job"),
        ("Job", w.name),
        ("Total training compute", flops_text(w.total_training_flops)),
        (
            "Parallelism",
            f"TP {w.tensor_parallel} x PP {w.pipeline_parallel} x CP {w.context_parallel} x DP "
            f"{w.data_parallel}",
        ),
        ("Precision", w.precision.upper()),
        ("Baseline MFU", baseline_mfu_words(w)),  # whose figure, on which stack (issue 36)
        ("Global batch", f"{w.global_batch_tokens:,} tokens; sequences of {w.sequence_length:,}"),
    )


def busbw_rows(scorecard: Scorecard) -> Rows:
    """The scale-out bus bandwidth each bid was scored with, and in short where it came from
    (the full source, with the catalog's reference, is on the bid's page). One line per bid,
    so the whole box stays on page 1."""
    catalog = default_catalog()
    rows = [("Bid (provider)", "busbw per node", "Where it came from")]
    for score in scorecard.scores:
        e, f = score.estimate, score.bid.fabric
        evidence = e.busbw_evidence
        if evidence is None:
            efficiency = catalog.fabric(f.technology).typical_efficiency
            source = (
                f"spec sheet: {f.nics_per_node} x {f.nic_line_rate_gbit_s:g} Gb/s {f.technology} "
                f"x {efficiency:g}"
                + (" with SHARP in-network reduction" if f.sharp else "")
                + " (not measured)"
            )
        else:
            when = evidence.measured_on.isoformat() if evidence.measured_on else "undated"
            source = (
                f"evidence: nccl-tests all_reduce at {evidence.scale_gpus:,} GPUs, "
                f"{GRADE_WORDS[evidence.grade]}, {when}"
            )
        rows.append((_name(score), f"{e.node_busbw_gb_s:.1f} GB/s", source))
    return tuple(rows)


def comparison_rows(scorecard: Scorecard, uncertainty: Any) -> Rows:
    currency = scorecard.evaluation.currency
    rows = [
        (
            "#",
            "Bid / provider",
            "Price per GPU-h",
            "Eff. MFU",
            "Goodput",
            "Hours",
            f"Net plan cost ({currency})",
            "Score",
            "Gates and flags",
        )
    ]
    bids = bid_names(scorecard.scores)
    for score in scorecard.scores:
        e = score.estimate
        price = format_money(e.price_per_gpu_hour, currency, cents=True)
        flags = "; ".join(f.message for f in e.warnings)
        label = bids[score.bid.id]  # the provider; its GPU model only when it made two bids
        if not e.passes_gates:
            # The first failed gate says why; every gate and flag is listed on the bid's own page.
            more = len(e.gates) - 1
            gates = (
                "EXCLUDED: "
                + e.gates[0].message
                + (f" (+{more} more gate(s): see its page)" if more > 0 else "")
            )
            flags = f"{len(e.warnings)} flag(s) on its page" if e.warnings else ""
            rows.append(
                (
                    "-",
                    label,
                    price,
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    gates + (f"\nFlags: {flags}" if flags else ""),
                )
            )
            continue
        cost = (
            format_money(e.plan_cost, currency)
            + f"\ncommits {format_money(e.commitment, currency)}"
        )
        stats = None if uncertainty is None else uncertainty.bids.get(score.bid.id)
        if stats is not None:
            cost += (
                f"\nP10 {format_money(stats.cost_p10, currency)}\nP90 "
                f"{format_money(stats.cost_p90, currency)}"
            )
        rows.append(
            (
                str(score.rank),
                label,
                price,
                f"{e.effective_mfu:.1%}",
                f"{e.goodput:.1%}",
                f"{e.wall_hours:,.1f}",
                cost,
                f"{score.weighted_score:.3f}",
                "passed" + (f"; flags: {flags}" if flags else ""),
            )
        )
    return tuple(rows)
