"""The signature stamp's text engine: HarfBuzz shapes the stamp's lines in the shipped stamp font,
and the font is embedded cut to the glyphs drawn (truetype_subset.py), as a CID-keyed TrueType
font (Type 0 over CIDFontType2, Identity-H, CID = glyph number) with a ToUnicode map.

It does what pyHanko's OpenType engine (pyhanko.pdf_utils.font.opentype, MIT licence) does for
horizontal text, whose layout and text operators it follows, without importing fontTools:
fontTools' subsetter was about 0.13 CPU s of each `clusterbid sign`, a fifth of it (issue 32
item 7). Widths are written in thousandths of an em, from the font's own advances, so the width
array agrees with the embedded program (PDF/A) whatever the font's units per em."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import uharfbuzz as hb
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.font.api import FontEngine, ShapeResult

from clusterbid.core.memo.truetype_subset import cut, read_metrics

PDF_GLYPH_UNITS = 1000  # a PDF font's glyph space: thousandths of an em
SYMBOLIC = 4  # font descriptor flag: glyphs outside the standard Latin set (ISO 32000-1 9.8.2)
ENCODING = "Identity-H"


def _pdf(value: Any) -> Any:
    """The PDF object of a value: a str starting with a slash is a name, any other a string; a
    dict is a dictionary (its keys names), a list an array; PDF objects stay as they are."""
    if isinstance(value, generic.PdfObject):
        return value
    if isinstance(value, str):
        return generic.NameObject(value) if value.startswith("/") else generic.pdf_string(value)
    if isinstance(value, int):
        return generic.NumberObject(value)  # type: ignore[no-untyped-call]
    if isinstance(value, float):
        return generic.FloatObject(value)  # type: ignore[no-untyped-call]
    if isinstance(value, dict):
        entries = {generic.NameObject(key): _pdf(item) for key, item in value.items()}
        return generic.DictionaryObject(entries)  # type: ignore[no-untyped-call]
    return generic.ArrayObject([_pdf(item) for item in value])


def _compressed(data: bytes, entries: dict[str, Any]) -> Any:
    stream = generic.StreamObject(_pdf(entries), stream_data=data)
    stream.compress()  # type: ignore[no-untyped-call]
    return stream


def _decimal(value: float) -> str:
    """A PDF real (no exponent), to a thousandth."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


class StampFontEngine(FontEngine):
    """Shapes text in `font` (TrueType outlines) and embeds the glyphs shaped when written."""

    def __init__(self, writer: Any, font: bytes, font_size: int, obj_stream: Any = None):
        self._font = font
        self._hb_font = hb.Font(hb.Face(font))
        self._metrics = read_metrics(font)
        super().__init__(
            writer,
            self._metrics.postscript_name,
            embedded_subset=True,
            obj_stream=obj_stream,
            font_size=font_size,
        )
        self._font_ref = writer.allocate_placeholder()
        self._drawn: set[int] = set()
        self._to_unicode: dict[int, str] = {}
        self._written = False

    def _pdf_units(self, font_units: float) -> float:
        return font_units * PDF_GLYPH_UNITS / self._metrics.units_per_em

    def shape(self, txt: str) -> ShapeResult:
        if not txt:
            return ShapeResult(b"", 0, 0)
        buffer = hb.Buffer()
        buffer.add_str(txt)
        buffer.guess_segment_properties()
        hb.shape(self._hb_font, buffer)
        glyphs = list(zip(buffer.glyph_infos, buffer.glyph_positions, strict=True))
        self._drawn.update(info.codepoint for info, _ in glyphs)
        self._map_to_unicode(txt, [info for info, _ in glyphs])
        if all(not position.y_offset for _, position in glyphs):
            operators, advance = self._one_show(glyphs)
        else:
            operators, advance = self._glyph_by_glyph(glyphs)
        span = BytesIO()
        span.write(b"/Span ")
        _pdf({"/ActualText": generic.TextStringObject(txt)}).write_to_stream(span)
        span.write(b" BDC " + operators + b" EMC")
        return ShapeResult(span.getvalue(), advance / self._metrics.units_per_em, 0)

    def _to_text_space(self, font_units: float) -> float:
        return font_units / self._metrics.units_per_em * self.font_size

    def _one_show(self, glyphs: list[Any]) -> tuple[bytes, int]:
        """One TJ: each glyph's advance in the font, corrected to HarfBuzz's (kerning) and its
        horizontal offset; then a move to the end of the line, as the layout expects."""
        parts: list[str] = []
        run: list[int] = []
        adjust, total = 0.0, 0
        for info, position in glyphs:
            adjust -= self._pdf_units(position.x_offset)
            if adjust:
                parts += [f"<{''.join(f'{cid:04x}' for cid in run)}>", _decimal(adjust)]
                run = []
            run.append(info.codepoint)
            advance = self._metrics.advances[info.codepoint]
            # TJ adjustments are in thousandths of an em and subtract from the next position
            adjust = self._pdf_units(advance - position.x_advance + position.x_offset)
            total += position.x_advance
        parts.append(f"<{''.join(f'{cid:04x}' for cid in run)}>")
        if adjust:
            parts.append(_decimal(adjust))
        show = f"[{' '.join(parts)}] TJ".encode("ascii")
        return b"%s %g 0 Td" % (show, self._to_text_space(total)), total

    def _glyph_by_glyph(self, glyphs: list[Any]) -> tuple[bytes, int]:
        """Marks placed above or below a letter: each glyph moved to HarfBuzz's position."""
        commands: list[bytes] = []
        x, y, total = 0, 0, 0
        for info, position in glyphs:
            x, y = x + position.x_offset, y + position.y_offset
            if x or y:
                commands.append(b"%g %g Td" % (self._to_text_space(x), self._to_text_space(y)))
            commands.append(f"<{info.codepoint:04x}> Tj".encode("ascii"))
            x = position.x_advance - position.x_offset
            y = position.y_advance - position.y_offset
            total += position.x_advance
        if x or y:
            commands.append(b"%g %g Td" % (self._to_text_space(x), self._to_text_space(y)))
        return b" ".join(commands), total

    def _map_to_unicode(self, txt: str, infos: list[Any]) -> None:
        """Each glyph's text for the ToUnicode map: its cluster's, when the cluster is one glyph;
        else the cluster's character the font maps to that glyph (pyHanko's fallback)."""
        clusters = sorted({info.cluster for info in infos})
        ends = dict(zip(clusters, [*clusters[1:], len(txt)], strict=True))
        for cluster in clusters:
            gids = [info.codepoint for info in infos if info.cluster == cluster]
            text = txt[cluster : ends[cluster]]
            if len(gids) == 1:
                if gids[0]:  # glyph 0 draws a character the font lacks: it stands for nothing
                    self._to_unicode[gids[0]] = text
                continue
            for gid in gids:
                for character in text:
                    if gid and gid not in self._to_unicode and self._nominal(character) == gid:
                        self._to_unicode[gid] = character

    def _nominal(self, character: str) -> int | None:
        glyph: int | None = self._hb_font.get_nominal_glyph(ord(character))
        return glyph

    def as_resource(self) -> generic.IndirectObject:
        reference: generic.IndirectObject = self._font_ref
        return reference

    def prepare_write(self) -> None:
        """Embed the font cut to the glyphs drawn, with their widths and text."""
        if self._written:
            return
        writer, stream = self.writer, self.obj_stream
        font_name = f"{self.subset_prefix}+{self._metrics.postscript_name}"
        descendant = {
            "/Type": "/Font",
            "/Subtype": "/CIDFontType2",
            "/BaseFont": "/" + font_name,
            "/CIDSystemInfo": {"/Registry": "Adobe", "/Ordering": "Identity", "/Supplement": 0},
            "/FontDescriptor": writer.add_object(_pdf(self._descriptor(font_name)), stream),
            "/CIDToGIDMap": "/Identity",
            "/W": self._widths(),
        }
        type0 = {
            "/Type": "/Font",
            "/Subtype": "/Type0",
            "/BaseFont": f"/{font_name}-{ENCODING}",
            "/Encoding": "/" + ENCODING,
            "/DescendantFonts": [writer.add_object(_pdf(descendant), stream)],
            "/ToUnicode": writer.add_object(_compressed(self._to_unicode_cmap(), {})),
        }
        writer.add_object(_pdf(type0), stream, idnum=self._font_ref.idnum)
        self._written = True

    def _descriptor(self, font_name: str) -> dict[str, Any]:
        metrics, units = self._metrics, self._pdf_units
        program = cut(self._font, self._drawn)
        cap_height = metrics.cap_height
        if cap_height is None:  # OS/2 before version 2: the top of the capital H
            cap_height = self._hb_font.get_glyph_extents(self._nominal("H") or 0).y_bearing
        return {
            "/Type": "/FontDescriptor",
            "/FontName": "/" + font_name,
            "/Flags": SYMBOLIC,
            "/FontBBox": [round(units(edge)) for edge in metrics.bbox],
            "/ItalicAngle": metrics.italic_angle,
            "/Ascent": round(units(metrics.ascent)),
            "/Descent": round(units(metrics.descent)),
            "/CapHeight": round(units(cap_height)),
            # pyHanko's estimate of the stem width from the weight class
            "/StemV": int(10 + 220 * (metrics.weight - 50) / 900),
            "/FontFile2": self.writer.add_object(_compressed(program, {"/Length1": len(program)})),
        }

    def _widths(self) -> list[Any]:
        """`/W`: the first glyph number of each run of consecutive ones drawn, then their widths."""
        runs: list[list[int]] = []
        for gid in sorted(self._drawn):
            if runs and gid == runs[-1][-1] + 1:
                runs[-1].append(gid)
            else:
                runs.append([gid])
        advances = self._metrics.advances
        return [
            item
            for run in runs
            for item in (run[0], [round(self._pdf_units(advances[gid])) for gid in run])
        ]

    def _to_unicode_cmap(self) -> bytes:
        """A ToUnicode CMap of the glyphs drawn (ISO 32000-1 9.10.3), one bfchar line each."""
        mapped = sorted(self._to_unicode.items())
        lines = []
        for start in range(0, len(mapped), 100):  # at most 100 to a block
            block = mapped[start : start + 100]
            lines.append(f"{len(block)} beginbfchar")
            lines += [f"<{gid:04x}> <{text.encode('utf-16-be').hex()}>" for gid, text in block]
            lines.append("endbfchar")
        return "\n".join([*CMAP_HEAD, *lines, *CMAP_TAIL]).encode("ascii")


CMAP_HEAD = (
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange",
    "<0000> <FFFF>",
    "endcodespacerange",
)
CMAP_TAIL = ("endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end")
