"""A signature's stamp shows the signer's name in every script the stamp font covers (Latin with
its extensions, Greek, Cyrillic), drawn with glyphs the embedded font has (never .notdef), whose
widths in the PDF are the embedded program's own (PDF/A asks them to agree), and whose text a
reader copies out as the name (ToUnicode). Read back from the signed PDF with fontTools."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from fontTools.ttLib import TTFont
from pyhanko.pdf_utils.reader import PdfFileReader

NAMES = ("Ελένη Παπαδοπούλου", "Анна Павлова", "Łukasz Żółć-Ørsted")


def _to_unicode(cmap: bytes) -> dict[int, str]:
    pairs = re.findall(rb"<([0-9a-f]{4})> <([0-9a-f]+)>", cmap)
    return {int(cid, 16): bytes.fromhex(text.decode()).decode("utf-16-be") for cid, text in pairs}


def _glyphs(shown: bytes) -> list[int]:
    """The glyph numbers in a TJ array's hex strings (two bytes each, Identity-H)."""
    hexes = b"".join(re.findall(rb"<([0-9a-f]*)>", shown))
    return [int(hexes[i : i + 4], 16) for i in range(0, len(hexes), 4)]


def _stamp(pdf: bytes) -> tuple[bytes, dict]:
    """The appearance stream of the last signature and its one font."""
    field = PdfFileReader(BytesIO(pdf)).embedded_signatures[-1].sig_field
    appearance = field["/AP"]["/N"]
    fonts = appearance["/Resources"]["/Font"]
    assert len(fonts) == 1
    return appearance.data, next(iter(fonts.values())).get_object()


@pytest.mark.parametrize("name", NAMES)
def test_the_stamp_shows_the_signers_name_in_their_script(signed_by, name):
    content, font = _stamp(signed_by(name))
    descendant = font["/DescendantFonts"][0].get_object()
    program = descendant["/FontDescriptor"]["/FontFile2"].get_object().data
    embedded = TTFont(BytesIO(program))
    lines = [_glyphs(line) for line in re.findall(rb"\[(.*?)\] TJ", content)]
    cids = [cid for line in lines for cid in line]
    assert cids and 0 not in cids  # .notdef: a character the font lacks, drawn as a box
    to_text = _to_unicode(font["/ToUnicode"].get_object().data)
    text = "".join(to_text[cid] for cid in lines[0])
    assert text == f"Signed by {name}"
    # /W against the embedded program's advances (1,000 units to the em: the same numbers)
    assert embedded["head"].unitsPerEm == 1000
    items = list(descendant["/W"])
    widths = {
        first + i: int(w)
        for first, run in zip(items[::2], items[1::2], strict=True)
        for i, w in enumerate(run)
    }
    for cid in set(cids):
        glyph = embedded.getGlyphName(cid)
        assert widths[cid] == embedded["hmtx"][glyph][0]
        assert glyph == "space" or embedded["glyf"][glyph].numberOfContours, glyph
