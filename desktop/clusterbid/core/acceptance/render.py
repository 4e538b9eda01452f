"""The acceptance plan as the contract's annex: Markdown and JSON (text, diffable) and a plain PDF."""

from __future__ import annotations

import io
import json

from clusterbid.core.acceptance.model import AcceptancePlan, AcceptanceTest


def plan_json(plan: AcceptancePlan) -> str:
    return json.dumps(plan.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def threshold_words(test: AcceptanceTest) -> str:
    if test.threshold is None:
        return test.threshold_basis
    figure = f"{test.threshold:,.4g}" if test.threshold < 1000 else f"{test.threshold:,.0f}"
    return f"{test.comparison} {figure} {test.unit}".strip()


def _test_lines(test: AcceptanceTest) -> list[str]:
    lines = [
        f"## {test.test_id}: {test.title}",
        "",
        f"- Claim relied on: {test.claim}; figure scored: {test.scored_source}",
        f"- Pass: {threshold_words(test)}",
    ]
    if test.threshold is not None:
        lines.append(f"- Where the threshold comes from: {test.threshold_basis}")
    if test.soak_hours is not None:
        lines.append(f"- Soak length: {test.soak_hours:g} hours")
    lines.append(f"- Remedy on failure: {test.remedy}")
    if test.reads:
        lines.append(
            f"- Return as: files whose names begin with {test.test_id} ({', '.join(test.reads)})"
        )
    lines.append("")
    for run in test.runs:
        lines += [
            f"{run.name}, return as `{run.return_as}`:",
            "",
            "```",
            run.command_line(),
            "```",
            "",
        ]
    lines += [f"- {step}" for step in test.steps]
    return [*lines, ""] if test.steps else lines


def plan_markdown(plan: AcceptancePlan) -> str:
    lines = [
        f"# Acceptance plan: {plan.provider}",
        "",
        f"Annex to the contract for bid {plan.bid_id} of the evaluation '{plan.evaluation}', "
        f"issued {plan.issued_on.isoformat()}.",
        "",
    ]
    lines += [f"- {note}" for note in plan.notes]
    lines.append("")
    for test in plan.tests:
        lines += _test_lines(test)
    return "\n".join(lines).rstrip() + "\n"


def plan_pdf(plan: AcceptancePlan) -> bytes:
    """A plain A4 PDF of the same text (reportlab imported here: it is off the start-up path)."""
    from xml.sax.saxutils import escape

    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, Preformatted, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    story = []
    in_code = False
    for raw in plan_markdown(plan).splitlines():
        if raw == "```":
            in_code = not in_code
            continue
        if in_code:
            story.append(Preformatted(raw, styles["Code"], maxLineLength=95))
        elif raw.startswith("# "):
            story.append(Paragraph(escape(raw[2:]), styles["Title"]))
        elif raw.startswith("## "):
            story.append(Paragraph(escape(raw[3:]), styles["Heading2"]))
        elif raw.strip():
            story.append(Paragraph(escape(raw.replace("`", "")), styles["BodyText"]))
        else:
            story.append(Spacer(1, 4))
    out = io.BytesIO()
    SimpleDocTemplate(
        out,
        pagesize=A4,
        title=f"Acceptance plan: {plan.provider}",
        author="ClusterBid",
        invariant=1,
    ).build(story)
    return out.getvalue()
