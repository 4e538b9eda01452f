"""The memo's charts as pixels: which charts, drawn how (reportlab-free: pixels only)."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Callable
from typing import Any

from PIL import Image as PILImage

from clusterbid.resources import resource_path

PRINT_DPI = 150  # about 180 dpi as printed, where the charts are drawn a little smaller
# The ten largest swings stay legible at print size; the full list is in `clusterbid score`.
MEMO_TORNADO_BARS = 10
# As many bids as a printed chart keeps legible (a bar pair or a curve and its legend entry
# each); with more, the charts show the leaders by rank and section 3 lists every bid.
MEMO_CHART_BIDS = 10
# Fonts for characters DejaVu lacks. matplotlib falls back glyph by glyph through a family list
# with no script ranges: the CJK cut goes first, or a Chinese name would take Nanum's Hanja for
# some characters (the memo's text picks by script: styles.FALLBACK_FONTS).
FALLBACK_FONT_FILES = ("DroidSansFallback-CJK.ttf", "NanumGothic.ttf", "NotoSansThai-Regular.ttf")

Chart = tuple[PILImage.Image, tuple[float, float]]  # RGB pixels, figure size in inches


def chart_specs(
    scorecard: Any, uncertainty: Any = None, sensitivity: Any = None
) -> list[tuple[str, Callable[[], Any]]]:
    """(caption, figure builder) per chart, in the memo's order."""
    from clusterbid.core import charts  # matplotlib: imported when a chart is drawn, not before
    from clusterbid.core.memo.bid_words import bid_names

    style = charts.PRINT_STYLE
    every_bid, scorecard = scorecard, charted(scorecard)
    specs: list[tuple[str, Callable[[], Any]]] = [
        (
            "Sticker price vs effective price per useful GPU-hour",
            lambda: charts.sticker_vs_effective_price(scorecard, style),
        ),
        (
            "Net cost of the plan" + (" with P10-P90 bands" if uncertainty is not None else ""),
            lambda: charts.cost_to_finish_bands(scorecard, uncertainty, style),
        ),
        (
            "Effective MFU as the job grows, per bid",
            lambda: charts.scaling_curves(scorecard, style),
        ),
    ]
    if sensitivity is not None:
        specs.append(
            (
                "What moves the net cost (tornado)",
                lambda: charts.sensitivity_tornado(
                    sensitivity,
                    every_bid,
                    style=style,
                    max_bars=MEMO_TORNADO_BARS,
                    names=bid_names(every_bid.scores),
                ),
            )
        )
    return specs


def charted(scorecard: Any) -> Any:
    """The scorecard the charts draw: every bid up to MEMO_CHART_BIDS, else the leading ones by
    rank (fifty curves and their legend would hide one another)."""
    import dataclasses

    if len(scorecard.scores) <= MEMO_CHART_BIDS:
        return scorecard
    return dataclasses.replace(scorecard, scores=tuple(scorecard.ranked[:MEMO_CHART_BIDS]))


def draw_chart(build: Callable[[], Any], other_scripts: bool) -> Chart:
    """A chart's pixels at print resolution, with the fallback fonts when a label needs them."""
    with script_fallbacks() if other_scripts else contextlib.nullcontext():
        figure = build()
        size = (float(figure.get_size_inches()[0]), float(figure.get_size_inches()[1]))
        return raster(figure), size


def raster(figure: Any) -> PILImage.Image:
    """The figure as RGB pixels at print resolution. Raw pixels skip a PNG encode and decode
    that cost a third of the export; the bytes still depend only on the figure."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="rgba", dpi=PRINT_DPI, facecolor=figure.get_facecolor())
    data = buffer.getvalue()
    exact_width, exact_height = (v * PRINT_DPI for v in figure.get_size_inches())
    # Agg truncates a fractional pixel size where round() would go up: take the width whose
    # height accounts for every pixel written.
    width = next(
        w
        for w in (int(exact_width), round(exact_width))
        if w and len(data) % (4 * w) == 0 and abs(len(data) // (4 * w) - exact_height) < 1.5
    )
    height = len(data) // (4 * width)
    pixels = PILImage.frombuffer("RGBA", (width, height), data, "raw", "RGBA", 0, 1)
    return pixels.convert("RGB")


def script_fallbacks() -> contextlib.AbstractContextManager[Any]:
    """matplotlib's font list with the memo's fallback fonts after DejaVu: a provider named in
    Chinese, Japanese, Korean or Thai is drawn in the chart labels instead of as empty boxes (the
    memo's text refuses what no font has, so nothing reaches a chart unprintable)."""
    import matplotlib
    from matplotlib import font_manager

    families = []
    for file in FALLBACK_FONT_FILES:
        path = str(resource_path("fonts", file))
        if path not in {f.fname for f in font_manager.fontManager.ttflist}:
            font_manager.fontManager.addfont(path)
        families.append(font_manager.FontProperties(fname=path).get_name())
    # The fallbacks have no bold: matplotlib's note that it uses the regular weight is not news.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    return matplotlib.rc_context({"font.family": ["DejaVu Sans", *families]})
