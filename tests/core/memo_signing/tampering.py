"""Ways to tamper with a signed memo, each the kind of change a verifier must catch."""

from __future__ import annotations

import json
from io import BytesIO

from pyhanko.pdf_utils import embed, generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader

from clusterbid.core.memo.inputs import INPUTS_ATTACHMENT_NAME


def signed_ranges(pdf: bytes) -> list[range]:
    """The byte ranges the last (widest) signature covers: everything but its own /Contents."""
    start1, length1, start2, length2 = (
        PdfFileReader(BytesIO(pdf)).embedded_signatures[-1].sig_object["/ByteRange"]
    )
    return [range(start1, start1 + length1), range(start2, start2 + length2)]


def flip_byte(pdf: bytes, position: int) -> bytes:
    data = bytearray(pdf)
    data[position] ^= 0xFF
    return bytes(data)


def append_page_content(pdf: bytes, text: str = "APPROVED: budget x10", page: int = 0) -> bytes:
    """An incremental update that draws new text on a page (page 1 by default), as someone editing
    a memo would."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    font = generic.DictionaryObject(
        {
            generic.NameObject("/Type"): generic.NameObject("/Font"),
            generic.NameObject("/Subtype"): generic.NameObject("/Type1"),
            generic.NameObject("/BaseFont"): generic.NameObject("/Helvetica"),
        }
    )
    resources = generic.DictionaryObject(
        {
            generic.NameObject("/Font"): generic.DictionaryObject(
                {generic.NameObject("/FTamper"): writer.add_object(font)}
            )
        }
    )
    stream = generic.StreamObject(
        stream_data=f"BT /FTamper 24 Tf 72 420 Td ({text}) Tj ET".encode("latin-1")
    )
    writer.add_stream_to_page(page, writer.add_object(stream), resources=resources)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def replace_attached_inputs(pdf: bytes, edit) -> bytes:
    """An incremental update swapping the attached inputs for `edit(data)`; page 1 is left as it was."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    names = writer.root["/Names"]["/EmbeddedFiles"]["/Names"]
    for index in range(0, len(names), 2):
        if str(names[index]) == INPUTS_ATTACHMENT_NAME:
            spec_ref = names.raw_get(index + 1)
            break
    else:
        raise AssertionError("the memo has no inputs attachment to replace")
    spec = spec_ref.get_object()
    data = json.loads(spec["/EF"]["/F"].get_object().data)
    edit(data)
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    new_file = writer.add_object(
        embed.EmbeddedFileObject.from_file_data(writer, raw, mime_type="application/json")
    )
    spec["/EF"] = generic.DictionaryObject(
        {generic.NameObject("/F"): new_file, generic.NameObject("/UF"): new_file}
    )
    writer.mark_update(spec_ref)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def swap_attachment_before_signing(pdf: bytes, raw: bytes, sha256: str) -> bytes:
    """Replace the attached inputs with `raw` and make every machine-readable statement of the
    hash (the attachment's description) agree with it; the printed page stays as exported."""
    writer = IncrementalPdfFileWriter(BytesIO(pdf))
    names = writer.root["/Names"]["/EmbeddedFiles"]["/Names"]
    spec_ref = next(
        names.raw_get(i + 1)
        for i in range(0, len(names), 2)
        if str(names[i]) == INPUTS_ATTACHMENT_NAME
    )
    spec = spec_ref.get_object()
    new_file = writer.add_object(
        embed.EmbeddedFileObject.from_file_data(writer, raw, mime_type="application/json")
    )
    spec["/EF"] = generic.DictionaryObject(
        {generic.NameObject("/F"): new_file, generic.NameObject("/UF"): new_file}
    )
    spec["/Desc"] = generic.TextStringObject(f"ClusterBid memo inputs, SHA-256 {sha256}")
    writer.mark_update(spec_ref)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()
