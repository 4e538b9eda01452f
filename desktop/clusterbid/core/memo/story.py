"""The memo's story: its sections in order, as flowables, from a MemoContent. Page 1 and the
assumptions box, the sign-off and the appendix are here; the ranking (ranked_sections.py), the
bids' pages (bid_sections.py) and what was taken on trust (trust_sections.py) in their own."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer, Table, TableStyle

from clusterbid.core.memo import styles
from clusterbid.core.memo.bid_sections import bid_section, excluded_section
from clusterbid.core.memo.charts_section import charts_section
from clusterbid.core.memo.commitment_chart import commitment_chart
from clusterbid.core.memo.content import MemoContent
from clusterbid.core.memo.flowables import TABLE_START, W, para
from clusterbid.core.memo.layout import SignatureBox, SignatureBoxes
from clusterbid.core.memo.methodology import methodology_flowables
from clusterbid.core.memo.page_one_story import decision_summary, title_block
from clusterbid.core.memo.panel_page import panel_section
from clusterbid.core.memo.ranked_sections import comparison_table, price_reasonableness
from clusterbid.core.memo.trust_sections import (
    evidence_requests_section,
    not_verified_section,
    sensitivity_section,
)

# Names the serving memo and others import from here.
__all__ = [
    "TABLE_START",
    "build_story",
    "methodology_appendix",
    "price_reasonableness",
    "sign_off",
    "title_block",
]


def officers_notes(c: MemoContent) -> list[Flowable]:
    """After the assumptions box, so that notes never push the box off page 1 (seed 001's check)."""
    return [Spacer(1, 3 * mm), para("Officer's notes: " + c.notes)] if c.notes else []


def assumptions_box(c: MemoContent) -> list[Flowable]:
    """The seeds' decision check: job size and network assumptions must be visible on page 1."""
    inner = W - 16
    # The two entries that wrap to two lines share the first row and the short names take the narrow
    # key column, so the box is a line shorter and stays on page 1 under an override.
    order = [
        "Job",
        "Baseline MFU",
        "Planned job size",
        "Parallelism",
        "Total training compute",
        "Precision",
    ]
    rows = sorted(
        c.job_rows, key=lambda row: order.index(row[0]) if row[0] in order else len(order)
    )
    pairs = rows + [("", "")] * (len(rows) % 2)
    # Table type, as the bandwidth list under it: the box stays on page 1 under the decision.
    job_cells = [
        [
            para(pairs[i][0], "cell_bold"),
            para(pairs[i][1], "cell"),
            para(pairs[i + 1][0], "cell_bold"),
            para(pairs[i + 1][1], "cell"),
        ]
        for i in range(0, len(pairs), 2)
    ]
    job = Table(job_cells, colWidths=[w * inner for w in (0.22, 0.34, 0.13, 0.31)])
    job.setStyle(
        TableStyle(
            styles.key_value_table_style()
            + [("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
        )
    )
    # One table whose rows are the box's parts, one bid per row: it splits between bids across
    # pages (a box drawn as one cell holding the list cannot split, and failed at 40 bids).
    opening = [
        para("2. Planned job and network assumptions behind every figure", "h2"),
        job,
        Spacer(1, 2 * mm),
        para(
            "Scale-out bus bandwidth (nccl-tests all_reduce busbw) each bid was scored with:", "key"
        ),
    ]
    busbw = [
        [para(x, "head" if i == 0 else "cell") for x in row] for i, row in enumerate(c.busbw_rows)
    ]
    # An empty column each side keeps the list inside the box's margin, as the job table is.
    edge = styles.CALLOUT_PADDING
    empty: list[
        Flowable
    ] = []  # a cell of no flowables has no height (an empty string has a line's)
    box = Table(
        [[opening, *[empty] * 4], *([empty, *row, empty] for row in busbw), [empty] * 5],
        colWidths=[edge, *(w * inner for w in (0.31, 0.16, 0.53)), edge],
        repeatRows=(1,),
    )  # the list's header again on each page it runs on
    box.setStyle(TableStyle(styles.callout_list_style(len(busbw))))
    return [Spacer(1, 3 * mm), box]


def methodology_appendix(c: MemoContent) -> list[Flowable]:
    # The appendix follows on the same page when a third of it is left: no half-empty page before it.
    return [
        CondPageBreak(60 * mm),
        para("Appendix: methodology", "h1"),
        para(
            f"ClusterBid {c.software_version}, cost model {c.model_version}. How each section of "
            "the app's "
            "help (same text, same numbers) that bears on this kind of memo begins; the formulas, "
            "tables, "
            "checks and the reviewers' sections (step time, evidence, value of information, "
            "provenance) "
            "are in the full text attached to this PDF.",
            "small",
        ),
        *methodology_flowables(c.methodology),
    ]


def sign_off(c: MemoContent, sink: SignatureBoxes) -> list[Flowable]:
    # Under the last section when the whole sign-off fits there, else on the next page: the
    # approvers' fields are never split from each other or from the text saying what they cover.
    out = [
        para("Sign-off", "h1"),
        para(
            "Each approver signs the field below with their own certificate, in the order listed. "
            "A signature "
            f"covers memo {c.memo_number} as it stood when signed; later signatures are added as "
            "incremental "
            "updates so earlier ones stay valid. Approver 1's signature certifies the memo (only "
            "form filling "
            "and signing allowed after it), each signature locks every field but the later "
            "approvers' "
            "signature fields, and the last one locks the memo. No timestamp server is used: the "
            "signing time "
            "comes from the signer's clock."
        ),
        *approval_terms_line(getattr(c, "approval_terms", "")),
        Spacer(1, 3 * mm),
    ]
    if not c.approvers:
        out.append(para("No approvers were named when this memo was exported.", "warn"))
    for number, approver in enumerate(c.approvers, start=1):
        role = approver.role + (f" ({approver.email})" if approver.email else "")
        out += [
            para(f"Approver {number}: {approver.name}", "h2"),
            para(role),
            Spacer(1, 1 * mm),
            SignatureBox(f"approver-{number}", 95 * mm, 24 * mm, sink),
            Spacer(1, 5 * mm),
        ]
    # One flat KeepTogether: reportlab sizes a KeepTogether nested in another as 16,777,215 points
    # tall, so a nested one never fits below anything and always starts a new page.
    return [KeepTogether(out)]


def approval_terms_line(terms: str) -> list[Flowable]:
    """What each signature states it approves (its reason and a signed attribute), so that a PDF
    reader's signature panel and this page say the same."""
    if not terms:
        return []
    return [
        Spacer(1, 2 * mm),
        para(
            f"Each signature states, in its reason and in a signed attribute: "
            f'"Approver N approves {terms}".',
            "small",
        ),
    ]


def build_story(
    c: MemoContent, chart_images: list[Flowable] | None, sink: SignatureBoxes
) -> list[Flowable]:
    story = (
        title_block(c)
        + decision_summary(c)
        + assumptions_box(c)
        + officers_notes(c)
        + comparison_table(c)
    )
    story += charts_section(chart_images, len(c.bid_pages))
    for page in c.bid_pages:
        if page.status != "Excluded":
            story += bid_section(page)
    story += excluded_section([page for page in c.bid_pages if page.status == "Excluded"])
    # What would change the decision, then what is at stake if the plan behind it fails.
    story += sensitivity_section(c) + commitment_chart(c.commitment_rows, c.summary.currency)
    story += not_verified_section(c) + evidence_requests_section(c) + panel_section(c.panel)
    # The signatures close the decision, as in a source-selection decision document; the
    # methodology is reference text after them.
    story += sign_off(c, sink) + methodology_appendix(c)
    return story
