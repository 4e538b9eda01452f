"""The memo as PDF/A-3b, as exported, signed and sealed: the structures ISO 19005-3 asks for,
read back from the file independently of the code that wrote them.

No PDF/A validator can be installed here (veraPDF is Java and in none of the registries this
project installs from), so the requirements a validator checks first are checked one by one:
header, XMP identification and its agreement with /Info, output intent and its ICC profile,
associated files, every font embedded (pages, page XObjects and signature appearances), printable
widgets, no encryption, no JavaScript, not marked PDF 2.0."""

from __future__ import annotations

import hashlib
from datetime import datetime
from io import BytesIO

import pytest
from defusedxml import ElementTree
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.reader import PdfFileReader
from tests.core.memo_signing.memo_factory import demo_memo

from clusterbid.core.memo.archival import xmp_packet
from clusterbid.resources import resource_path

pytestmark = pytest.mark.timeout(300)
RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
NS = {
    "dc": "http://purl.org/dc/elements/1.1/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
}
PRINT, HIDDEN, INVISIBLE, NO_VIEW = 4, 2, 1, 32  # annotation flags, ISO 32000-1 table 165


def _reader(pdf: bytes) -> PdfFileReader:
    return PdfFileReader(BytesIO(pdf), strict=False)


def _xmp(reader) -> dict[str, str]:
    """Every simple XMP property and the first item of each array, by prefix:name."""
    tree = ElementTree.fromstring(reader.root["/Metadata"].get_object().data)
    names = {uri: prefix for prefix, uri in NS.items()}
    found = {}
    for element in tree.iter():
        uri, _, local = element.tag[1:].partition("}")
        if uri in names:
            items = list(element.iter(f"{RDF}li"))
            found[f"{names[uri]}:{local}"] = (items[0].text if items else element.text) or ""
    return found


def _pdf_date(text: str) -> datetime:
    """D:YYYYMMDDHHmmSS with Z or +HH'mm', read here rather than by the code under test."""
    body = text[2:]
    when = datetime.strptime(body[:14], "%Y%m%d%H%M%S")
    zone = body[14:].replace("'", "")
    offset = "+0000" if zone in ("Z", "") else zone
    return datetime.strptime(when.strftime("%Y%m%d%H%M%S") + offset, "%Y%m%d%H%M%S%z")


def _get(dictionary, key, default=None):
    """The value under `key`, indirect references followed (pyHanko's .get keeps them)."""
    if isinstance(dictionary, generic.IndirectObject):
        dictionary = dictionary.get_object()
    return dictionary[key] if dictionary is not None and key in dictionary else default


def _fonts(resources, seen: set) -> list:
    """Every font dictionary reachable from a resource dictionary, through form XObjects."""
    fonts = [_get(_get(resources, "/Font"), name) for name in _get(resources, "/Font", {})]
    xobjects = _get(resources, "/XObject", {})
    for name in xobjects:
        ref = getattr(xobjects.raw_get(name), "reference", None)
        if ref in seen:
            continue
        seen.add(ref)
        stream = xobjects[name]
        if _get(stream, "/Subtype") == "/Form":
            fonts += _fonts(_get(stream, "/Resources"), seen)
    return fonts


def _embedded(font) -> bool:
    descriptors = [_get(font, "/FontDescriptor")]
    descriptors += [_get(d, "/FontDescriptor") for d in _get(font, "/DescendantFonts", [])]
    descriptors = [d for d in descriptors if d is not None]
    return bool(descriptors) and all(
        any(key in d for key in ("/FontFile", "/FontFile2", "/FontFile3")) for d in descriptors
    )


def _check_pdfa(pdf: bytes) -> None:
    assert pdf[:7] == b"%PDF-1." and pdf[7:8] in b"01234567"
    comment = pdf.split(b"\n")[1]  # the second line: a comment of four bytes above 127
    assert comment.startswith(b"%") and all(byte > 127 for byte in comment[1:5])
    reader = _reader(pdf)
    trailer = reader.trailer_view
    assert "/Encrypt" not in trailer and len(trailer["/ID"]) == 2
    root = reader.root
    assert str(root.get("/Version", "/1.7")) in {
        "/1.4",
        "/1.5",
        "/1.6",
        "/1.7",
    }  # PDF/A-3 is PDF 1.7
    assert "/JavaScript" not in root["/Names"] and "/OpenAction" not in root

    xmp, info = _xmp(reader), trailer["/Info"].get_object()
    assert xmp["pdfaid:part"] == "3" and xmp["pdfaid:conformance"] == "B"
    # every entry of /Info with an XMP counterpart says the same there (ISO 19005-3, 6.6.2.3)
    for key, prop in (
        ("/Title", "dc:title"),
        ("/Author", "dc:creator"),
        ("/Subject", "dc:description"),
        ("/Keywords", "pdf:Keywords"),
        ("/Producer", "pdf:Producer"),
        ("/Creator", "xmp:CreatorTool"),
    ):
        assert xmp[prop] == str(info[key]), key
    for key, prop in (("/CreationDate", "xmp:CreateDate"), ("/ModDate", "xmp:ModifyDate")):
        assert datetime.fromisoformat(xmp[prop]) == _pdf_date(str(info[key])), key
    assert "/Trapped" not in info  # no predefined XMP property mirrors it

    [intent] = [i.get_object() for i in root["/OutputIntents"]]
    assert (
        intent["/S"] == "/GTS_PDFA1" and intent["/OutputConditionIdentifier"] == "sRGB IEC61966-2.1"
    )
    profile = intent["/DestOutputProfile"].get_object()
    icc = profile.data
    assert profile["/N"] == 3 and icc[36:40] == b"acsp" and icc[16:20] == b"RGB "
    assert int.from_bytes(icc[:4], "big") == len(icc) and icc[8] <= 4  # ICC version 4 or below
    listed = resource_path("color/SHA256SUMS").read_text(encoding="utf-8").split()[0]
    assert hashlib.sha256(icc).hexdigest() == listed

    relations = {}
    for spec in (ref.get_object() for ref in root["/AF"]):
        stream = spec["/EF"]["/F"].get_object()
        assert str(spec["/F"]) == str(spec["/UF"]) and "/Subtype" in stream
        assert "/ModDate" in stream["/Params"]
        relations[str(spec["/UF"])] = str(spec["/AFRelationship"])
    assert relations == {
        "clusterbid-inputs.json": "/Source",
        "clusterbid-methodology.md": "/Supplement",
    }

    seen: set = set()
    checked = 0
    for page in reader.root["/Pages"]["/Kids"]:
        page = page.get_object()
        fonts = _fonts(_get(page, "/Resources"), seen)
        for annot in _get(page, "/Annots", []):
            flags = int(_get(annot, "/F", 0))
            assert flags & PRINT and not flags & (HIDDEN | INVISIBLE | NO_VIEW)
            appearance = _get(_get(annot, "/AP"), "/N")
            if appearance is not None:
                fonts += _fonts(_get(appearance, "/Resources"), seen)
        assert all(_embedded(font) for font in fonts), [str(_get(f, "/BaseFont")) for f in fonts]
        checked += len(fonts)
    assert checked >= 2


def test_the_exported_memo_has_what_pdf_a_3b_asks():
    _check_pdfa(demo_memo())


def test_the_signed_memo_still_does_and_its_xmp_follows_the_signature(signed_memo):
    _check_pdfa(signed_memo)
    info = _reader(signed_memo).trailer_view["/Info"].get_object()
    assert _pdf_date(str(info["/ModDate"])) > _pdf_date(
        str(info["/CreationDate"])
    )  # signing stamped it


def test_the_sealed_memo_still_does(sealed_memo):
    _check_pdfa(sealed_memo)


def test_the_signature_appearances_draw_with_an_embedded_font(signed_memo):
    reader = _reader(signed_memo)
    appearances = [
        sig.sig_field["/AP"]["/N"].get_object() for sig in reader.embedded_regular_signatures
    ]
    fonts = [font for stream in appearances for font in _fonts(_get(stream, "/Resources"), set())]
    assert len(fonts) >= 2 and all(_embedded(font) for font in fonts)


def test_xmp_of_a_title_with_markup_characters_is_well_formed():
    info = generic.DictionaryObject(
        {
            generic.pdf_name("/Title"): generic.TextStringObject('R&D <cluster> "A" \x07bell'),
            generic.pdf_name("/ModDate"): generic.TextStringObject("D:20360102030405+02'00'"),
        }
    )
    tree = ElementTree.fromstring(xmp_packet(info))
    titles = [li.text for li in tree.iter(f"{RDF}li")]
    assert titles == ['R&D <cluster> "A" bell']
    dates = [e.text for e in tree.iter("{http://ns.adobe.com/xap/1.0/}ModifyDate")]
    assert dates == ["2036-01-02T03:04:05+02:00"]
