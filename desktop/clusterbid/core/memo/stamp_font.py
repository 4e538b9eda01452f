"""The font each signature's stamp is drawn in: the memo's DejaVu Sans, embedded (PDF/A asks
every font drawn to be embedded; pyHanko's default stamp font, standard Courier, is not).

pyHanko's OpenType engine writes glyph widths and kerning in the font's own units as if there
were 1,000 to the em (it reads the font's units only for HarfBuzz's advances); DejaVu has 2,048,
so its stamp printed every letter twice as far apart as it should, clipped at the box's edge.
The stamp's own engine (stamp_engine.py, in pyHanko's place since its import of fontTools cost
each signature a fifth of its time) converts to thousandths of an em itself; it draws from a copy
scaled to 1,000 units (fontTools' scale_upem), made for pyHanko's engine, cut first to the
scripts DejaVu covers that a name or amount is written in. Cutting and scaling cost about a CPU
second, a third of a `clusterbid sign` (issue 32 item 7), so the copy is made once, by
`packaging/make_stamp_font.py`, and shipped as resources/fonts/DejaVuSans-stamp.ttf; a test derives
it again and compares the bytes, so it cannot drift from the font it is cut from."""

from __future__ import annotations

import functools
import logging
from io import BytesIO
from typing import Any

from pyhanko.pdf_utils.font.api import FontEngine, FontEngineFactory

from clusterbid.resources import resource_path

PDF_UNITS_PER_EM = 1000
# Latin with its extensions and IPA, combining accents, Greek, Cyrillic, Latin Extended
# Additional (Vietnamese), general punctuation, currency, letterlike
KEPT = (
    (0x20, 0x2AF),
    (0x300, 0x36F),
    (0x370, 0x52F),
    (0x1E00, 0x1EFF),
    (0x2000, 0x20CF),
    (0x2100, 0x214F),
)


STAMP_FONT = "fonts/DejaVuSans-stamp.ttf"  # derived_stamp_font()'s bytes, shipped


@functools.lru_cache(maxsize=1)
def _scaled_font() -> bytes:
    return resource_path(STAMP_FONT).read_bytes()


def derived_stamp_font() -> bytes:
    """The stamp font made from the bundled DejaVu Sans: cut to KEPT, scaled to 1,000 units per
    em. Its `head` table keeps the source's dates, so the same fontTools gives the same bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.scaleUpem import scale_upem

    # fontTools says on the terminal which tables a subset leaves out; none is needed here
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    font = TTFont(str(resource_path("fonts/DejaVuSans.ttf")), recalcTimestamp=False)
    options = subset.Options()
    options.layout_features, options.name_IDs, options.notdef_outline = ["*"], ["*"], True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[code for start, end in KEPT for code in range(start, end + 1)])
    cutter.subset(font)
    scale_upem(font, PDF_UNITS_PER_EM)
    out = BytesIO()
    font.save(out)
    return out.getvalue()


class StampFontFactory(FontEngineFactory):
    """The stamp's engine (stamp_engine.py) on the shipped copy, read from memory. Imported when a
    stamp is drawn: verify (which imports signing.py for its names) draws none."""

    font_size = 10

    def create_font_engine(self, writer: Any, obj_stream: Any = None) -> FontEngine:
        from clusterbid.core.memo.stamp_scripts import ScriptStampEngine

        # obj_stream stays as given: the memo's updates are written without object streams
        return ScriptStampEngine(writer, _scaled_font(), self.font_size, obj_stream)


def stamp_font() -> StampFontFactory:
    return StampFontFactory()
