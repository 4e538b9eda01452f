"""The acceptance plan as the contract's annex: Markdown and JSON (text, diffable) and a plain PDF."""

from __future__ import annotations

import io
import json

from clusterbid.core.acceptance.model import AcceptancePlan, AcceptanceTest
from clusterbid.core.evidence.formats import format_spec


def plan_json(plan: AcceptancePlan) -> str:
    return json.dumps(plan.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


# Units that follow the count (a plan keeps one form): "1 tests failed" read wrong.
COUNTED_UNITS = (
    ("test failed or warned", "tests failed or warned"),
    ("failure in the soak", "failures in the soak"),
)
# Formats the node-log readers take, in words (the evidence formats have theirs in formats.py).
NODE_LOG_WORDS = {
    "dcgm-diag": "what dcgmi diag prints, its table or its JSON (-j)",
    "soak-log": "the soak log (evidence-formats.md)",
}
FILES_LISTED = 3  # a test returned as one file per node (72 DCGM files) lists a few, then counts


def amount_words(value: float, unit: str, digits: int = 4) -> str:
    """A figure with its unit in the number the figure needs (a threshold to 4 digits, as the
    annex prints it; a measured figure to 6, as read)."""
    for one, many in COUNTED_UNITS:
        if unit in (one, many):
            unit = one if value == 1 else many
    figure = f"{value:,.{digits}g}" if abs(value) < 10 ** (digits - 1) else f"{value:,.0f}"
    return f"{figure} {unit}".strip()


def threshold_words(test: AcceptanceTest) -> str:
    if test.threshold is None:
        return test.threshold_basis
    return f"{test.comparison} {amount_words(test.threshold, test.unit)}"


def pass_words(test: AcceptanceTest) -> str:
    """'pass at most 4 hours', or for a test judged by a condition, 'pass: the certificate...'."""
    return ("pass " if test.threshold is not None else "pass: ") + threshold_words(test)


def measured_words(test: AcceptanceTest, measured: float | None) -> str:
    return "" if measured is None else f", measured {amount_words(measured, test.unit, 6)}"


def returned_words(files: tuple[str, ...]) -> list[str]:
    """The files a test was judged from: all of a few, the first ones and a count of many."""
    if len(files) <= FILES_LISTED + 1:
        return [f"returned: {name}" for name in files]
    rest = len(files) - FILES_LISTED
    return [f"returned: {name}" for name in files[:FILES_LISTED]] + [
        f"returned: {rest} more, to {files[-1]}"
    ]


def _format_words(name: str) -> str:
    return NODE_LOG_WORDS.get(name) or format_spec(name).words


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
            f"- Return as: files whose names begin with {test.test_id} "
            f"({', '.join(_format_words(name) for name in test.reads)})"
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
