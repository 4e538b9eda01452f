"""Compare every page of the memo as exported with what its attached inputs render to, as images.

Byte identity holds only when this computer draws with the same library versions as the one that
made the memo; after any upgrade (or when the preparer wrote other versions into the attachment)
the bytes differ while the pages should look the same. So both PDFs are rasterised with PDFium
(pypdfium2, the rasteriser Chrome uses), each page twice: as a viewer shows it and as it prints
(FPDF_PRINTING selects the Print usage of optional content, so a layer visible only in print is
drawn), forms and annotations included. Pixels with nothing within SHIFT_PIXELS in the other
image within PIXEL_THRESHOLD grey levels of them are grouped into regions (cells of CELL_PIXELS,
joined when they touch); a region holding at least REGION_PIXELS of them is a difference, named
by the text PDFium reads in that box from both files ("page 5: '$1.85' where the inputs render
'$2.85'"). Each page's extracted text is compared too, so text hidden under an image or drawn
white on white is caught although no pixel shows it; a font whose ToUnicode map lies reads the
same but draws other glyphs, which the pixels catch.

The tolerance was measured on real library upgrades (tests/validation/raster_tolerance.py;
resources/methodology.md section 14), 2026-11-26: the demo memo drawn by reportlab 4.2.5 differs
from 5.1.0's in bytes and in no pixel; every text run moved 0.001 or 0.005 pt (other coordinate
rounding) makes regions of at most 1 pixel, 0.01 pt one of 3; page 5's "$2.85" printed "$1.85"
makes regions of 3 pixels at 100 dpi (none at 72 dpi once a one-pixel shift is tolerated),
"$2.35" 4, "$2.86" 1 (caught by the text alone); a font drawing 1 as 3 while its map reads the
truth makes 1,058 regions. matplotlib 3.8.4 draws the charts to another size
than 3.11.2 (a subtitle wraps elsewhere), moving what follows them: thousands of pixels no
tolerance can tell from a doctored chart, so page_proof.py calls such a region not provable here.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from clusterbid.core.memo.page_regions import (
    CELL_PIXELS,
    PageWords,
    beyond_shift,
    regions,
    whole_words,
)

RASTER_DPI = 100  # the lowest where a changed digit survives the one-pixel shift tolerance
REGION_PIXELS = 3  # a region of 1 or 2 such pixels is tolerated; no measured upgrade made one
POINTS_PER_INCH = 72
BOX_MARGIN_POINTS = 2.0
STATES = (("on screen", None), ("in print", "print"))


class RasteriserMissing(RuntimeError):
    """PDFium (pypdfium2) cannot be loaded here: no page can be compared as an image."""


@dataclass(frozen=True)
class PageDifference:
    """A region of one page drawn differently from the re-render, in PDF points from the page's
    lower left corner, with the text each file holds there."""

    page: int  # 1-based
    states: tuple[str, ...]  # "on screen", "in print"
    box: tuple[float, float, float, float]  # left, bottom, right, top
    shown: str  # the memo as exported
    rendered: str  # what the attached inputs render to here
    by_chart: bool = False  # inside or below a chart (an image) on this page, where a chart
    # drawn by another matplotlib moves what follows it

    def words(self) -> str:
        where = (
            f"at x {self.box[0]:.0f}-{self.box[2]:.0f}, y {self.box[1]:.0f}-{self.box[3]:.0f} pt"
        )
        states = " and ".join(self.states)
        if self.shown == self.rendered:
            said = (
                f"drawn differently {states} though both read {self.shown!r} (a font whose "
                "text map lies, an image, or a layer)"
                if self.shown
                else f"drawn differently {states} (no text there: a mark, image or layer)"
            )
        else:
            said = (
                f"{self.shown or '(no text)'!r} where the inputs render "
                f"{self.rendered or '(no text)'!r}, {states}"
            )
        return f"page {self.page}: {said} {where}"


@dataclass(frozen=True)
class PageComparison:
    exported_pages: int
    rendered_pages: int
    differences: tuple[PageDifference, ...] = ()
    text_differences: tuple[str, ...] = ()  # a page whose extracted text differs, in words
    largest_tolerated: int = 0  # differing pixels in the largest region below REGION_PIXELS
    pixels_changed: int = 0  # pixels differing by any amount, in both states of every page

    @property
    def identical(self) -> bool:
        return (
            self.exported_pages == self.rendered_pages
            and not self.differences
            and not self.text_differences
        )

    def problems(self) -> list[str]:
        said = []
        if self.exported_pages > self.rendered_pages:
            extra = range(self.rendered_pages + 1, self.exported_pages + 1)
            said.append(
                f"the memo as exported has {self.exported_pages} pages, its attached inputs "
                f"render to {self.rendered_pages}: page(s) {', '.join(map(str, extra))} added"
            )
        elif self.exported_pages < self.rendered_pages:
            said.append(
                f"the memo as exported has {self.exported_pages} pages, its attached inputs "
                f"render to {self.rendered_pages}: page(s) removed"
            )
        said += [difference.words() for difference in self.differences]
        return said + list(self.text_differences)


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError as exc:
        raise RasteriserMissing(f"pypdfium2 cannot be loaded ({exc})") from None
    return pypdfium2


def _open(pdfium: Any, pdf: bytes) -> Any:
    document = pdfium.PdfDocument(pdf)
    document.init_forms()  # form fields drawn as a viewer draws them
    return document


def _grey(page: Any, mode: str | None) -> Any:
    bitmap = page.render(
        scale=RASTER_DPI / POINTS_PER_INCH,
        grayscale=True,
        may_draw_forms=True,
        draw_annots=True,
        optimize_mode=mode,
    )
    return bitmap.to_numpy().astype("int16")


def _chart_tops(page: Any, pdfium: Any) -> list[tuple[float, float, float]]:
    """(left, right, top) of each image on the page, in points: the charts."""
    images = page.get_objects(filter=(pdfium.raw.FPDF_PAGEOBJ_IMAGE,), max_depth=2)
    return [(left, right, top) for left, _, right, top in (image.get_bounds() for image in images)]


def _by_chart(
    box: tuple[float, float, float, float], charts: list[tuple[float, float, float]]
) -> bool:
    return any(box[3] <= top + BOX_MARGIN_POINTS for _, _, top in charts)


def _states(page: Any, pdfium: Any, layered: bool) -> tuple[tuple[str, str | None], ...]:
    """Both states where they can differ: a document with optional content, a page with
    annotations (each has its own print flag); else the screen's alone, which is the print's."""
    if layered or pdfium.raw.FPDFPage_GetAnnotCount(page.raw) > 0:
        return STATES
    return STATES[:1]


def _page_differences(
    number: int, shown: Any, rendered: Any, pdfium: Any, layered: bool = True
) -> tuple[list[PageDifference], int, int]:
    """Regions drawn differently on one page, in both states; the largest tolerated region; and
    how many pixels differ at all."""
    height = shown.get_height()
    scale = POINTS_PER_INCH / RASTER_DPI
    boxes: dict[tuple[float, float, float, float], list[str]] = {}
    tolerated = changed = 0
    both = len(_states(shown, pdfium, layered)) > 1 or len(_states(rendered, pdfium, layered)) > 1
    for state, mode in STATES if both else STATES[:1]:
        a, b = _grey(shown, mode), _grey(rendered, mode)
        if a.shape != b.shape:
            whole = (0.0, 0.0, float(shown.get_width()), float(height))
            boxes.setdefault(whole, []).append(state)
            continue
        delta = abs(a - b)
        changed += int((delta > 0).sum())
        for r0, c0, r1, c1, pixels in regions(beyond_shift(a, b)):
            if pixels < REGION_PIXELS:
                tolerated = max(tolerated, pixels)
                continue
            box = (
                c0 * CELL_PIXELS * scale - BOX_MARGIN_POINTS,
                height - r1 * CELL_PIXELS * scale - BOX_MARGIN_POINTS,
                c1 * CELL_PIXELS * scale + BOX_MARGIN_POINTS,
                height - r0 * CELL_PIXELS * scale + BOX_MARGIN_POINTS,
            )
            box = tuple(round(v, 1) for v in box)
            for drawn in (state,) if both else tuple(name for name, _ in STATES):  # print = screen
                if drawn not in boxes.setdefault(box, []):
                    boxes[box].append(drawn)
    if not boxes:
        return [], tolerated, changed
    shown_words, rendered_words = PageWords(shown), PageWords(rendered)
    charts = _chart_tops(shown, pdfium) + _chart_tops(rendered, pdfium)
    found = [
        PageDifference(
            number,
            tuple(states),
            box,
            shown_words.words_in(box),
            rendered_words.words_in(box),
            _by_chart(box, charts),
        )
        for box, states in boxes.items()
    ]
    return sorted(found, key=lambda d: (-d.box[3], d.box[0])), tolerated, changed


def _text_difference(number: int, shown: Any, rendered: Any) -> str | None:
    a = shown.get_textpage().get_text_range()
    b = rendered.get_textpage().get_text_range()
    if a == b:
        return None
    ops = difflib.SequenceMatcher(None, b, a, autojunk=False).get_opcodes()
    _, i0, i1, j0, j1 = next(op for op in ops if op[0] != "equal")
    gained, lost = whole_words(a, j0, j1), whole_words(b, i0, i1)
    return (
        f"page {number}: its text reads {gained[:80]!r} where the inputs render {lost[:80]!r} "
        "(text a reader can search or copy, whether or not it is seen)"
    )


def compare_pages(exported: bytes, rendered: bytes, layered: bool = True) -> PageComparison:
    """Every page of `exported` against `rendered`, as images in both states and as text.
    `layered` False: neither file has optional content (the catalogue's /OCProperties, read by the
    caller through every object stream), so the print state is drawn only for pages with
    annotations. RasteriserMissing when PDFium cannot be loaded; PDFium's errors propagate."""
    pdfium = _pdfium()
    shown_doc, rendered_doc = _open(pdfium, exported), _open(pdfium, rendered)
    try:
        differences: list[PageDifference] = []
        texts: list[str] = []
        tolerated = changed = 0
        for index in range(min(len(shown_doc), len(rendered_doc))):
            shown, again = shown_doc[index], rendered_doc[index]
            found, largest, pixels = _page_differences(index + 1, shown, again, pdfium, layered)
            differences += found
            tolerated, changed = max(tolerated, largest), changed + pixels
            text = _text_difference(index + 1, shown, again)
            if text is not None:
                texts.append(text)
        return PageComparison(
            len(shown_doc), len(rendered_doc), tuple(differences), tuple(texts), tolerated, changed
        )
    finally:
        shown_doc.close()
        rendered_doc.close()
