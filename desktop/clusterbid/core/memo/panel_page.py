"""The memo's panel page: who evaluated, how far they agreed, the disputed items and how each was
settled, and dissent by name, so the approvers see the decision did not rest on one person's
weights. Printed only when the document has a panel; its words are core/panel/summary.py's,
kept in the memo's inputs so that verify's re-render prints them as they were."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer

from clusterbid.core.memo.flowables import grid, para

SECTION_START = 60 * mm  # the heading, the evaluators and the start of the table on one page


def _bullets(texts: list[str]) -> list[Flowable]:
    items = [para(text, "bullet") for text in texts]
    for paragraph in items:
        paragraph.bulletText = "•"
    return items


def panel_section(panel: dict[str, Any] | None) -> list[Flowable]:
    """Unnumbered, before the signatures; nothing at all without a panel."""
    if not panel:
        return []
    story: list[Flowable] = [
        Spacer(1, 4 * mm),
        CondPageBreak(SECTION_START),
        para("Evaluation panel", "h1"),
        para(
            "Each evaluator scored and weighted the bids on their own copy of this "
            "evaluation; the copies were merged into this document's audit trail."
        ),
    ]
    story += [
        para("Who evaluated", "h2"),
        *_bullets(panel["evaluators"] or ["No evaluator's copy merged yet."]),
    ]
    story += [para("Agreement", "h2"), *_bullets(panel["agreement"])]
    story += [para("Disputed items and how they were settled", "h2"), para(panel["rule"], "small")]
    if panel["disputed"]:
        story += [
            Spacer(1, 1 * mm),
            grid(
                [["Item", "Each evaluator's value", "Spread", "How settled"], *panel["disputed"]],
                [0.22, 0.3, 0.13, 0.35],
            ),
        ]
    else:
        story.append(para("No item was disputed."))
    story += [
        para("Dissent", "h2"),
        *_bullets(panel["dissent"] or ["No evaluator recorded dissent."]),
    ]
    return story
