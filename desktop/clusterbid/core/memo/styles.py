"""How the memo looks: colours, page geometry, paragraph and table styles. The fonts and the
markup that picks a face for each run of text are in fonts.py; their names are re-exported here
because every page module reaches them as styles.FONT, styles.markup."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm

from clusterbid.core.memo.fonts import FALLBACK_FONTS as FALLBACK_FONTS
from clusterbid.core.memo.fonts import FONT as FONT
from clusterbid.core.memo.fonts import FONT_BOLD as FONT_BOLD
from clusterbid.core.memo.fonts import face_runs as face_runs
from clusterbid.core.memo.fonts import markup as markup
from clusterbid.core.memo.fonts import needs_fallback as needs_fallback
from clusterbid.core.memo.fonts import register_fonts as register_fonts

PAGE_SIZE = A4
MARGIN = 18 * mm
HEADER_SPACE = 14 * mm
FOOTER_SPACE = 14 * mm
CONTENT_WIDTH = PAGE_SIZE[0] - 2 * MARGIN
FRAME_HEIGHT = PAGE_SIZE[1] - 2 * MARGIN - HEADER_SPACE - FOOTER_SPACE + 8  # layout.memo_document

INK = colors.HexColor("#1b1f24")
MUTED = colors.HexColor("#59636e")
ACCENT = colors.HexColor("#0b5cad")
WARN = colors.HexColor("#9a3412")
RULE = colors.HexColor("#c8ced6")
ZEBRA = colors.HexColor("#f3f5f8")
BOX_FILL = colors.HexColor("#fff7e0")
BOX_EDGE = colors.HexColor("#b7791f")


def _style(name: str, **overrides: object) -> ParagraphStyle:
    # bulletFontName too: bullets would otherwise be set in reportlab's Helvetica, not embedded.
    base = dict(
        fontName=FONT,
        bulletFontName=FONT,
        fontSize=9,
        leading=12,
        textColor=INK,
        alignment=TA_LEFT,
        splitLongWords=1,
    )
    base.update(overrides)
    return ParagraphStyle(name, **base)


@lru_cache(maxsize=1)
def paragraph_styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    return {
        "title": _style("title", fontName=FONT_BOLD, fontSize=15, leading=18.5, spaceAfter=3),
        "subtitle": _style("subtitle", fontSize=8.5, leading=11, textColor=MUTED, spaceAfter=6),
        "h1": _style(
            "h1",
            fontName=FONT_BOLD,
            fontSize=13,
            leading=17,
            spaceBefore=8,
            spaceAfter=6,
            textColor=ACCENT,
        ),
        "h2": _style(
            "h2", fontName=FONT_BOLD, fontSize=10.5, leading=14, spaceBefore=6, spaceAfter=3
        ),
        "bid_head": _style(
            "bid_head",
            fontName=FONT_BOLD,
            fontSize=11.5,
            leading=14,
            spaceBefore=5,
            spaceAfter=2,
            textColor=ACCENT,
        ),
        "h3": _style(
            "h3", fontName=FONT_BOLD, fontSize=9, leading=11.5, spaceBefore=4, spaceAfter=2
        ),
        "body": _style("body", spaceAfter=4),
        "small": _style("small", fontSize=7.5, leading=9.5, textColor=MUTED),
        "cell": _style("cell", fontSize=7.5, leading=9.5),
        "cell_warn": _style("cell_warn", fontSize=7.5, leading=9.5, textColor=WARN),
        "cell_bold": _style("cell_bold", fontName=FONT_BOLD, fontSize=7.5, leading=9.5),
        "fine": _style("fine", fontSize=7, leading=8.6),  # the bid pages' two columns
        "fine_bullet": _style(
            "fine_bullet", fontSize=7, leading=8.6, leftIndent=8, bulletIndent=1, spaceAfter=1.5
        ),
        "fine_warn": _style("fine_warn", fontSize=7, leading=8.6, spaceBefore=3, textColor=WARN),
        "fine_bold": _style("fine_bold", fontName=FONT_BOLD, fontSize=7, leading=8.6),
        "cell_right": _style("cell_right", fontSize=7.5, leading=9.5, alignment=2),
        "head": _style(
            "head", fontName=FONT_BOLD, fontSize=7.5, leading=9.5, textColor=colors.white
        ),
        "key": _style("key", fontName=FONT_BOLD, fontSize=8.5, leading=11),
        "value": _style("value", fontSize=8.5, leading=11),
        "big": _style("big", fontName=FONT_BOLD, fontSize=12, leading=15),
        "decision": _style(
            "decision", fontName=FONT_BOLD, fontSize=9.5, leading=12.5, spaceAfter=2
        ),
        "warn": _style("warn", fontSize=8.5, leading=11, textColor=WARN),
        "bullet": _style("bullet", leftIndent=10, bulletIndent=2, spaceAfter=2),
        "code": _style("code", fontSize=8, leading=10.5, leftIndent=8, textColor=MUTED),
        "sha": _style("sha", fontSize=8.5, leading=11, fontName=FONT_BOLD, textColor=ACCENT),
    }


@lru_cache(maxsize=1)
def appendix_styles() -> dict[str, ParagraphStyle]:
    """The methodology appendix: the same styles a size smaller, so reference text takes less paper."""
    s = dict(paragraph_styles())
    s.update(
        {
            "h1": _style(
                "a_h1",
                fontName=FONT_BOLD,
                fontSize=11,
                leading=14,
                spaceBefore=4,
                spaceAfter=3,
                textColor=ACCENT,
            ),
            "h2": _style(
                "a_h2", fontName=FONT_BOLD, fontSize=9, leading=11.5, spaceBefore=5, spaceAfter=2
            ),
            "body": _style("a_body", fontSize=7.5, leading=9.5, spaceAfter=3),
            "bullet": _style(
                "a_bullet", fontSize=7.5, leading=9.5, leftIndent=9, bulletIndent=2, spaceAfter=1.5
            ),
            "cell": _style("a_cell", fontSize=7, leading=8.5),
            "head": _style(
                "a_head", fontName=FONT_BOLD, fontSize=7, leading=8.5, textColor=colors.white
            ),
        }
    )
    return s


# Every table's cell font is the bundled one: reportlab's default (Helvetica) is otherwise set in
# each table, and listed as a font not embedded, though the cells are Paragraphs in DejaVu.
CELL_FONT = ("FONTNAME", (0, 0), (-1, -1), FONT)


def grid_table_style(header_rows: int = 1) -> list[tuple[Any, ...]]:
    """Commands for a data table: dark header, hairline grid, zebra rows."""
    return [
        CELL_FONT,
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), ACCENT),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("GRID", (0, 0), (-1, -1), 0.25, RULE),
        ("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, ZEBRA]),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]


def key_value_table_style() -> list[tuple[Any, ...]]:
    return [
        CELL_FONT,
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]


CALLOUT_PADDING = 8  # points between the assumptions box's frame and what it holds


def callout_list_style(list_rows: int) -> list[tuple[Any, ...]]:
    """The assumptions box drawn as one table that can split between its rows: row 0 the box's
    opening (across all five columns), rows 1 to `list_rows` a data list (header first) in the
    three middle columns, an empty last row as the box's bottom margin."""
    last = list_rows
    return [
        CELL_FONT,
        ("SPAN", (0, 0), (-1, 0)),
        ("BOX", (0, 0), (-1, -1), 2, BOX_EDGE),
        # Split across pages, each page's part is framed whole.
        ("LINEBELOW", (0, "splitlast"), (-1, "splitlast"), 2, BOX_EDGE),
        ("LINEABOVE", (0, "splitfirst"), (-1, "splitfirst"), 2, BOX_EDGE),
        ("BACKGROUND", (0, 0), (-1, -1), BOX_FILL),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, 0), CALLOUT_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, 0), CALLOUT_PADDING),
        ("TOPPADDING", (0, 0), (-1, 0), 6),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 2),
        ("BACKGROUND", (1, 1), (3, 1), ACCENT),
        ("ROWBACKGROUNDS", (1, 2), (3, last), [colors.white, ZEBRA]),
        ("GRID", (1, 1), (3, last), 0.25, RULE),
        ("LEFTPADDING", (1, 1), (3, last), 3),
        ("RIGHTPADDING", (1, 1), (3, last), 3),
        ("TOPPADDING", (1, 1), (3, last), 2),
        ("BOTTOMPADDING", (1, 1), (3, last), 2),
        # The edge cells and the last row are empty (no flowables): no height of their own.
        *(
            (command, (column, 1), (column, -1), 0)
            for column in (0, -1)
            for command in ("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING")
        ),
        ("TOPPADDING", (0, -1), (-1, -1), 0),
        ("BOTTOMPADDING", (0, -1), (-1, -1), 6),
    ]


def callout_box_style() -> list[tuple[Any, ...]]:
    """The assumptions box: a heavy coloured frame that cannot be missed."""
    return [
        CELL_FONT,
        ("BOX", (0, 0), (-1, -1), 2, BOX_EDGE),
        ("BACKGROUND", (0, 0), (-1, -1), BOX_FILL),
        ("LEFTPADDING", (0, 0), (-1, -1), 8),
        ("RIGHTPADDING", (0, 0), (-1, -1), 8),
        ("TOPPADDING", (0, 0), (-1, -1), 6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
    ]
