"""The memo's sections as flowables, one function per section, from a MemoContent."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from clusterbid.core.memo import styles
from clusterbid.core.memo.bid_pages import BidPage
from clusterbid.core.memo.charts_section import charts_section
from clusterbid.core.memo.commitment_chart import commitment_chart
from clusterbid.core.memo.content import MemoContent
from clusterbid.core.memo.flowables import (
    MeasuredOnce,
    W,
    grid,
    keep_together_if_it_fits,
    para,
)
from clusterbid.core.memo.layout import SignatureBox, SignatureBoxes
from clusterbid.core.memo.methodology import methodology_flowables
from clusterbid.core.memo.page_one_story import decision_summary, title_block
from clusterbid.core.memo.panel_page import panel_section
from clusterbid.core.memo.waterfall_table import waterfall_section

# A table taller than a page starts below a heading only with this much of the page left: the
# heading, its header row and a few rows; else it starts on the next page with its heading.
TABLE_START = 45 * mm


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


def comparison_table(c: MemoContent) -> list[Flowable]:
    """The criteria matrix and the ranking, one row per bid: each moves to the next page whole
    when it fits on one, else starts where it is and runs on (its header on every page)."""
    widths = [0.04, 0.19, 0.08, 0.07, 0.07, 0.08, 0.15, 0.065, 0.255]
    heading = para("3. Ranked comparison", "h1")
    opening: list[Flowable] = [heading]
    if len(c.criteria_rows) > 1:
        opening = [
            *keep_together_if_it_fits(
                [
                    heading,
                    para("How the score was reached", "h2"),
                    para(
                        "Each criterion scored from 0 to 1 (1 best; net plan cost: the cheapest "
                        "passing bid's cost / "
                        "this bid's), times the weight in its heading; the sum ranks the bids "
                        "(methodology section 6).",
                        "small",
                    ),
                    Spacer(1, 1 * mm),
                    grid(
                        c.criteria_rows, [0.04, 0.24, 0.1, 0.07, 0.09, 0.1, 0.08, 0.09, 0.09, 0.1]
                    ),
                ],
                room=TABLE_START,
            )
        ]
    ranking = keep_together_if_it_fits(
        [
            para(
                "Ranked by the weighted score; the net cost of the plan dominates (see the "
                "methodology). Excluded "
                "bids fail a gate and are not costed.",
                "small",
            ),
            Spacer(1, 2 * mm),
            grid(c.comparison_rows, widths),
        ],
        room=TABLE_START,
    )
    return [
        CondPageBreak(60 * mm),
        *opening,
        Spacer(1, 3 * mm),
        *ranking,
        *waterfall_section(c.waterfall_rows),
        *price_reasonableness(c.price_rows),
    ]


def price_reasonableness(rows) -> list[Flowable]:
    """Each bid's sticker price against public on-demand list prices kept in the catalog; then the
    reference prices themselves, each once, with publisher, date and source."""
    bids = [rows[0]] + [r for r in rows[1:] if r[0]]
    references = [r for r in rows[1:] if not r[0]]
    if len(bids) < 2:
        return []
    listed = [("GPU", "USD per GPU-h", "Public on-demand list price: who, as of, source")]
    listed += [(gpu, price, text) for _, gpu, price, text in references]
    return [
        *keep_together_if_it_fits(
            [
                para("Price reasonableness", "h2"),
                para(
                    "Each bid's price per GPU-hour against providers' public on-demand list prices "
                    "for the same GPU, kept "
                    "with their source and date in the catalog (reference_prices.toml). A "
                    "committed term is usually below "
                    "on-demand; far below or above is a question for the provider.",
                    "small",
                ),
                Spacer(1, 1 * mm),
                grid(bids, [0.3, 0.14, 0.12, 0.44]),
            ],
            room=TABLE_START,
        ),
        # The references may start the next page: the bids' check is what is read with the ranking.
        Spacer(1, 1 * mm),
        grid(listed, [0.14, 0.12, 0.74]) if len(listed) > 1 else Spacer(1, 0),
    ]


def _compact_key_values(rows, width: float, key_share: float = 0.3) -> Table:
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
        offer = dict(page.offer_rows)
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


def sensitivity_section(c: MemoContent) -> list[Flowable]:
    out = [CondPageBreak(80 * mm), para("5. Sensitivity: what would change the decision", "h1")]
    if c.tipping_rows is None:
        out.append(
            para(
                "Sensitivity: not computed for this memo (no sensitivity analysis was run before "
                "export)."
            )
        )
    else:
        out += [
            para(
                "Tipping points of the scoring weights (raw weights, 0 to 100): how far each can "
                "move before another "
                "bid overtakes the recommended one. The tornado chart in section 4 shows which "
                "inputs move the cost most."
            ),
            grid(c.tipping_rows, [0.22, 0.1, 0.24, 0.22, 0.22]),
        ]
    return out


def _by_bid(items: tuple[str, ...], bids: list[str]) -> list[tuple[str, list[str]]]:
    """Items that start "provider, GPU model: ..." grouped under their bid, in the order given; an item
    naming no bid keeps a row of its own."""
    order = {bid: index for index, bid in reversed(list(enumerate(bids)))}
    groups: list[tuple[str, list[str]]] = []
    for text in items:
        # Looked up at each ": " (a provider's name may hold one), not bid by bid: 500 bids' items
        # against 500 names took a second.
        named = [text[:at] for at in _positions(text, ": ") if text[:at] in order]
        who = min(named, key=order.__getitem__, default="")
        rest = text[len(who) + 2 :] if who else text
        if groups and groups[-1][0] == who and who:
            groups[-1][1].append(rest)
        else:
            groups.append((who, [rest]))
    return groups


def _positions(text: str, part: str) -> list[int]:
    found, at = [], text.find(part)
    while at >= 0:
        found.append(at)
        at = text.find(part, at + 1)
    return found


def not_verified_section(c: MemoContent) -> list[Flowable]:
    """One row per bid with its items as bullets: the bid's name is said once, not on every line."""
    bids = [page.provider for page in c.bid_pages] + ["Workload"]
    rows = [[para("Bid", "head"), para("Taken on trust: ask the provider before signing", "head")]]
    for who, texts in _by_bid(c.unverified, bids):
        bullets = [para(text[:1].upper() + text[1:], "fine_bullet") for text in texts]
        for paragraph in bullets:
            paragraph.bulletText = "•"
        # The workload's inputs are the buyer's own, under every bid's cost.
        rows.append(
            [
                para(
                    "Every bid: the buyer's workload" if who == "Workload" else who or "-",
                    "cell_bold",
                ),
                bullets,
            ]
        )
    table = Table(rows, colWidths=[0.22 * W, 0.78 * W], repeatRows=1)
    table.setStyle(TableStyle(styles.grid_table_style()))
    # Starts under section 5 and runs on (its header on each page): kept whole, a page-long list
    # moved to the next page and left most of the sensitivity page empty (issue 34).
    return [
        Spacer(1, 4 * mm),
        CondPageBreak(TABLE_START),
        para("6. What was not verified", "h1"),
        para(
            "These figures were taken on trust. Each is a question to put to the provider before "
            "signing."
        ),
        *([table] if c.unverified else []),
    ]


def evidence_requests_section(c: MemoContent) -> list[Flowable]:
    """Unnumbered, after section 6: only when there is something worth asking or a request issued."""
    if not c.evidence_requests:
        return []
    items = [para(text, "bullet") for text in c.evidence_requests]
    for paragraph in items:
        paragraph.bulletText = "•"
    return [
        Spacer(1, 4 * mm),
        para("Evidence worth asking for, and requests made", "h1"),
        para("Value of information over the Monte Carlo samples (methodology section 11)."),
        *items,
    ]


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
