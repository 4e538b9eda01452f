"""Sections 5 and 6 of the memo: what would change the decision, what was taken on trust (bid by
bid), and the evidence worth asking for."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer, Table, TableStyle

from clusterbid.core.memo import styles
from clusterbid.core.memo.content import MemoContent
from clusterbid.core.memo.flowables import TABLE_START, W, grid, para


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
