"""The stamp's own text engine and font cut (core/memo/stamp_engine.py, truetype_subset.py), which
replaced pyHanko's OpenType engine so that `clusterbid sign` no longer imports fontTools (issue 32
item 7). Every figure is read back with fontTools, an independent TrueType reader, or worked out
by hand from the TrueType and PDF rules named at each check."""

from __future__ import annotations

import re
import struct
from io import BytesIO

from fontTools.ttLib import TTFont
from pyhanko.pdf_utils.writer import PdfFileWriter

from clusterbid.core.memo.stamp_engine import StampFontEngine
from clusterbid.core.memo.stamp_font import STAMP_FONT
from clusterbid.core.memo.truetype_subset import cut, read_metrics
from clusterbid.resources import resource_path

SHIPPED = resource_path(STAMP_FONT).read_bytes()  # 1,000 units to the em
DEJAVU = resource_path("fonts/DejaVuSans.ttf").read_bytes()  # 2,048 units to the em


def _glyph_of(font: TTFont, character: str) -> str:
    return font.getBestCmap()[ord(character)]


def test_the_cut_keeps_the_glyphs_drawn_with_their_parts_and_empties_the_rest():
    source = TTFont(BytesIO(SHIPPED))
    drawn = [source.getGlyphID(_glyph_of(source, c)) for c in "Aé"]
    # é is a composite in DejaVu: the cut must keep the glyphs it is built of
    parts = source["glyf"][_glyph_of(source, "é")].getComponentNames(source["glyf"])
    assert parts
    kept = {".notdef", _glyph_of(source, "A"), _glyph_of(source, "é"), *parts}
    made = cut(SHIPPED, drawn)
    # fontTools checks every table's checksum as it reads (2: a wrong one raises)
    result = TTFont(BytesIO(made), checkChecksums=2)
    assert result.getGlyphOrder() == source.getGlyphOrder()  # every glyph keeps its number
    for glyph in source.getGlyphOrder():
        assert result["hmtx"][glyph] == source["hmtx"][glyph]
        outline = result["glyf"][glyph]
        if glyph in kept:
            assert outline.compile(result["glyf"]) == source["glyf"][glyph].compile(source["glyf"])
        else:
            assert outline.numberOfContours == 0, glyph
    assert not {"GSUB", "GPOS", "GDEF"} & set(result.keys())
    assert len(made) < len(SHIPPED) / 4
    # The file's checksum (OpenType 'head' chapter): its 32-bit words add up to 0xB1B0AFBA.
    words = struct.unpack(f">{len(made) // 4}L", made + b"\0" * (-len(made) % 4))
    assert sum(words) % 2**32 == 0xB1B0AFBA


def test_the_metrics_are_the_fonts_own():
    for data in (SHIPPED, DEJAVU):
        font, metrics = TTFont(BytesIO(data)), read_metrics(data)
        head, hhea = font["head"], font["hhea"]
        assert metrics.postscript_name == font["name"].getDebugName(6) == "DejaVuSans"
        assert metrics.units_per_em == head.unitsPerEm
        assert metrics.bbox == (head.xMin, head.yMin, head.xMax, head.yMax)
        assert (metrics.ascent, metrics.descent) == (hhea.ascent, hhea.descent)
        assert metrics.weight == font["OS/2"].usWeightClass
        assert metrics.cap_height is None  # DejaVu's OS/2 is version 1, before sCapHeight
        assert metrics.advances == tuple(font["hmtx"][g][0] for g in font.getGlyphOrder())


def _shown(engine: StampFontEngine, text: str) -> tuple[list[int], list[float], float]:
    """The glyph numbers a TJ line shows, its adjustments, and the Td after it (text space)."""
    ops = engine.shape(text).graphics_ops.decode("latin-1")
    show = re.search(r"\[(.*)\] TJ (\S+) 0 Td", ops)
    assert show, ops
    glyphs = [int(x, 16) for h in re.findall(r"<(\w*)>", show[1]) for x in re.findall("....", h)]
    adjusts = [float(a) for a in re.sub(r"<\w*>", " ", show[1]).split()]
    return glyphs, adjusts, float(show[2])


def _written_widths(engine: StampFontEngine) -> dict[int, int]:
    engine.prepare_write()
    font = engine.as_resource().get_object()
    descendant = font["/DescendantFonts"][0].get_object()
    found, items = {}, list(descendant["/W"])
    for first, widths in zip(items[::2], items[1::2], strict=True):
        found.update({first + i: int(w) for i, w in enumerate(widths)})
    return found


def test_widths_are_thousandths_of_an_em_whatever_the_fonts_units():
    # DejaVu as shipped has 2,048 units to the em: A's advance of 1,401 units is 1,401 / 2,048 =
    # 0.684 em, so /W says 684; the kerned pair AV is drawn exactly as wide as HarfBuzz laid it out.
    engine = StampFontEngine(PdfFileWriter(), DEJAVU, 10)
    source = TTFont(BytesIO(DEJAVU))
    glyphs, adjusts, line_end = _shown(engine, "AV")
    widths = _written_widths(engine)
    for glyph in glyphs:
        advance = source["hmtx"][source.getGlyphName(glyph)][0]
        assert widths[glyph] == round(advance * 1000 / 2048)
    assert widths[source.getGlyphID(_glyph_of(source, "A"))] == 684
    # TJ moves by each width less each adjustment, in thousandths of an em at 10 pt
    drawn = (sum(widths[g] for g in glyphs) - sum(adjusts)) / 1000 * 10
    assert abs(drawn - line_end) < 0.02 and adjusts  # AV is kerned: an adjustment is written


def test_marks_placed_by_the_font_are_moved_glyph_by_glyph_and_keep_their_text():
    # q with a dot above and one below: the full DejaVu places both marks (GPOS), one lower than
    # the baseline, so one TJ cannot draw them; each glyph is shown where HarfBuzz puts it.
    engine = StampFontEngine(PdfFileWriter(), DEJAVU, 10)
    ops = engine.shape("q\u0307\u0323").graphics_ops.decode("latin-1")
    assert "TJ" not in ops and ops.count(" Tj") == 3
    moves = [tuple(map(float, m)) for m in re.findall(r"(\S+) (\S+) Td", ops)]
    assert any(y < 0 for _, y in moves)
    # One cluster of three glyphs: each maps to the character the font draws it for.
    source = TTFont(BytesIO(DEJAVU))
    expected = {source.getGlyphID(_glyph_of(source, c)): c for c in "q\u0307\u0323"}
    assert engine._to_unicode == expected


def test_a_ligature_stands_for_both_letters():
    engine = StampFontEngine(PdfFileWriter(), SHIPPED, 10)
    glyphs, _, _ = _shown(engine, "fi")
    assert len(glyphs) == 1 and engine._to_unicode[glyphs[0]] == "fi"


def test_only_the_glyphs_drawn_are_embedded():
    engine = StampFontEngine(PdfFileWriter(), SHIPPED, 10)
    engine.shape("Ελένη Жанна")
    engine.prepare_write()
    font = engine.as_resource().get_object()
    descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
    program = descriptor["/FontFile2"].get_object()
    embedded = TTFont(BytesIO(program.data))
    assert program["/Length1"] == len(program.data)
    drawn = {embedded.getGlyphName(g) for g in engine._drawn}
    source = TTFont(BytesIO(SHIPPED))
    assert drawn == {_glyph_of(source, c) for c in "Ελένη Жанна"}
    needed, waiting = {".notdef"}, sorted(drawn - {"space"})
    while waiting:  # a composite glyph's parts are needed too
        glyph = waiting.pop()
        needed.add(glyph)
        waiting += source["glyf"][glyph].getComponentNames(source["glyf"])
    with_outlines = {g for g in embedded.getGlyphOrder() if embedded["glyf"][g].numberOfContours}
    assert with_outlines == needed
    assert str(descriptor["/FontName"]).endswith("+DejaVuSans")
