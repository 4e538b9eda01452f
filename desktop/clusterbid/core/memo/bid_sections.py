"""The memo's page for each ranked bid (half a page each) and the one table of the bids a gate
excluded."""

from __future__ import annotations

from collections.abc import Iterable

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer, TableStyle

from clusterbid.core.memo import styles
from clusterbid.core.memo.bid_pages import BidPage
from clusterbid.core.memo.flowables import (
    TABLE_START,
    MeasuredOnce,
    W,
    grid,
    keep_together_if_it_fits,
    para,
)


def _compact_key_values(
    rows: Iterable[tuple[str, ...]], width: float, key_share: float = 0.3
) -> MeasuredOnce:
    """A key-value table in table-cell type, for the two columns of a bid's page."""
    table = MeasuredOnce(
        [[para(k, "fine_bold"), para(v, "fine")] for k, v in rows],
        colWidths=[key_share * width, (1 - key_share) * width],
    )
    table.setStyle(
        TableStyle(
            styles.key_value_table_style()
            + [("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]
        )
    )
    return table


def bid_section(page: BidPage) -> list[Flowable]:
    """Offer and fabric on the left, cost and block on the right, evidence and risks under both:
    a ranked bid takes about half a page, so two bids share a page instead of six taking six."""
    column = (W - 6 * mm) / 2
    offer = [
        row for row in page.offer_rows if row[0] != "Provider"
    ]  # the provider is in the heading
    left = [
        para("Offer", "h3"),
        _compact_key_values(offer, column, 0.24),
        para("Fabric and topology", "h3"),
        _compact_key_values(page.fabric_rows, column, 0.24),
        Spacer(1, 1 * mm),
        para(page.block_vs_job, "fine" if page.block_fits else "warn"),
    ]
    # "Nothing flagged" would read as "no risk" for a bid whose every figure is taken on trust.
    none = "No gate failed and no flag was raised" + (
        "."
        if len(page.evidence_rows) > 1
        else "; the risk is that nothing above was measured (see What was not verified)."
    )
    risks = [para(r, "fine_bullet") for r in page.risks] or [para(none, "fine")]
    for paragraph in risks:
        paragraph.bulletText = "•"
    has_evidence = len(page.evidence_rows) > 1
    right = [para("Cost breakdown", "h3"), _compact_key_values(page.cost_rows, column, 0.3)]
    if not has_evidence:
        right.append(
            para(
                "<b>Evidence:</b> none on file. Every figure for this bid comes from the spec "
                "sheet and the "
                "provider's statements.",
                "fine_warn",
                escaped=True,
            )
        )
    right += [para("Risks", "h3"), *risks]
    columns = MeasuredOnce([[left, right]], colWidths=[column + 3 * mm, column + 3 * mm])
    columns.setStyle(
        TableStyle(
            [
                styles.CELL_FONT,
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3 * mm),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    status = (
        page.status.lower()
        if page.status != "Excluded"
        else '<font color="#9a3412">EXCLUDED</font>'
    )
    head = [
        Paragraph(
            f"{styles.markup(page.provider)} ({status})", styles.paragraph_styles()["bid_head"]
        ),
        columns,
    ]
    # The heading and both columns move as one block of about half a page; measured evidence,
    # a six-column table, runs full width under it.
    evidence: list[Flowable] = []
    if has_evidence:
        evidence = keep_together_if_it_fits(
            [para("Evidence", "h2"), grid(page.evidence_rows, [0.13, 0.1, 0.09, 0.15, 0.14, 0.39])],
            room=TABLE_START,
        )
    return [CondPageBreak(60 * mm), KeepTogether(head), *evidence]


def excluded_section(pages: list[BidPage]) -> list[Flowable]:
    """Bids a gate excluded: one row each (what was offered, why it cannot run the job). A bid that
    cannot run the job has no cost to break down, so half a page each told the reader nothing more."""
    if not pages:
        return []
    rows = [("Bid", "Offered", "Why it cannot run the planned job")]
    for page in pages:
        offer = {key: value for key, value in page.offer_rows}  # two cells a row
        offered = "; ".join(offer[k] for k in ("Capacity", "Price") if k in offer)
        reasons = [
            r.removeprefix("Gate failed: ") for r in page.risks if r.startswith("Gate failed: ")
        ]
        rows.append((page.provider, offered, " ".join(reasons)))
    return [
        CondPageBreak(40 * mm),
        *keep_together_if_it_fits(
            [para("Bids excluded by a gate", "bid_head"), grid(rows, [0.22, 0.33, 0.45])],
            room=TABLE_START,
        ),
    ]
