"""The memo's building blocks, shared by the training and the serving memo: a paragraph of
escaped text, a key-value table, a data grid, all at the content width."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from reportlab.platypus import Paragraph, Table, TableStyle

from clusterbid.core.memo import styles

W = styles.CONTENT_WIDTH


def para(text: object, style: str = "body", escaped: bool = False) -> Paragraph:
    """A paragraph of plain text (escaped here) or, with escaped=True, of our own fixed markup."""
    return Paragraph(
        str(text) if escaped else styles.markup(text), styles.paragraph_styles()[style]
    )


def key_values(rows: Iterable[tuple[object, object]], key_width: float = 0.3) -> Table:
    """Two columns, the key in bold: a fact sheet."""
    table = Table(
        [[para(k, "key"), para(v, "value")] for k, v in rows],
        colWidths=[key_width * W, (1 - key_width) * W],
    )
    table.setStyle(TableStyle(styles.key_value_table_style()))
    return table


def grid(
    rows: Iterable[Sequence[object]], widths: list[float], header_style: str = "head"
) -> Table:
    """A data table: the first row is the header (repeated on each page), widths as shares of W."""
    cells = [
        [para(c, header_style if i == 0 else "cell") for c in row] for i, row in enumerate(rows)
    ]
    table = Table(cells, colWidths=[w * W for w in widths], repeatRows=1)
    table.setStyle(TableStyle(styles.grid_table_style()))
    return table
