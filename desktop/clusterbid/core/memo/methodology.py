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
    cells = [
        [Paragraph(_inline(c), s["head"] if i == 0 else s["cell"]) for c in r]
        for i, r in enumerate(rows)
    ]
    # A table of a few rows is read whole; a long one may break, repeating its header.
    table = Table(cells, colWidths=_column_widths(rows), repeatRows=1)
    table.setStyle(TableStyle(styles.grid_table_style()))
    return table


# Which top-level sections (by their heading's words) each memo leaves out: a training memo has no
# use for the serving model and a serving memo none for the training job's step time, goodput,
# contract plan, validation of training figures or value of information. The introduction and its
# glossary are in both; the section numbers stay those of the app's help, which the memo cites.
_TRAINING_ONLY = (
    "Gates",
    "Step time",
    "Goodput",
    "Time and cost to finish",
    "Evidence",
    "Ranking",
    "Uncertainty",
    "Contract economics",
    "Validation against published figures",
    "Value of information",
)
_SERVING_ONLY = ("Serving",)
# What the approvers sign for, printed whole; every other section prints its opening paragraph (a
# list it introduces cut to each item's first sentence) and a pointer: the whole text travels
# with the memo as an attachment and is the app's Help, so nothing is lost, and the appendix stays
# about two pages where printing it all took five.
_PRINTED_WHOLE = ("What a verified memo proves",)
ATTACHMENT_NAME = "clusterbid-methodology.md"
# Sections the model's reviewers read and the approvers need not: a heading and a pointer.
_REFERENCE_ONLY = (
    "Step time",
    "Evidence",
    "Value of information",
    "Where each figure came from",
    "What the audit trail proves",
    "How verify proves every page",
)
_IN_THE_ATTACHMENT = (
    f"(In the full text, attached to this PDF as {ATTACHMENT_NAME}, and in the app's Help.)"
)
_REST_ATTACHED = (
    f"(Formulas, tables and checks: in the full text, attached to this PDF as {ATTACHMENT_NAME}.)"
)


_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")


def _first_sentence(text: str) -> str:
    """Up to the first full stop that ends a sentence (not the one in 'i.e.' or 'e.g.')."""
    for end in _SENTENCE_END.finditer(text):
        if not text[: end.start()].endswith(("i.e", "e.g")):
            return text[: end.start() + 1]
    return text


def _blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """('para' | 'list' | 'table' | 'heading', texts) per block; a list's texts are its items."""
    blocks: list[tuple[str, list[str]]] = []
    for line in lines:
        stripped = line.strip()
        kind = (
            "heading"
            if stripped.startswith("#")
            else "table"
            if stripped.startswith("|")
            else "list"
            if stripped.startswith("- ")
            else "para"
        )
        if not stripped:
            blocks.append(("", []))  # a blank line closes the block
        elif kind == "list" and (not blocks or blocks[-1][0] in ("list", "")):
            if not blocks or blocks[-1][0] == "":
                blocks.append(("list", []))
            blocks[-1][1].append(stripped[2:])
        elif blocks and blocks[-1][0] in ("para", "list", "table") and kind in ("para", "table"):
            if blocks[-1][0] == "list" and kind == "para":
                blocks[-1][1][-1] += " " + stripped  # an item's continuation line
            elif blocks[-1][0] == kind:
                blocks[-1][1].append(stripped)
            else:
                blocks.append((kind, [stripped]))
        else:
            blocks.append((kind, [stripped]))
    return [b for b in blocks if b[0]]


def _opening(lines: list[str]) -> list[str]:
    """A section's first paragraph (or list), and the list a paragraph ending with ':' introduces,
    each item cut to its first sentence. Subsections and tables are left for the full text."""
    blocks = _blocks(lines)
    if not blocks or blocks[0][0] not in ("para", "list"):
        return []
    kind, texts = blocks[0]
    if kind == "list":
        return [f"- {_first_sentence(item)}" for item in texts]
    paragraph = " ".join(texts)
    if paragraph.endswith(":"):
        if len(blocks) > 1 and blocks[1][0] == "list":
            return [paragraph, *(f"- {_first_sentence(item)}" for item in blocks[1][1])]
        paragraph = paragraph[:-1] + "."  # what it introduced (a table) is in the full text
    return [paragraph]


def _sections(markdown: str) -> list[tuple[str, list[str]]]:
    """(heading line, its lines) per '## ' section; the introduction has an empty heading."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in markdown.splitlines():
        if line.startswith("## "):
            sections.append((line, []))
        else:
            sections[-1][1].append(line)
    return sections


_SERVING_GLOSSARY = "Serving words"
_TRAINING_GLOSSARY = "Words used throughout"


def _own_glossary(lines: list[str], serving: bool) -> list[str]:
    """The introduction with the other kind's glossary (its lead line and table) left out: a
    serving memo defines TTFT and the KV cache, not MFU and parallelism."""
    other = _TRAINING_GLOSSARY if serving else _SERVING_GLOSSARY
    if not any(line.startswith(_SERVING_GLOSSARY) for line in lines):
        return lines  # a methodology text with one glossary keeps it for both
    kept, skipping = [], False
    for line in lines:
        if line.startswith(other):
            skipping = True
        elif skipping and line.strip() and not line.startswith("|"):
            skipping = False
        if not skipping:
            kept.append(line)
    return kept


def methodology_for(markdown: str, serving: bool) -> str:
    """The methodology as the memo's appendix prints it: the other kind of memo's sections
    removed, the introduction and what the approvers sign for whole, every other section's
    opening and a pointer to the full text attached."""
    leave_out = _TRAINING_ONLY if serving else _SERVING_ONLY
    kept: list[str] = []
    for heading, lines in _sections(markdown):
        if not heading:  # the introduction: each kind of memo keeps its own glossary
            lines = _own_glossary(lines, serving)
        title = re.sub(r"^##\s+[0-9.]*\s*", "", heading)
        if heading and title.startswith(leave_out):
            continue
        if not heading or title.startswith(_PRINTED_WHOLE):
            kept += ([heading] if heading else []) + lines
        elif title.startswith(_REFERENCE_ONLY):
            kept += [heading, "", _IN_THE_ATTACHMENT, ""]
        else:
            kept += [heading, "", *_opening(lines), "", _REST_ATTACHED, ""]
    return "\n".join(kept).strip("\n") + "\n"


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
                out.append(
                    Paragraph(text, s["bullet"], bulletText="•")
                    if kind == "bullet"
                    else Paragraph(text, s["body"])
                )
        block = []

    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("#"):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            out.append(
                Paragraph(_inline(stripped.lstrip("#").strip()), s["h1"] if level == 1 else s["h2"])
            )
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
