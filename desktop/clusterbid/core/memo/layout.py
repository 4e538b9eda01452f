"""Page templates: header (title, memo number), footer (confidentiality, page X of Y), frames."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from clusterbid.core.memo import styles
from clusterbid.core.memo.field_name import fields_in_words


@dataclass(frozen=True, slots=True)
class PageHeader:
    title: str
    memo_number: str
    confidentiality: str
    created: dt.date


@dataclass(slots=True)
class SignatureBoxes:
    """Where the sign-off flowables landed: (field name, page index from 0, (x1, y1, x2, y2))."""

    boxes: list[tuple[str, int, tuple[float, float, float, float]]] = field(default_factory=list)


def _runs(text: str, font: str) -> list[tuple[str, str]]:
    """(font, text) runs: characters DejaVu lacks (Chinese, Japanese, Korean, Thai) in the
    embedded fallback font that has them (page 1 already refused what none of them has)."""
    return styles.face_runs(text, font)


def _width(canvas: Canvas, text: str, font: str, size: float) -> float:
    return sum(canvas.stringWidth(chunk, face, size) for face, chunk in _runs(text, font))


def _fit(canvas: Canvas, text: str, font: str, size: float, width: float) -> str:
    """Shorten a header line to the width with an ellipsis; the full title is on page 1."""
    if _width(canvas, text, font, size) <= width:
        return text
    while text and _width(canvas, text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _draw_runs(canvas: Canvas, x: float, y: float, text: str, font: str, size: float) -> None:
    for face, chunk in _runs(text, font):
        canvas.setFont(face, size)
        canvas.drawString(x, y, chunk)
        x += canvas.stringWidth(chunk, face, size)


def numbered_canvas(header: PageHeader) -> type[Canvas]:
    """A canvas that holds every page until the end so each footer can say "page X of Y"."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            stamp = header.created
            # The PDF dates come from the inputs, never the clock, so renders are byte-identical.
            self.setDateFormatter(lambda *_: f"D:{stamp:%Y%m%d}000000+00'00'")
            self._held_pages: list[dict] = []

        @property
        def page_index(self) -> int:
            return len(self._held_pages)

        def showPage(self):
            self._held_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._held_pages)
            for state in self._held_pages:
                self.__dict__.update(state)
                self._draw_furniture(total)
                super().showPage()
            super().save()

        def _draw_furniture(self, total: int) -> None:
            width, height = styles.PAGE_SIZE
            left, right = styles.MARGIN, width - styles.MARGIN
            self.saveState()
            self.setStrokeColor(styles.RULE)
            self.setLineWidth(0.5)
            top = height - styles.MARGIN + 4
            self.setFont(styles.FONT_BOLD, 8)
            self.setFillColor(styles.INK)
            number = f"Approval memo {header.memo_number}"
            self.drawRightString(right, top, number)
            room = right - left - self.stringWidth(number, styles.FONT_BOLD, 8) - 12
            _draw_runs(
                self, left, top, _fit(self, header.title, styles.FONT, 8, room), styles.FONT, 8
            )
            self.line(left, top - 4, right, top - 4)
            bottom = styles.MARGIN - 8
            self.line(left, bottom + 10, right, bottom + 10)
            self.setFillColor(styles.MUTED)
            self.setFont(styles.FONT, 7)
            self.drawString(left, bottom, header.confidentiality)
            self.drawRightString(right, bottom, f"page {self._pageNumber} of {total}")
            self.restoreState()

    return NumberedCanvas


def memo_document(buffer, header: PageHeader) -> BaseDocTemplate:
    width, height = styles.PAGE_SIZE
    frame = Frame(
        styles.MARGIN,
        styles.MARGIN + styles.FOOTER_SPACE - 8,
        width - 2 * styles.MARGIN,
        styles.FRAME_HEIGHT,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc = BaseDocTemplate(
        buffer,
        pagesize=styles.PAGE_SIZE,
        invariant=1,
        title=header.title,
        # The bundled font from the first page on: reportlab's default Helvetica would otherwise be
        # listed on every page as a font that is not embedded, though nothing is set in it.
        initialFontName=styles.FONT,
        author="ClusterBid",
        subject=f"Approval memo {header.memo_number}",
        creator="ClusterBid",
        leftMargin=styles.MARGIN,
        rightMargin=styles.MARGIN,
        topMargin=styles.MARGIN,
        bottomMargin=styles.MARGIN,
    )
    doc.addPageTemplates([PageTemplate(id="body", frames=[frame])])
    return doc


class SignatureBox(Flowable):
    """An empty framed box; render.py turns its position into a PDF signature field."""

    def __init__(self, field_name: str, width: float, height: float, sink: SignatureBoxes):
        super().__init__()
        self.field_name, self.width, self.height, self.sink = field_name, width, height, sink

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        canvas.saveState()
        canvas.setStrokeColor(styles.ACCENT)
        canvas.setDash(3, 2)
        canvas.rect(0, 0, self.width, self.height)
        canvas.setFillColor(styles.MUTED)
        canvas.setFont(styles.FONT, 7)
        canvas.drawString(4, 4, f"{fields_in_words(self.field_name).capitalize()} signs here")
        canvas.restoreState()
        x, y = canvas.absolutePosition(0, 0)
        self.sink.boxes.append(
            (self.field_name, canvas.page_index, (x, y, x + self.width, y + self.height))
        )
