"""The memo as an archival file: PDF/A-3b (ISO 19005-3, level B: the pages look the same in any
conforming reader, decades from now).

What PDF/A-3b asks of a file reportlab and pyHanko already write well (fonts embedded and
subset, no encryption, no JavaScript, a file identifier, signature widgets printable with an
appearance) is left to them; this module adds the rest:

- an output intent (GTS_PDFA1) with the sRGB profile every page is drawn in (resources/color);
- the attached inputs and methodology as associated files: each file specification says how it
  relates to the document (/AFRelationship) and the catalogue lists them (/AF), so an archive
  reader knows the JSON is what the memo was rendered from;
- an XMP packet claiming PDF/A-3B and saying what the document information says. It is written
  from /Info after every update (export, each signature, the seal), by ArchivalWriter: pyHanko
  alone would stamp its own producer into the XMP and its own clock into each, and the claim of
  conformance would then be false.

No validator (veraPDF is Java and in no registry this project installs from) runs in the tests;
tests/core/memo/test_archival.py checks these structures and the XMP against /Info directly.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

from clusterbid.resources import resource_path

OUTPUT_CONDITION = "sRGB IEC61966-2.1"
ICC_PROFILE = "color/sRGB-littlecms.icc"
PDFA_NAMESPACE = "http://www.aiim.org/pdfa/ns/id/"
# The inputs are what the pages are rendered from (verify renders them again): their source. The
# methodology file is the full text of what the appendix prints in part: a supplement.
SOURCE, SUPPLEMENT = "/Source", "/Supplement"
# document information -> (XMP property, kind); kinds: text, a language alternative, an ordered
# list of one, a date. These are the entries PDF/A asks to be mirrored in XMP.
MIRRORED = {
    "/Title": ("dc:title", "alt"),
    "/Author": ("dc:creator", "seq"),
    "/Subject": ("dc:description", "alt"),
    "/Keywords": ("pdf:Keywords", "text"),
    "/Producer": ("pdf:Producer", "text"),
    "/Creator": ("xmp:CreatorTool", "text"),
    "/CreationDate": ("xmp:CreateDate", "date"),
    "/ModDate": ("xmp:ModifyDate", "date"),
}


def add_output_intent(writer: IncrementalPdfFileWriter) -> None:
    """The catalogue's /OutputIntents: sRGB, with its ICC profile embedded."""
    components = generic.NumberObject(3)  # type: ignore[no-untyped-call]
    profile = generic.StreamObject(
        {generic.pdf_name("/N"): components}, stream_data=resource_path(ICC_PROFILE).read_bytes()
    )
    profile.compress()  # type: ignore[no-untyped-call]
    intent = generic.DictionaryObject(
        {  # type: ignore[no-untyped-call]
            generic.pdf_name("/Type"): generic.pdf_name("/OutputIntent"),
            generic.pdf_name("/S"): generic.pdf_name("/GTS_PDFA1"),
            generic.pdf_name("/OutputConditionIdentifier"): generic.TextStringObject(
                OUTPUT_CONDITION
            ),
            generic.pdf_name("/Info"): generic.TextStringObject(OUTPUT_CONDITION),
            generic.pdf_name("/DestOutputProfile"): writer.add_object(profile),
        }
    )
    writer.root[generic.pdf_name("/OutputIntents")] = generic.ArrayObject(
        [writer.add_object(intent)]
    )
    writer.update_root()  # type: ignore[no-untyped-call]


def associate(writer: IncrementalPdfFileWriter, name: str, relationship: str) -> None:
    """Declare the embedded file `name` an associated file of the document. (pyHanko's own
    af_relationship also marks the file PDF 2.0, which PDF/A-3, built on PDF 1.7, is not.)"""
    names = writer.root["/Names"]["/EmbeddedFiles"]["/Names"]
    index = next(i for i in range(0, len(names), 2) if str(names[i]) == name)
    spec_ref = names.raw_get(index + 1)
    spec_ref.get_object()[generic.pdf_name("/AFRelationship")] = generic.pdf_name(relationship)
    writer.mark_update(spec_ref)
    if "/AF" not in writer.root:
        writer.root[generic.pdf_name("/AF")] = generic.ArrayObject()
        writer.update_root()  # type: ignore[no-untyped-call]
    writer.root["/AF"].append(spec_ref)


def _iso(value: object) -> str:
    when = generic.parse_pdf_date(str(value))
    return when.isoformat()


def _xml_text(value: object) -> str:
    # XML 1.0 has no place for most control characters: a title with one keeps the rest
    return escape("".join(ch for ch in str(value) if ch in "\t\n\r" or ord(ch) >= 0x20))


def xmp_packet(info: Any) -> bytes:
    """The XMP packet for document information `info`, claiming PDF/A-3B; deterministic."""
    lines = []
    for key, (prop, kind) in MIRRORED.items():
        if key not in info:
            continue
        value = info[key]
        if kind == "date":
            lines.append(f"<{prop}>{_iso(value)}</{prop}>")
        elif kind == "alt":
            lines.append(
                f'<{prop}><rdf:Alt><rdf:li xml:lang="x-default">{_xml_text(value)}'
                f"</rdf:li></rdf:Alt></{prop}>"
            )
        elif kind == "seq":
            lines.append(f"<{prop}><rdf:Seq><rdf:li>{_xml_text(value)}</rdf:li></rdf:Seq></{prop}>")
        else:
            lines.append(f"<{prop}>{_xml_text(value)}</{prop}>")
    if "/ModDate" in info:
        lines.append(f"<xmp:MetadataDate>{_iso(info['/ModDate'])}</xmp:MetadataDate>")
    body = "\n   ".join(lines)
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '  <rdf:Description rdf:about=""\n'
        '    xmlns:dc="http://purl.org/dc/elements/1.1/"\n'
        '    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"\n'
        '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n'
        f'    xmlns:pdfaid="{PDFA_NAMESPACE}">\n'
        "   <pdfaid:part>3</pdfaid:part>\n   <pdfaid:conformance>B</pdfaid:conformance>\n"
        f"   {body}\n"
        "  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n"
        '<?xpacket end="w"?>'
    ).encode()


def add_metadata(writer: IncrementalPdfFileWriter) -> None:
    """An (empty) XMP stream in the catalogue; ArchivalWriter fills it when the file is written."""
    stream = generic.StreamObject(
        {
            generic.pdf_name("/Type"): generic.pdf_name("/Metadata"),
            generic.pdf_name("/Subtype"): generic.pdf_name("/XML"),
        },
        stream_data=b"",
    )
    writer.root[generic.pdf_name("/Metadata")] = writer.add_object(stream)
    writer.update_root()  # type: ignore[no-untyped-call]


def claims_pdfa(root: Any) -> bool:
    """True when the catalogue's XMP packet claims PDF/A (ours, or one ArchivalWriter will fill)."""
    try:
        data = root["/Metadata"].get_object().data if "/Metadata" in root else None
    except Exception:  # noqa: BLE001 (a packet that cannot be read is no claim: pyHanko writes it)
        return False
    return data is not None and (not data or PDFA_NAMESPACE.encode() in data)


class ArchivalWriter(IncrementalPdfFileWriter):
    """pyHanko's incremental writer, keeping a PDF/A memo's XMP equal to its /Info: pyHanko updates
    /Info (its name joins the producer, the clock the modification date), then the XMP is written
    again from it, in place. Files without a PDF/A claim are written as pyHanko writes them."""

    def _update_meta(self) -> None:
        if not claims_pdfa(self.root):
            super()._update_meta()  # type: ignore[no-untyped-call]
            return
        metadata = self.root.raw_get("/Metadata")
        del self.root["/Metadata"]  # pyHanko would rewrite the XMP with its own producer and clock
        try:
            super()._update_meta()  # type: ignore[no-untyped-call]
        finally:
            self.root[generic.pdf_name("/Metadata")] = metadata
        self._info_written()
        info = self._info.get_object() if self._info is not None else {}  # type: ignore[no-untyped-call]
        stream = metadata.get_object()
        stream._data, stream._encoded_data = xmp_packet(info), None  # the same object, rewritten
        stream.pop("/Filter", None)
        self.mark_update(metadata)

    def _info_written(self) -> None:
        """A subclass's last word on /Info before the XMP is drawn from it (render.py's dates)."""
