"""The approval memo of a serving (inference) evaluation.

Same document as the training memo where the two agree (title block, attached inputs and their
SHA-256, methodology, signature fields, deterministic bytes), its own sections where they differ:
the decision is a cost per million output tokens and a monthly bill, the assumptions box holds
the service's latency targets and traffic, and the workload-fit flags (a training-grade fabric
the service will not use) get their own section, and the frontier (issue 37) its own chart.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table, TableStyle

from clusterbid import __version__
from clusterbid.core.costmodel import SERVING_MODEL_VERSION
from clusterbid.core.costmodel.payment_terms import per_million_cash_words
from clusterbid.core.costmodel.serving_bill_gpus import (
    bill_headings,
    bill_words,
    counted,
    gpus_beside_bill,
    grows,
)
from clusterbid.core.costmodel.serving_growth_words import (
    growth_words,
    term_words,
)
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.memo import styles
from clusterbid.core.memo.approval_statement import approval_terms
from clusterbid.core.memo.bid_words import bid_label, bid_labels, bid_names
from clusterbid.core.memo.content import CONFIDENTIALITY, anchor_words, inputs_date, memo_number
from clusterbid.core.memo.decision_checks import price_reasonableness_rows
from clusterbid.core.memo.flowables import W, grid, key_values, para
from clusterbid.core.memo.inputs import Approver, MemoInputs, RecommendationOverride
from clusterbid.core.memo.layout import PageHeader, SignatureBoxes, memo_document, numbered_canvas
from clusterbid.core.memo.methodology import methodology_for
from clusterbid.core.memo.serving_frontier_section import frontier_section
from clusterbid.core.memo.serving_page_one import basis_row, not_verified_row, rivals_row
from clusterbid.core.memo.serving_printed import approval_monthly, band_cell
from clusterbid.core.memo.story import (
    methodology_appendix,
    price_reasonableness,
    sign_off,
    title_block,
)
from clusterbid.core.ranking import BidScore
from clusterbid.core.report import format_money
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_traffic import profile_words
from clusterbid.core.serving_words import band_text, billing_basis, fleet_text, sla_line, slo_text
from clusterbid.core.uncertainty.serving_tipping import serving_tipping_points
from clusterbid.core.uncertainty.tipping import WEIGHT_WORDS, weight_text
from clusterbid.resources import resource_path


@dataclass(frozen=True, slots=True)
class ServingMemoHead:
    """What the shared title block, methodology appendix and sign-off read."""

    title: str
    memo_number: str
    inputs_sha256: str
    as_of: dt.date
    software_version: str
    model_version: str
    approvers: tuple[Approver, ...]
    methodology: str
    audit_anchor: str = ""  # the document's audit row this memo was made from, in words
    decision_date: str = ""  # printed in the title block, as in the training memo
    approval_terms: str = ""  # what a signature approves, printed at the sign-off


def _nearest_tipping(scorecard: ServingScorecard) -> str | None:
    """The weight closest (in raw points) to changing the winner, in words."""
    best = None
    for name, t in serving_tipping_points(scorecard).items():
        for edge, who in ((t.lower, t.winner_below), (t.upper, t.winner_above)):
            if edge is not None and (best is None or abs(edge - t.current) < best[0]):
                best = (abs(edge - t.current), name, t.current, edge, who)
    if best is None:
        return "no single weight within 0-100 changes the winner"
    _, name, current, edge, who = best
    rival = bid_names(scorecard.scores).get(who, who)  # by provider, as approvers know it
    return (
        f"the nearest tipping point: {WEIGHT_WORDS.get(name, name)} weight {current:g} -> "
        f"{weight_text(edge)} "
        f"makes {rival} the winner (each weight's range is in the score JSON)"
    )


def _name(score: BidScore) -> str:
    return bid_label(score.bid)  # the officer's words, never the evaluation's id (issue 38)


def decision_rows(
    scorecard: ServingScorecard, override: RecommendationOverride | None
) -> tuple[list, str]:
    """(key-value rows, override note) for section 1."""
    currency = scorecard.evaluation.currency
    ranked = scorecard.ranked
    if not ranked:
        return [("Recommended bid", "no bid can serve the workload within its latency targets")], ""
    first = ranked[0]
    chosen = next((s for s in ranked if override and s.bid.id == override.bid_id), first)
    e = chosen.estimate
    rows = [
        ("Recommended bid", _name(chosen)),
        (
            "Cost per million output tokens",
            format_money(e.cost_per_million_tokens, currency, cents=True)
            + ", "
            + per_million_cash_words(
                chosen.bid,
                e.cash_cost_per_million_tokens or 0.0,
                currency,
                scorecard.evaluation.workload,
            )
            + "; "
            + sla_line(e, currency),
        ),
        # Issue 37: a growing fleet's bill is the term's average month, beside its own GPUs.
        ("Monthly cost", bill_words(e, currency)),
        (
            "Sizing",
            f"{counted(e.replicas, 'replica')} of TP {e.tensor_parallel}, batch {e.batch} "
            f"({e.tpot_ms:.1f} ms per output token, first token in {e.ttft_ms:.0f} ms); "
            f"{e.replicas_for_mean:,} carry the stated peak's mean rate, the rest is queueing "
            "headroom, "
            f"the forecast margin and N+{scorecard.evaluation.workload.spare_replicas} "
            f"(P{scorecard.evaluation.workload.ttft_percentile:g} wait {e.queue_wait_ms:.0f} ms, "
            f"{e.slot_utilisation:.0%} of batch slots busy at peak)",
        ),
    ]
    if term_words(e, currency):  # issue 37: a growing service's months
        rows.append(("Over the term", term_words(e, currency) or ""))
    band = scorecard.band(e.bid.id)
    rows.append(
        ("Decision basis", basis_row(scorecard, chosen))
    )  # issue 34: the training memo's rows
    if band is not None and band.chance_servable > 0:
        rows.append(
            (
                "Uncertainty",
                band_text(band, currency) + " (MBU and compute efficiency sampled; methodology 8)",
            )
        )
    nearest = _nearest_tipping(scorecard) if chosen is first else None
    if nearest:
        rows.append(("Weights", nearest))
    others = [s for s in ranked if s is not chosen]
    if others:
        other = others[0].estimate
        difference = other.cost_per_million_tokens - e.cost_per_million_tokens
        rows.append(("Rivals", rivals_row(scorecard, chosen)))
        monthly = other.monthly_cost - e.monthly_cost
        # Cents per million tokens round too coarsely to subtract; the percentage and the monthly
        # bills are the comparison an approver can check against the figures above.
        rows.append(
            (
                "Margin",
                f"{abs(difference) / other.cost_per_million_tokens:.1%} "
                f"{'cheaper' if difference >= 0 else 'dearer'} per million tokens than the next by "
                "score; "
                f"{format_money(abs(monthly), currency)} a month "
                f"{'less' if monthly >= 0 else 'more'}",
            )
        )
    if band is not None and band.fleet_at_percentile is not None:
        rows.append(
            ("Fleet for approval", fleet_text(band, currency, scorecard.evaluation.workload))
        )
    if slo_text(band, e):
        rows.append(("Targets at peak", slo_text(band, e) or ""))
    months = chosen.bid.terms.term_months
    monthly_approved = float(approval_monthly(scorecard, e))
    amount = monthly_approved * months if months else monthly_approved
    rows.append(
        (
            "Approval requested",
            f"{format_money(amount, currency, cents=True)} ({currency}), "
            + (
                f"{months} months reserved"
                if months
                else "per month, on demand (no reservation term)"
            )
            + (
                ", the reserved base plus the on-demand burst expected over the traffic profile"
                if e.bursts
                else ""
            ),
        )
    )
    rows.append(("Not verified", not_verified_row(scorecard, chosen)))
    note = ""
    if chosen is not first:
        note = (
            f"The model ranks {_name(first)} first. The officer recommends {_name(chosen)} "
            "instead, "
            f"because: {override.justification.strip()}"
        )
    return rows, note


def service_rows(scorecard: ServingScorecard) -> list[tuple[str, str]]:
    w = scorecard.evaluation.workload
    return [
        ("Service", w.name),
        (
            "Model",
            f"{w.total_params_billions:g}B parameters, {w.precision.upper()} weights "
            f"({w.weight_bytes / 1e9:,.0f} GB)",
        ),
        ("Request", f"{w.prompt_tokens:,} prompt + {w.output_tokens:,} output tokens"),
        (
            "Latency targets",
            f"first token within {w.ttft_target_ms:g} ms for {w.ttft_percentile:g}% of requests at "
            f"peak; {w.tpot_target_ms:g} ms per output token",
        ),
        (
            "Traffic",
            f"{w.peak_requests_per_s:g} requests/s at peak, {w.average_requests_per_s:g} on average"
            + (f"; {profile_words(w)}" if profile_words(w) else "")
            + (f"; {growth_words(w)}" if growth_words(w) else ""),
        ),
        ("Billing basis", billing_basis(w)),
    ]


def _bill_heads(scorecard: ServingScorecard) -> tuple[str, str]:
    """The bill's and its GPUs' headings: a growing service's mean month beside GPUs reserved."""
    gpus, bill = bill_headings(any(grows(s.estimate) for s in scorecard.ranked))
    return bill[0].upper() + bill[1:], gpus


def comparison_rows(scorecard: ServingScorecard) -> list[tuple[str, ...]]:
    currency = scorecard.evaluation.currency
    rows = [
        (
            "#",
            "Bid / provider",
            "GPU",
            "Price per GPU-h",
            "Per M output tokens",
            *_bill_heads(scorecard),
            "Gates and flags",
        )
    ]
    names = bid_names(scorecard.scores)  # a provider's second bid by its GPU model, then its order
    for score in scorecard.scores:
        e = score.estimate
        findings = [f"CANNOT SERVE: {g.message}" for g in e.gates] + [
            f"Flag: {w.message}" for w in e.warnings
        ]
        serves = e.passes_gates
        rows.append(
            (
                "-" if score.rank is None else str(score.rank),
                names[
                    e.bid.id
                ],  # the provider; with the GPU model beside it, as the table shows it
                e.bid.capacity.gpu_model,
                format_money(e.price_per_gpu_hour, currency, cents=True),
                format_money(e.cost_per_million_tokens, currency, cents=True)
                + (
                    f"\n{band_cell(scorecard, e.bid.id)}"
                    if serves and band_cell(scorecard, e.bid.id)
                    else ""
                )
                if serves
                else "-",
                format_money(e.monthly_cost, currency) if serves else "-",
                gpus_beside_bill(e) if serves else "-",
                "\n".join(findings) or "serves within the targets",
            )
        )
    return rows


def _throughput_trust(e, assumed_hbm_efficiency: float) -> str:
    """How far the decode throughput the bid was costed with can be trusted, in words, and what
    it made of the bid's engine when it was used."""
    ev = e.throughput_evidence
    if ev is not None:
        factor = e.hbm_efficiency / assumed_hbm_efficiency
        used = (
            f" Costed at that figure, the engine runs at {factor:.2f}x the assumed efficiencies "
            f"(HBM {e.hbm_efficiency:.0%}, compute {e.compute_efficiency:.0%})."
        )
        return _evidence_trust(ev) + used
    return (
        f"decode throughput is modelled from the {e.bid.capacity.gpu_model} spec sheet: HBM "
        "bandwidth "
        f"({e.hbm_bandwidth_tb_s:g} TB/s at the assumed {e.hbm_efficiency:.0%} efficiency) and "
        "compute peak "
        f"(at the assumed {e.compute_efficiency:.0%}); ask for measured output tokens per second "
        "at the "
        "proposed batch and latency."
    )


def _evidence_trust(ev) -> str:
    what = (
        f"the decode throughput of {ev.value:,g} {ev.unit} on {ev.scale_gpus:,} "
        f"GPU{'' if ev.scale_gpus == 1 else 's'}"
    )
    when = ev.measured_on.isoformat() if ev.measured_on else "undated"
    log = (
        f"raw log {ev.artefact_name or 'attached'} (SHA-256 {ev.artefact_sha256[:12]}...)"
        if ev.artefact_sha256
        else "no raw log attached"
    )
    if ev.grade is EvidenceGrade.PROVIDER_CLAIM:
        return (
            f"{what} is the provider's claim only ({when}, {log}); ask for the benchmark's log and "
            "settings."
        )
    if ev.grade is EvidenceGrade.MEASURED_PROVIDER:
        return f"{what} was measured by the provider, not independently ({when}, {log})."
    return (
        f"{what} was measured independently ({ev.measured_by.replace('_', ' ')}, {when}, {log}); "
        "nothing to ask."
    )


def unverified(scorecard: ServingScorecard, recommended: str | None = None) -> list[str]:
    """Every bid, the recommended one first (the override's, if any), then by rank, excluded bids
    last: how its throughput, the figure the cost per token rests on, was established."""
    order = sorted(
        scorecard.scores, key=lambda s: (s.bid.id != recommended, s.rank is None, s.rank or 0)
    )
    assumed = scorecard.evaluation.workload.hbm_efficiency
    labels = bid_labels(scorecard.scores)  # copies of one offer told apart by their order, in words
    return [
        f"{labels[score.bid.id]}: {_throughput_trust(score.estimate, assumed)}" for score in order
    ]


def serving_story(
    scorecard: ServingScorecard,
    head: ServingMemoHead,
    notes: str,
    override: RecommendationOverride | None,
    sink: SignatureBoxes,
) -> list[Flowable]:
    rows, note = decision_rows(scorecard, override)
    story = title_block(head) + [para("1. Decision", "h1"), key_values(rows)]
    if note:
        story += [Spacer(1, 2 * mm), para("Recommendation override. " + note, "warn")]
    if notes:
        story += [Spacer(1, 2 * mm), para("Officer's notes: " + notes)]
    inner = W - 16  # the callout box's padding
    service = Table(
        [[para(k, "key"), para(v, "value")] for k, v in service_rows(scorecard)],
        colWidths=[0.25 * inner, 0.75 * inner],
    )
    service.setStyle(TableStyle(styles.key_value_table_style()))
    box = Table([[[para("2. The service behind every figure", "h2"), service]]], colWidths=[W])
    box.setStyle(TableStyle(styles.callout_box_style()))
    # The heading moves with the table's first rows, never alone at a page's foot (issue 34).
    story += [
        Spacer(1, 3 * mm),
        box,
        Spacer(1, 3 * mm),
        CondPageBreak(30 * mm),
        para("3. Ranked comparison", "h1"),
        para(
            "Ranked by the weighted score; cost per million output tokens dominates. A bid that "
            "cannot meet "
            "the latency targets at peak traffic is not costed.",
            "small",
        ),
        grid(comparison_rows(scorecard), [0.04, 0.16, 0.11, 0.08, 0.09, 0.1, 0.06, 0.36]),
        *price_reasonableness(
            price_reasonableness_rows(
                [
                    (s.bid.quote.provider, s.bid.capacity.gpu_model, s.estimate.price_per_gpu_hour)
                    for s in scorecard.scores
                ],
                scorecard.evaluation.currency,
            )
        ),
    ]
    checks = unverified(scorecard, override.bid_id if override else None)
    bullets = [para(text, "bullet") for text in checks]
    for bullet in bullets:
        bullet.bulletText = "•"
    story += frontier_section(
        scorecard, 4
    )  # issue 37: the frontier, as View > Serving Frontier shows it
    story += [
        Spacer(1, 4 * mm),
        para(f"{5 if scorecard.ranked else 4}. What was not verified", "h1"),
    ]
    story += bullets
    return story + sign_off(head, sink) + methodology_appendix(head)


def render_serving_memo(
    scorecard: ServingScorecard,
    inputs: MemoInputs,
    approvers: tuple[Approver, ...],
    notes: str,
    override: RecommendationOverride | None,
    decision_date: str = "",
) -> tuple[bytes, SignatureBoxes, dt.date]:
    """The story PDF (before attachments and fields), where its signature boxes are, and its date."""
    head = ServingMemoHead(
        title=scorecard.evaluation.title,
        memo_number=memo_number(inputs.sha256),
        inputs_sha256=inputs.sha256,
        as_of=inputs_date(scorecard),
        software_version=str(inputs.data.get("software_version") or __version__),
        model_version=SERVING_MODEL_VERSION,
        approvers=approvers,
        methodology=methodology_for(
            resource_path("methodology.md").read_text(encoding="utf-8"), serving=True
        ),
        audit_anchor=anchor_words(inputs.data.get("audit_anchor")),
    )
    sink = SignatureBoxes()
    buffer = io.BytesIO()
    header = PageHeader(head.title, head.memo_number, CONFIDENTIALITY, head.as_of)
    head = dataclasses.replace(
        head, decision_date=decision_date, approval_terms=approval_terms(inputs.data, inputs.sha256)
    )
    memo_document(buffer, header).build(
        serving_story(scorecard, head, notes, override, sink), canvasmaker=numbered_canvas(header)
    )
    return buffer.getvalue(), sink, head.as_of
