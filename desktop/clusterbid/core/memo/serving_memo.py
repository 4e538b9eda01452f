"""The approval memo of a serving (inference) evaluation.

Same document as the training memo where the two agree (title block, attached inputs and their
SHA-256, methodology, signature fields, deterministic bytes), its own sections where they differ:
the decision is a cost per million output tokens and a monthly bill, the assumptions box holds
the service's latency targets and traffic, and the workload-fit flags (a training-grade fabric
the service will not use) get their own section, and the frontier (issue 37) its own chart.
This module lays the pages out; section 1's rows are serving_decision.py, the other tables'
serving_tables.py (their row functions are re-exported here, where the tests reach them).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer, Table, TableStyle

from clusterbid import __version__
from clusterbid.core.costmodel import SERVING_MODEL_VERSION
from clusterbid.core.memo import styles
from clusterbid.core.memo.approval_statement import approval_terms
from clusterbid.core.memo.content import CONFIDENTIALITY, anchor_words, inputs_date, memo_number
from clusterbid.core.memo.decision_checks import price_reasonableness_rows
from clusterbid.core.memo.flowables import W, grid, key_values, para
from clusterbid.core.memo.inputs import Approver, MemoInputs, RecommendationOverride
from clusterbid.core.memo.layout import PageHeader, SignatureBoxes, memo_document, numbered_canvas
from clusterbid.core.memo.methodology import methodology_for
from clusterbid.core.memo.serving_decision import decision_rows as decision_rows
from clusterbid.core.memo.serving_frontier_section import frontier_section
from clusterbid.core.memo.serving_page_one import FRONTIER_SECTION, unverified_section
from clusterbid.core.memo.serving_tables import comparison_rows as comparison_rows
from clusterbid.core.memo.serving_tables import service_rows as service_rows
from clusterbid.core.memo.serving_tables import unverified as unverified
from clusterbid.core.memo.story import (
    methodology_appendix,
    price_reasonableness,
    sign_off,
    title_block,
)
from clusterbid.core.serving_scoring import ServingScorecard
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
        grid(comparison_rows(scorecard), [0.04, 0.15, 0.10, 0.08, 0.17, 0.10, 0.06, 0.30]),
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
    # Issue 37: the frontier, as View > Serving Frontier shows it.
    story += frontier_section(scorecard, FRONTIER_SECTION)
    # The heading keeps its first bullet with it (a tester saw it alone at a page's foot).
    heading = para(f"{unverified_section(scorecard)}. What was not verified", "h1")
    story += [Spacer(1, 4 * mm), KeepTogether([heading, *bullets[:1]]), *bullets[1:]]
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
