"""The methodology text (resources/methodology.md, also the app's help) as memo flowables."""

from __future__ import annotations

import re

from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from clusterbid.core.memo import styles

_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _inline(text: str) -> str:
    """The small Markdown subset the methodology uses: `code` and **bold**."""
    text = styles.markup(text)
    text = _CODE.sub(lambda m: f'<font color="#0b5cad">{m.group(1)}</font>', text)
    return _BOLD.sub(lambda m: f"<b>{m.group(1)}</b>", text)


def _column_widths(rows: list[list[str]]) -> list[float]:
    """Widths that fill the text column, each share growing with its longest cell but never
    narrower than its longest word (a character is about 1.1% of the column at the cell's size),
    so a table of any number of columns stays on the page and no word is split."""
    columns = max(len(r) for r in rows)
    cells = [[r[c] for r in rows if c < len(r)] for c in range(columns)]
    longest = [max((len(text) for text in column), default=1) for column in cells]
    word = [max((len(w) for text in column for w in text.split()), default=1) for column in cells]
    shares = [max(n / sum(longest), (w + 2) * 0.011) for n, w in zip(longest, word)]
    return [share / sum(shares) * styles.CONTENT_WIDTH for share in shares]


def _table(lines: list[str]) -> Table:
    s = styles.paragraph_styles()
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    rows = [r for r in rows if not all(set(c) <= set("-: ") for c in r)]
    cells = [[Paragraph(_inline(c), s["head"] if i == 0 else s["cell"]) for c in r] for i, r in enumerate(rows)]
    # A table of a few rows is read whole; a long one may break, repeating its header.
    table = Table(cells, colWidths=_column_widths(rows), repeatRows=1)
    table.setStyle(TableStyle(styles.grid_table_style()))
    return table


# Which top-level sections (by their heading's words) each memo leaves out: a training memo has no
# use for the serving model and a serving memo none for the training job's step time, goodput,
# contract plan, validation of training figures or value of information. The introduction and its
# glossary are in both; the section numbers stay those of the app's help, which the memo cites.
_TRAINING_ONLY = ("Gates", "Step time", "Goodput", "Time and cost to finish", "Evidence", "Ranking",
                  "Uncertainty", "Contract economics", "Validation against published figures",
                  "Value of information")
_SERVING_ONLY = ("Serving",)
# Sections whose tables are reference for the model's reviewers, not for the approvers: the memo
# prints their words (what was tested and how far off it is) and points to the table.
_WORDS_ONLY = ("Validation against published figures", "Validation against public serving benchmarks")
ATTACHMENT_NAME = "clusterbid-methodology.md"
_TABLE_ELSEWHERE = f"(The table is in the full text, attached to this PDF as {ATTACHMENT_NAME}.)"
# Sections the model's reviewers read and the approvers need not: the memo prints their heading
# and a pointer; the whole text travels with the memo as an attachment, so nothing is lost.
_REFERENCE_ONLY = ("Step time", "Evidence", "Value of information", "Where each figure came from")
_IN_THE_ATTACHMENT = f"(In the full text, attached to this PDF as {ATTACHMENT_NAME}, and in the app's Help.)"


def methodology_for(markdown: str, serving: bool) -> str:
    """The methodology text with the other kind of memo's sections removed, and the tables of
    reference-only sections replaced by a pointer to them."""
    leave_out = _TRAINING_ONLY if serving else _SERVING_ONLY
    kept: list[str] = []
    skipping = words_only = reference = False
    for line in markdown.splitlines():
        if line.startswith("## "):
            title = re.sub(r"^##\s+[0-9.]*\s*", "", line)
            skipping, words_only = title.startswith(leave_out), title.startswith(_WORDS_ONLY)
            reference = not skipping and title.startswith(_REFERENCE_ONLY)
            if reference:
                kept += [line, "", _IN_THE_ATTACHMENT, ""]
        elif line.startswith("### "):  # a subsection of a kept section can be words-only too
            words_only = line[4:].strip().startswith(_WORDS_ONLY)
        if skipping or reference:
            continue
        if words_only and line.lstrip().startswith("|"):
            if kept[-1] != _TABLE_ELSEWHERE:
                kept.append(_TABLE_ELSEWHERE)
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def methodology_flowables(markdown: str) -> list[Flowable]:
    """Headings, paragraphs, bullets and pipe tables; anything else is kept as a paragraph.
    Set in the appendix's smaller type: it is reference text, not the decision."""
    s = styles.appendix_styles()
    out: list[Flowable] = []
    block: list[str] = []
    kind = "para"

    def flush():
        nonlocal block
        if block:
            if kind == "table":
                out.append(_table(block))
            else:
                text = _inline(" ".join(line.strip() for line in block))
                out.append(Paragraph(text, s["bullet"], bulletText="•") if kind == "bullet" else Paragraph(text, s["body"]))
        block = []

    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("#"):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            out.append(Paragraph(_inline(stripped.lstrip("#").strip()), s["h1"] if level == 1 else s["h2"]))
        elif stripped.startswith("|"):
            if kind != "table":
                flush()
            kind = "table"
            block.append(stripped)
        elif stripped.startswith("- "):
            flush()
            kind = "bullet"
            block.append(stripped[2:])
        else:
            if kind == "table" or (kind == "bullet" and not line.startswith("  ")):
                flush()
                kind = "para"
            block.append(stripped)
            if kind not in ("bullet", "para"):
                kind = "para"
    flush()
    return out
