"""The memo's building blocks, shared by the training and the serving memo: a paragraph of
escaped text, a key-value table, a data grid, all at the content width."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Table, TableStyle
from reportlab.platypus.doctemplate import FrameBreak

from clusterbid.core.memo import styles

W = styles.CONTENT_WIDTH
CELL_PADDING = 6  # points: a grid cell's left and right padding (styles.grid_table_style)
# A word wider than this share of the page (a SHA-256) breaks anywhere rather than take a column.
UNBREAKABLE_SHARE = 0.4
MIN_ROW_HEIGHT = 9.5 + 4  # points: one line of table text (styles "cell") and its padding
# A table taller than a page starts below a heading only with this much of the page left: the
# heading, its header row and a few rows; else it starts on the next page with its heading.
TABLE_START = 45 * mm


class WrappedOnce(Paragraph):  # type: ignore[misc]
    """A paragraph that breaks its lines once per width. Reportlab wraps a table cell's paragraph
    to measure the table, again to keep it together, to split it and to draw it: the same lines
    each time, and most of a long memo's time."""

    _wrapped_at: tuple[float, tuple[float, float]] | None = None

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        # Reportlab's split drops the lines (blPara) when it moves a paragraph on: break again then.
        if (
            self._wrapped_at is not None
            and self._wrapped_at[0] == available_width
            and hasattr(self, "blPara")
        ):
            return self._wrapped_at[1]
        size: tuple[float, float] = super().wrap(available_width, available_height)
        self._wrapped_at = (available_width, size)
        return size


class MeasuredOnce(Table):  # type: ignore[misc]
    """A table measured once per width. Reportlab measures a table to keep it with its heading,
    again to place it and, nested in a cell, again to draw it: at 500 bids, most of the layout.
    Measuring again gives the same figures whenever every row was measured the last time (a long
    table stops once past the height offered) and the height offered now still holds them all."""

    _measured: tuple[float, float] | None = None

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        if (
            self._measured is not None
            and self._measured[0] == available_width
            and self._measured[1] <= available_height
        ):
            self.availWidth = available_width
            return self._width, self._height
        size: tuple[float, float] = super().wrap(available_width, available_height)
        whole = getattr(self, "_hmax", None) == len(self._cellvalues)
        self._measured = (available_width, self._height) if whole else None
        return size


def para(text: object, style: str = "body", escaped: bool = False) -> Paragraph:
    """A paragraph of plain text (escaped here) or, with escaped=True, of our own fixed markup."""
    return WrappedOnce(
        str(text) if escaped else styles.markup(text), styles.paragraph_styles()[style]
    )


def key_values(rows: Iterable[tuple[object, object]], key_width: float = 0.3) -> Table:
    """Two columns, the key in bold: a fact sheet."""
    table = MeasuredOnce(
        [[para(k, "key"), para(v, "value")] for k, v in rows],
        colWidths=[key_width * W, (1 - key_width) * W],
    )
    table.setStyle(TableStyle(styles.key_value_table_style()))
    return table


def grid(
    rows: Iterable[Sequence[object]], widths: list[float], header_style: str = "head"
) -> Table:
    """A data table: the first row is the header (repeated on each page), widths as shares of W
    (widened where a column's longest word would otherwise be cut mid-word)."""
    texts = [[str(c) for c in row] for row in rows]
    cell_styles = [header_style] + ["cell"] * (len(texts) - 1)
    cells = [[para(c, style) for c in row] for row, style in zip(texts, cell_styles)]
    fitted = fit_widths(texts, cell_styles, [w * W for w in widths])
    table = MeasuredOnce(cells, colWidths=fitted, repeatRows=1)
    table.setStyle(TableStyle(styles.grid_table_style()))
    return table


def fit_widths(
    texts: Sequence[Sequence[str]], row_styles: Sequence[str], widths: Sequence[float]
) -> list[float]:
    """Column widths (points, same total) where each column is at least as wide as its longest
    word in its cells' font, taken from the columns with room to spare; the widths given when
    they already fit or when the words cannot all fit. Reportlab would otherwise cut the word
    ("Suppor / t") at any letter."""
    faces = styles.paragraph_styles()
    need = [0.0] * len(widths)
    for row, style_name in zip(texts, row_styles):
        face = faces[style_name]
        for column, text in enumerate(row[: len(widths)]):
            for word in text.split():
                width = stringWidth(word, face.fontName, face.fontSize) + CELL_PADDING + 0.5
                need[column] = max(need[column], width)
    need = [n if n <= UNBREAKABLE_SHARE * W else 0.0 for n in need]
    total, count = sum(widths), len(widths)
    fitted, fixed = list(widths), set[int]()
    while short := {c for c in range(count) if c not in fixed and fitted[c] < need[c]}:
        fixed |= short
        room = total - sum(need[c] for c in fixed)
        free = sum(widths[c] for c in range(count) if c not in fixed)
        if room <= 0 or free <= 0:
            return list(widths)
        fitted = [need[c] if c in fixed else widths[c] * room / free for c in range(count)]
    return fitted


def keep_together_if_it_fits(flowables: list[Flowable], room: float) -> list[Flowable]:
    """`flowables` on one page when they fit on one, else starting here if `room` points are left.
    A table with more rows than a page can hold at the least height a row takes is known not to
    fit without measuring it: measuring a table of 500 rows to learn that is most of the time
    a long memo takes."""
    rows = sum(len(getattr(f, "_cellvalues", ())) for f in flowables)
    if rows * MIN_ROW_HEIGHT > styles.FRAME_HEIGHT:
        return [CondPageBreak(room), *flowables]
    return [KeepTogetherIfItFits(flowables, room)]


class KeepTogetherIfItFits(KeepTogether):  # type: ignore[misc]
    """Kept on one page (moved to the next when it does not fit here) when it fits on a page;
    taller than a page, it starts where it is, if `room` points are left, and splits there,
    instead of leaving the rest of this page empty as reportlab's KeepTogether does."""

    def __init__(self, flowables: list[Flowable], room: float) -> None:
        super().__init__(flowables)
        self.room = room

    def split(self, available_width: float, available_height: float) -> list[Any]:
        if getattr(self, "_wrapInfo", None) != (available_width, available_height):
            self.wrap(available_width, available_height)
        frame = getattr(self, "_frame", None)
        if frame is None or frame._height >= self._H:
            return list(super().split(available_width, available_height))
        content = list(self._content)
        return content if available_height >= self.room else [FrameBreak(), *content]
