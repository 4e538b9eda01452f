"""Page 1's flowables: the title block and the decision (issue 34: the decision, its rivals, the
trade-off and the job box share page 1, so the fact sheet is set in table type)."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from clusterbid.core.memo import styles
from clusterbid.core.memo.content import MemoContent
from clusterbid.core.memo.flowables import W, para


def title_block(c: MemoContent) -> list[Flowable]:
    return [
        para(f"Approval memo: {c.title}", "title"),
        para(
            f"Memo {c.memo_number}. Decision date {c.decision_date or 'not given'}. Figures as of "
            f"{c.as_of.isoformat()} (the latest quote or measurement date in the inputs). "
            f"ClusterBid {c.software_version}, cost model {c.model_version}.",
            "subtitle",
        ),
        para(f"Inputs SHA-256: {c.inputs_sha256}", "sha"),
        para(
            "The scored inputs (evaluation, catalog, model version, seed) are attached as "
            "clusterbid-inputs.json, "
            "the file hashed above; `clusterbid verify` re-scores them.",
            "small",
        ),
        *anchor_line(c.audit_anchor),
        Spacer(1, 2 * mm),
    ]


def anchor_line(anchor: str) -> list[Flowable]:
    """Where the evaluation document's history stood when this memo was made (empty from JSON)."""
    if not anchor:
        return []
    return [
        para(
            f"Made from the evaluation document at its {anchor}; `clusterbid verify --evaluation` "
            "checks that the document's history still holds this row.",
            "small",
        )
    ]


def decision_summary(c: MemoContent) -> list[Flowable]:
    s = c.summary
    rows = [
        ("Recommended bid", s.recommended),
        (
            "Net cost of the plan",
            f"{s.basis or s.cost} ({s.cost_band}); {s.plan}. Chance it is cheapest: "
            f"{s.win_probability}",
        ),
        ("Commitment at risk", s.at_risk),
        *([("Contract currency", s.contract_money)] if s.contract_money else []),
        ("Rivals", s.runner_up + (f". Margin: {s.margin}" if s.margin != "-" else "")),
        (
            "Time to finish",
            f"{s.hours} ({s.hours_band}). Schedule fit: "
            + (s.schedule if s.schedule_ok else "FLAG: " + s.schedule),
        ),
        *([("Not verified", c.not_verified_line)] if c.not_verified_line else []),
    ]
    out = [para("1. Decision", "h1"), para(s.approval, "decision"), _tight_key_values(rows)]
    # A lapsed quote is a flag (the recommended bid's in red); a quote still open says until when.
    for text, winners in c.expired:
        out.append(para(text, "cell_warn" if winners else "cell"))
    if s.tradeoff:
        out.append(para("Trade-off: what the premium over cheaper passing bids buys", "h3"))
        out += [
            para(text, "cell_warn" if text.endswith("NOT GIVEN") else "cell") for text in s.tradeoff
        ]
    if s.override_note:
        out += [Spacer(1, 1 * mm), para("Recommendation override. " + s.override_note, "cell_warn")]
    return out


def _tight_key_values(rows) -> Table:
    """Page 1's fact sheet in table type: the decision, its rivals and the job box share one page."""
    table = Table(
        [[para(k, "cell_bold"), para(v, "cell")] for k, v in rows], colWidths=[0.2 * W, 0.8 * W]
    )
    table.setStyle(
        TableStyle(
            styles.key_value_table_style()
            + [("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
        )
    )
    return table
