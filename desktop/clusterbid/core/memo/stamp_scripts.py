"""A signature stamp whose text runs in more than one script: an approver's name or a provider's
written in Chinese, Japanese, Korean or Thai is drawn in the memo's own fallback font for it
(font_ranges.py), never as empty boxes.

pyHanko's text box draws in one font, named /F1 in the stamp's resources. The stamp's engine
splits each line into runs by the font that has their glyphs (DejaVu first, then the memo's
fallbacks by script); a run in a fallback is set with its own Tf between runs in /F1, and the
stamp registers each fallback used in its resources after laying out its text. Each font is
embedded cut to the glyphs it drew (stamp_engine.py). A character no bundled font has is refused
before anything is written: PDF/A forbids drawing the missing-glyph box, and an approver must
read what they signed."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

import uharfbuzz as hb
from pyhanko.pdf_utils.content import ResourceType
from pyhanko.pdf_utils.font.api import ShapeResult
from pyhanko.pdf_utils.generic import pdf_name
from pyhanko.stamp.text import TextStamp, TextStampStyle

from clusterbid.core.errors import InputError
from clusterbid.core.memo.font_ranges import FALLBACK_FONTS, in_ranges
from clusterbid.core.memo.stamp_engine import StampFontEngine
from clusterbid.resources import resource_path

PRIMARY = b"F1"  # pyHanko's text box's font resource: the stamp font (DejaVu)


@lru_cache(maxsize=len(FALLBACK_FONTS))
def _fallback_font(index: int) -> bytes:
    return resource_path("fonts", FALLBACK_FONTS[index][1]).read_bytes()


@lru_cache(maxsize=len(FALLBACK_FONTS))
def _fallback_face(index: int) -> Any:
    return hb.Font(hb.Face(_fallback_font(index)))


def _has(face: Any, character: str) -> bool:
    return face.get_nominal_glyph(ord(character)) is not None


class ScriptStampEngine(StampFontEngine):
    """The stamp font, with the memo's fallback fonts for what it lacks, run by run."""

    def __init__(self, writer: Any, font: bytes, font_size: int, obj_stream: Any = None):
        super().__init__(writer, font, font_size, obj_stream)
        self._fallbacks: dict[int, StampFontEngine] = {}

    def shape(self, txt: str) -> ShapeResult:
        # Composed first: a name typed as e + a combining accent is the é the fonts have.
        txt = unicodedata.normalize("NFC", txt)
        runs = self._runs(txt)
        if all(which is None for which, _ in runs):
            return super().shape(txt)
        operators, advance = [], 0.0
        for which, run in runs:
            if which is None:
                shaped = super().shape(run)
                operators.append(shaped.graphics_ops)
            else:
                shaped = self._fallback(which).shape(run)
                size = b"%g" % self.font_size
                name = self.fallback_name(which).encode("ascii")
                operators.append(
                    b"/%s %s Tf %s /%s %s Tf" % (name, size, shaped.graphics_ops, PRIMARY, size)
                )
            advance += shaped.x_advance
        return ShapeResult(b" ".join(operators), advance, 0)

    def _runs(self, txt: str) -> list[tuple[int | None, str]]:
        """(fallback index or None for the stamp font, text) runs, in order."""
        runs: list[list[Any]] = []
        for character in txt:
            which = self._font_for(character, runs[-1][0] if runs else None, txt)
            if runs and runs[-1][0] == which:
                runs[-1][1] += character
            else:
                runs.append([which, character])
        return [(which, text) for which, text in runs]

    def _font_for(self, character: str, current: int | None, txt: str) -> int | None:
        # A space or a combining mark stays in its run's font when that font has it (Thai vowels
        # and tone marks belong with their consonant).
        joins = character.isspace() or unicodedata.category(character).startswith("M")
        if joins and self._face_has(current, character):
            return current
        if self._face_has(None, character):
            return None
        for index, (_, _, ranges) in enumerate(FALLBACK_FONTS):
            if in_ranges(character, ranges) and self._face_has(index, character):
                return index
        raise InputError(
            f"the signature stamp cannot draw {character!r} (U+{ord(character):04X}) in "
            f"{txt!r}: no bundled font has it; nothing was written. Ask for a certificate whose "
            "name is written in a script the memo prints (resources/fonts/README.md)"
        )

    def _face_has(self, which: int | None, character: str) -> bool:
        if which is None:
            return self._nominal(character) is not None
        return _has(_fallback_face(which), character)

    def _fallback(self, index: int) -> StampFontEngine:
        if index not in self._fallbacks:
            font = _fallback_font(index)
            engine = StampFontEngine(self.writer, font, self.font_size, self.obj_stream)
            self._fallbacks[index] = engine
        return self._fallbacks[index]

    @staticmethod
    def fallback_name(index: int) -> str:
        return f"StampFallback{index}"

    def fallback_resources(self) -> list[tuple[str, Any]]:
        """(resource name, font) of each fallback font the stamp drew with."""
        return [(self.fallback_name(i), e.as_resource()) for i, e in self._fallbacks.items()]


class ScriptTextStamp(TextStamp):
    """pyHanko's text stamp, with the fallback fonts its text used among its resources."""

    def _text_layout(self) -> Any:
        operators = super()._text_layout()  # type: ignore[no-untyped-call]
        engine = self.text_box.font_engine if self.text_box is not None else None
        if isinstance(engine, ScriptStampEngine):
            for name, font in engine.fallback_resources():
                self.set_resource(ResourceType.FONT, pdf_name("/" + name), font)
        return operators


class ScriptTextStampStyle(TextStampStyle):
    def create_stamp(self, writer: Any, box: Any, text_params: dict[str, Any]) -> TextStamp:
        return ScriptTextStamp(writer=writer, style=self, box=box, text_params=text_params)
