"""Memos doctored before signing, as a preparer with the renderer (or a PDF editor) could: the
attached inputs stay honest, the pages say something else. Each is a context manager around a
render, or an incremental update of the unsigned memo."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from reportlab.pdfbase import ttfonts
from reportlab.pdfgen.textobject import PDFTextObject

N = generic.NameObject


@contextmanager
def text_replaced(old: str, new: str, from_page: int) -> Iterator[None]:
    """Every text run drawn on page `from_page` or later prints `new` where it says `old`."""
    original = PDFTextObject._formatText

    def doctored(self, text):
        if self._canvas.getPageNumber() >= from_page:
            text = text.replace(old, new)
        return original(self, text)

    PDFTextObject._formatText = doctored
    try:
        yield
    finally:
        PDFTextObject._formatText = original


@contextmanager
def lying_digits(a: str = "1", b: str = "3") -> Iterator[None]:
    """Every embedded TrueType subset draws `b` where the text says `a` and the reverse, and its
    ToUnicode map swaps them back: a reader extracts the honest figures ("$3,195,648.00") while
    the page shows others ("$1,395,648.00")."""
    split, cmap = ttfonts.TTFont.splitString, ttfonts.makeToUnicodeCMap
    swap = str.maketrans({a: b, b: a})

    def drawn_swapped(self, text, doc, encoding="utf-8"):
        if isinstance(text, bytes):
            text = text.decode(encoding)
        return split(self, text.translate(swap), doc, encoding)

    def map_swapped(fontname, subset):
        return cmap(fontname, [ord(chr(code).translate(swap)) for code in subset])

    ttfonts.TTFont.splitString, ttfonts.makeToUnicodeCMap = drawn_swapped, map_swapped
    try:
        yield
    finally:
        ttfonts.TTFont.splitString, ttfonts.makeToUnicodeCMap = split, cmap


def _written(writer: IncrementalPdfFileWriter) -> bytes:
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def _helvetica(writer: IncrementalPdfFileWriter) -> generic.DictionaryObject:
    font = generic.DictionaryObject(
        {N("/Type"): N("/Font"), N("/Subtype"): N("/Type1"), N("/BaseFont"): N("/Helvetica")}
    )
    return generic.DictionaryObject(
        {N("/Font"): generic.DictionaryObject({N("/FDoctor"): writer.add_object(font)})}
    )


def print_only_layer(pdf: bytes, text: str, page: int, at: tuple[int, int] = (72, 300)) -> bytes:
    """An optional-content group off on screen and on in print (its /Usage and the default
    configuration's /AS print event), holding `text` on page `page` (0-based)."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    group = writer.add_object(
        generic.DictionaryObject(
            {
                N("/Type"): N("/OCG"),
                N("/Name"): generic.TextStringObject("Print"),
                N("/Usage"): generic.DictionaryObject(
                    {
                        N("/Print"): generic.DictionaryObject({N("/PrintState"): N("/ON")}),
                        N("/View"): generic.DictionaryObject({N("/ViewState"): N("/OFF")}),
                    }
                ),
            }
        )
    )
    writer.root[N("/OCProperties")] = generic.DictionaryObject(
        {
            N("/OCGs"): generic.ArrayObject([group]),
            N("/D"): generic.DictionaryObject(
                {
                    N("/OFF"): generic.ArrayObject([group]),
                    N("/AS"): generic.ArrayObject(
                        [
                            generic.DictionaryObject(
                                {
                                    N("/Event"): N("/Print"),
                                    N("/OCGs"): generic.ArrayObject([group]),
                                    N("/Category"): generic.ArrayObject([N("/Print")]),
                                }
                            )
                        ]
                    ),
                }
            ),
        }
    )
    writer.update_root()
    resources = _helvetica(writer)
    resources[N("/Properties")] = generic.DictionaryObject({N("/PrintOnly"): group})
    content = f"/OC /PrintOnly BDC BT /FDoctor 14 Tf {at[0]} {at[1]} Td ({text}) Tj ET EMC"
    writer.add_stream_to_page(
        page,
        writer.add_object(generic.StreamObject(stream_data=content.encode())),
        resources=resources,
    )
    return _written(writer)


def overlay_under(
    pdf: bytes, page: int, box: tuple[float, float, float, float], grey: float = 0.55
) -> bytes:
    """A filled box drawn before the page's own content, so the page's text sits on top of it
    (a strike-through or a highlight that was never approved)."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    x0, y0, x1, y1 = box
    content = f"q {grey} g {x0} {y0} {x1 - x0} {y1 - y0} re f Q".encode()
    writer.add_stream_to_page(
        page, writer.add_object(generic.StreamObject(stream_data=content)), prepend=True
    )
    return _written(writer)


def page_added(pdf: bytes, text: str) -> bytes:
    """One more page at the end, saying `text`."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    pages_ref = writer.root.raw_get("/Pages")
    pages = pages_ref.get_object()
    content = writer.add_object(
        generic.StreamObject(stream_data=f"BT /FDoctor 14 Tf 72 700 Td ({text}) Tj ET".encode())
    )
    page = writer.add_object(
        generic.DictionaryObject(
            {
                N("/Type"): N("/Page"),
                N("/Parent"): pages_ref,
                N("/Contents"): content,
                N("/MediaBox"): generic.ArrayObject(
                    [generic.NumberObject(v) for v in (0, 0, 595, 842)]
                ),
                N("/Resources"): _helvetica(writer),
            }
        )
    )
    pages[N("/Kids")].append(page)
    pages[N("/Count")] = generic.NumberObject(int(pages["/Count"]) + 1)
    writer.mark_update(pages_ref)
    return _written(writer)
