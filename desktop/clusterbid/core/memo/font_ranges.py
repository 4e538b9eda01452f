"""Which bundled font draws a character DejaVu lacks, by script: one table for the memo's text
(fonts.py, reportlab) and the signature stamp's (stamp_scripts.py, pyHanko), so a name prints in
the same face on the page and in its stamp. Pure data: the stamp reads it without reportlab."""

from __future__ import annotations

# A character DejaVu lacks is set in the first of these whose script ranges hold it and that has
# its glyph, embedded (subset) like DejaVu (resources/fonts/README.md). A character none has is
# refused. Korean comes first so a Korean word never mixes in the CJK cut's one stray syllable.
_HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))
FALLBACK_FONTS = (  # (registered name, file, code-point ranges it serves)
    ("NanumGothic", "NanumGothic.ttf", _HANGUL),  # Korean
    (
        "DroidSansFallback-CJK",
        "DroidSansFallback-CJK.ttf",
        ((0x2E80, 0x10FFFF),),
    ),  # Chinese, Japanese
    ("NotoSansThai", "NotoSansThai-Regular.ttf", ((0x0E00, 0x0E7F),)),  # Thai
)


def in_ranges(character: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(character) <= high for low, high in ranges)
