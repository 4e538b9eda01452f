"""Make resources/fonts/DroidSansFallback-CJK.ttf: the CJK characters a provider's name is written
in, cut from Droid Sans Fallback (Apache-2.0, Google; Debian package fonts-droid-fallback, file
DroidSansFallbackFull.ttf), so the approval memo can embed them instead of naming a font the
reader's viewer may not have.

    python packaging/make_cjk_font_subset.py DroidSansFallbackFull.ttf resources/fonts/DroidSansFallback-CJK.ttf

Kept: the Han characters of GB 2312 (simplified Chinese), Big5 level 1 (traditional Chinese) and
JIS X 0208 levels 1 and 2 (Japanese), all kana, the Hangul syllables of KS X 1001 (Korean), CJK
punctuation and full-width forms. A TrueType (glyf) font, which reportlab can subset into a PDF;
Noto CJK is CFF-flavoured OpenType, which it cannot. The same source gives the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset


def _decodable(codec: str, lead: range, trail: range) -> set[int]:
    """Code points of every two-byte character of a legacy CJK encoding in the given byte ranges."""
    points: set[int] = set()
    for high in lead:
        for low in trail:
            try:
                points.update(ord(c) for c in bytes([high, low]).decode(codec))
            except UnicodeDecodeError:
                continue
    return points


def code_points() -> set[int]:
    points = set()
    points |= _decodable("gb2312", range(0xB0, 0xF8), range(0xA1, 0xFF))  # GB 2312 hanzi
    points |= _decodable("big5", range(0xA4, 0xC7), range(0x40, 0xFF))  # Big5 level 1 (frequent)
    points |= _decodable("euc_jp", range(0xB0, 0xF5), range(0xA1, 0xFF))  # JIS X 0208 kanji
    points |= _decodable("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))  # KS X 1001 Hangul
    points |= set(range(0x3000, 0x3040))  # CJK symbols and punctuation
    points |= set(range(0x3040, 0x3100))  # hiragana, katakana
    points |= set(range(0x31F0, 0x3200))  # katakana phonetic extensions
    points |= set(range(0xFF00, 0xFFF0))  # half-width and full-width forms
    return {p for p in points if p >= 0x2E80}  # Latin and the rest stay DejaVu's


def main(source: str, target: str) -> None:
    options = subset.Options()
    options.layout_features = []  # no shaping tables: the memo sets CJK text glyph by glyph
    options.hinting = False
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.notdef_outline = True
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(code_points()))
    subsetter.subset(font)
    font["head"].modified = font[
        "head"
    ].created  # no build time in the file: same source, same bytes
    subset.save_font(font, target, options)
    print(
        f"{target}: {len(font.getBestCmap()):,} characters, {Path(target).stat().st_size:,} bytes"
    )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_cjk_font_subset.py SOURCE.ttf TARGET.ttf")
    main(sys.argv[1], sys.argv[2])
