"""The methodology's tables of criteria (section 6) and billing kinds (section 9), written from
the tables that declare them (criteria.py, billing_kinds.py), so the text never lists a
criterion or a kind the code does not have, or misses one it has (issue 33 item 3).

`clusterbid schema` rewrites them in resources/methodology.md (and `--check` fails when they
differ), as it does the JSON Schemas. Each table is found by its header line and ends at the
first line that is not a table row; the prose around it is the author's.
"""

from __future__ import annotations

from clusterbid.core.billing_kinds import BILLING_KIND_SPECS
from clusterbid.core.criteria import CRITERIA
from clusterbid.core.errors import InputError

CRITERIA_HEADER = "| criterion | normalisation |"
BILLING_HEADER = "| billing | total commitment | GPU-hours it buys |"


def criteria_table() -> list[str]:
    rows = [f"| {c.methodology_name} | {c.how_scored} |" for c in CRITERIA]
    return [CRITERIA_HEADER, "|---|---|", *rows]


def billing_table() -> list[str]:
    rows = [f"| {k.short_words} | {k.commitment_formula} | {k.buys} |" for k in BILLING_KIND_SPECS]
    return [BILLING_HEADER, "|---|---|---|", *rows]


def _replaced(lines: list[str], table: list[str]) -> list[str]:
    header = table[0]
    if header not in lines:
        raise InputError(
            f"methodology.md has no table headed {header!r}: put that header line back where the "
            "table belongs, then run `clusterbid schema`"
        )
    start = lines.index(header)
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[:start] + table + lines[end:]


def with_tables(text: str) -> str:
    """`text` (the methodology) with both tables as the code declares them; the rest unchanged."""
    lines = text.split("\n")
    for table in (criteria_table(), billing_table()):
        lines = _replaced(lines, table)
    return "\n".join(lines)
