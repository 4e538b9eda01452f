"""The memo's fonts: the bundled DejaVu faces, the fallback faces for scripts DejaVu lacks, and
the markup that sets each run of text in a face that draws it (refusing what none can draw).

Kept apart from styles.py (colours, geometry, paragraph and table styles) because this is about
which characters can be printed at all, which the charts and the page checks ask too."""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from typing import Any
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from clusterbid.core.errors import InputError
from clusterbid.core.memo.font_ranges import FALLBACK_FONTS as FALLBACK_FONTS
from clusterbid.resources import resource_path

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"


@lru_cache(maxsize=1)
def register_fonts() -> None:
    """Register the bundled TTFs once per process (reportlab keeps a global registry)."""
    pdfmetrics.registerFont(TTFont(FONT, str(resource_path("fonts", "DejaVuSans.ttf"))))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(resource_path("fonts", "DejaVuSans-Bold.ttf"))))
    pdfmetrics.registerFontFamily(
        FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD
    )


@lru_cache(maxsize=1)
def _main_code_points() -> frozenset[int]:
    register_fonts()
    return frozenset(pdfmetrics.getFont(FONT).face.charToGlyph)


@cache
def _code_points_of(name: str, file: str) -> frozenset[int]:
    """What a fallback font draws; each is read (30-40 ms) only when some text needs it."""
    pdfmetrics.registerFont(TTFont(name, str(resource_path("fonts", file))))
    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


def _beyond_main(text: str) -> list[str]:
    main = _main_code_points()
    return [
        c
        for c in dict.fromkeys(text)
        if ord(c) not in main and c not in "\n\t " and unicodedata.category(c)[0] != "C"
    ]


def _right_to_left(char: str) -> bool:
    # DejaVu draws Hebrew and Arabic letters, but reportlab sets text left to right without
    # joining Arabic forms: such a name would print reversed and broken, so it is refused too.
    return unicodedata.bidirectional(char) in ("R", "AL")


def fallback_face(char: str) -> str | None:
    """The fallback font that draws char (None: none of them). A font is read only for a
    character in its ranges, so a Chinese name never loads the Korean font."""
    point = ord(char)
    return next(
        (
            name
            for name, file, ranges in FALLBACK_FONTS
            if any(first <= point <= last for first, last in ranges)
            and point in _code_points_of(name, file)
        ),
        None,
    )


def needs_fallback(text: str) -> bool:
    """Whether text has characters DejaVu cannot draw (the charts then add the fallback fonts)."""
    return bool(_beyond_main(text))


def needs_script_fallbacks(scorecard: Any) -> bool:
    """Whether a provider name the charts label bars with needs a font other than DejaVu; a name
    no font can print is refused here, before anything is drawn."""
    other_scripts = False
    for bid in scorecard.evaluation.bids:
        markup(bid.quote.provider)
        other_scripts = other_scripts or needs_fallback(bid.quote.provider)
    return other_scripts


def unprintable(text: str) -> list[str]:
    """The characters of text that no bundled font can draw, or only backwards (right to left)."""
    rtl = [c for c in dict.fromkeys(text) if _right_to_left(c)]
    return rtl + [c for c in _beyond_main(text) if fallback_face(c) is None]


def face_runs(text: str, font: str) -> list[tuple[str, str]]:
    """(font, text) runs: characters DejaVu lacks in the fallback font that has them."""
    if not needs_fallback(text):
        return [(font, text)]
    main = _main_code_points()
    runs: list[tuple[str, str]] = []
    for char in text:
        face = font if ord(char) in main or char in "\n\t " else fallback_face(char) or font
        if runs and runs[-1][0] == face:
            runs[-1] = (face, runs[-1][1] + char)
        else:
            runs.append((face, char))
    return runs


def markup(text: object) -> str:
    """Escape text for a Paragraph (newlines become line breaks) and set runs DejaVu cannot draw
    in the fallback font that has them. A character no font has would print as an empty box:
    refused, naming the text and the character, so the officer can write the name another way."""
    return _markup(str(text))


@lru_cache(maxsize=4096)  # a long memo repeats its labels and phrases on every bid's rows
def _markup(text: str) -> str:
    missing = unprintable(text)
    if missing:
        names = ", ".join(
            f"{c!r} (U+{ord(c):04X} {unicodedata.name(c, 'unnamed')})" for c in missing[:3]
        )
        at = text.index(missing[0])
        why = (
            "is written right to left, which the memo cannot set"
            if _right_to_left(missing[0])
            else "is in none of its fonts (DejaVu Sans; Droid Sans Fallback for Chinese and "
            "Japanese, Nanum Gothic for Korean, Noto Sans Thai) and would show as an empty box"
        )
        raise InputError(
            f"the memo cannot print {names} in {text[max(0, at - 30) : at + 30]!r}: that character "
            f"{why}. Write that text with other characters (for a provider, its name in Latin "
            "letters as on its registration)."
        )
    out: list[str] = []
    for face, chunk in face_runs(text, FONT):
        body = escape(chunk).replace("\n", "<br/>")
        out.append(body if face == FONT else f'<font face="{face}">{body}</font>')
    return "".join(out)
