"""What the signature stamp embeds of its TrueType font, read and cut without fontTools.

A stamp draws a few dozen glyphs; embedding the whole shipped font (166 KB) in every signature
would bloat each one, and fontTools' subsetter cost `clusterbid sign` about 0.13 CPU s (its
import and the cut), a fifth of the command (issue 32 item 7). The cut here keeps every glyph
number (as pyHanko's own subset does, so a CID is the glyph number): the glyphs drawn, with the
parts of composite glyphs and glyph 0 (.notdef), keep their outlines, every other glyph is left
empty, and the layout tables (which only the shaping reads, from the full font) are left out.
Metrics and names are read from the font's fixed-layout tables (Apple's TrueType reference,
chapters 'head', 'hhea', 'hmtx', 'loca', 'glyf', 'name', 'OS/2', 'post')."""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass

LAYOUT_TABLES = frozenset({b"GDEF", b"GPOS", b"GSUB", b"MATH", b"BASE", b"JSTF", b"kern"})
# composite glyph flags (Apple's 'glyf' chapter)
ARG_1_AND_2_ARE_WORDS, WE_HAVE_A_SCALE, MORE_COMPONENTS = 0x1, 0x8, 0x20
WE_HAVE_AN_X_AND_Y_SCALE, WE_HAVE_A_TWO_BY_TWO = 0x40, 0x80
CHECKSUM_MAGIC = 0xB1B0AFBA


def tables(font: bytes) -> dict[bytes, bytes]:
    """The font's tables by tag, from its table directory."""
    (count,) = struct.unpack_from(">H", font, 4)
    found = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", font, 12 + 16 * index)
        found[tag] = font[offset : offset + length]
    return found


@dataclass(frozen=True)
class FontMetrics:
    """What a PDF font descriptor and width array say of the font, in the font's own units."""

    postscript_name: str
    units_per_em: int
    bbox: tuple[int, int, int, int]
    ascent: int
    descent: int
    weight: int
    cap_height: int | None  # OS/2 has it from version 2 on
    italic_angle: float
    advances: tuple[int, ...]  # by glyph number


def _postscript_name(name: bytes) -> str:
    _, count, strings = struct.unpack_from(">HHH", name, 0)
    for index in range(count):
        platform, _, _, name_id, length, offset = struct.unpack_from(">6H", name, 6 + 12 * index)
        if name_id == 6:
            raw = name[strings + offset : strings + offset + length]
            return raw.decode("utf-16-be" if platform in (0, 3) else "latin-1")
    raise ValueError("the font names no PostScript name (name ID 6)")


def read_metrics(font: bytes) -> FontMetrics:
    found = tables(font)
    head, hhea, os2, post = found[b"head"], found[b"hhea"], found[b"OS/2"], found[b"post"]
    (units_per_em,) = struct.unpack_from(">H", head, 18)
    bbox = struct.unpack_from(">4h", head, 36)
    ascent, descent = struct.unpack_from(">hh", hhea, 4)
    (long_metrics,) = struct.unpack_from(">H", hhea, 34)
    (glyph_count,) = struct.unpack_from(">H", found[b"maxp"], 4)
    (weight,) = struct.unpack_from(">H", os2, 4)
    (os2_version,) = struct.unpack_from(">H", os2, 0)
    cap_height = struct.unpack_from(">h", os2, 88)[0] if os2_version >= 2 else None
    (italic_angle,) = struct.unpack_from(">l", post, 4)  # 16.16 fixed point
    advances = [struct.unpack_from(">H", found[b"hmtx"], 4 * i)[0] for i in range(long_metrics)]
    advances += [advances[-1]] * (glyph_count - long_metrics)
    return FontMetrics(
        _postscript_name(found[b"name"]),
        units_per_em,
        (bbox[0], bbox[1], bbox[2], bbox[3]),
        ascent,
        descent,
        weight,
        cap_height,
        italic_angle / 65536,
        tuple(advances),
    )


def _glyph_offsets(found: dict[bytes, bytes]) -> list[int]:
    (long_offsets,) = struct.unpack_from(">h", found[b"head"], 50)
    (glyph_count,) = struct.unpack_from(">H", found[b"maxp"], 4)
    if long_offsets:
        return list(struct.unpack_from(f">{glyph_count + 1}L", found[b"loca"]))
    return [2 * half for half in struct.unpack_from(f">{glyph_count + 1}H", found[b"loca"])]


def _components(glyph: bytes) -> list[int]:
    """The glyphs a composite glyph is built of (none for a simple glyph)."""
    if len(glyph) < 10 or struct.unpack_from(">h", glyph, 0)[0] >= 0:
        return []
    parts, at, flags = [], 10, MORE_COMPONENTS
    while flags & MORE_COMPONENTS:
        flags, part = struct.unpack_from(">HH", glyph, at)
        parts.append(part)
        at += 4 + (4 if flags & ARG_1_AND_2_ARE_WORDS else 2)
        at += (
            8
            if flags & WE_HAVE_A_TWO_BY_TWO
            else 4
            if flags & WE_HAVE_AN_X_AND_Y_SCALE
            else 2
            if flags & WE_HAVE_A_SCALE
            else 0
        )
    return parts


def _pack(version: bytes, found: dict[bytes, bytes]) -> bytes:
    """An sfnt file of `found`'s tables, its checksums and head's checkSumAdjustment computed."""
    tags, search = sorted(found), 1 << (len(found).bit_length() - 1)
    header = struct.pack(
        ">4sHHHH",
        version,
        len(tags),
        16 * search,
        search.bit_length() - 1,
        16 * (len(tags) - search),
    )
    offset, records, body = 12 + 16 * len(tags), b"", b""
    for tag in tags:
        data = found[tag] + b"\0" * (-len(found[tag]) % 4)
        records += struct.pack(">4sLLL", tag, _checksum(data), offset, len(found[tag]))
        body += data
        offset += len(data)
    packed = bytearray(header + records + body)
    head_at = struct.unpack_from(">L", records, 16 * tags.index(b"head") + 8)[0]
    struct.pack_into(">L", packed, head_at + 8, (CHECKSUM_MAGIC - _checksum(packed)) % 2**32)
    return bytes(packed)


def _checksum(data: bytes | bytearray) -> int:
    padded = bytes(data) + b"\0" * (-len(data) % 4)
    words: tuple[int, ...] = struct.unpack(f">{len(padded) // 4}L", padded)
    return sum(words) % 2**32


def cut(font: bytes, glyphs: Iterable[int]) -> bytes:
    """`font` with only `glyphs` (and their parts, and .notdef) drawn; every glyph keeps its
    number and advance, the others have no outline; the layout tables are left out."""
    found = {tag: data for tag, data in tables(font).items() if tag not in LAYOUT_TABLES}
    offsets = _glyph_offsets(found)
    glyf = found[b"glyf"]
    kept, waiting = set(), [0, *glyphs]
    while waiting:
        glyph = waiting.pop()
        if glyph not in kept and 0 <= glyph < len(offsets) - 1:
            kept.add(glyph)
            waiting += _components(glyf[offsets[glyph] : offsets[glyph + 1]])
    new_glyf, new_offsets = bytearray(), [0]
    for glyph in range(len(offsets) - 1):
        if glyph in kept:
            new_glyf += glyf[offsets[glyph] : offsets[glyph + 1]]
            new_glyf += b"\0" * (-len(new_glyf) % 4)
        new_offsets.append(len(new_glyf))
    (long_offsets,) = struct.unpack_from(">h", found[b"head"], 50)
    found[b"loca"] = (
        struct.pack(f">{len(new_offsets)}L", *new_offsets)
        if long_offsets
        else struct.pack(f">{len(new_offsets)}H", *(offset // 2 for offset in new_offsets))
    )
    found[b"glyf"] = bytes(new_glyf)
    head = bytearray(found[b"head"])
    struct.pack_into(">L", head, 8, 0)  # checkSumAdjustment, computed over the whole file
    found[b"head"] = bytes(head)
    return _pack(font[:4], found)
