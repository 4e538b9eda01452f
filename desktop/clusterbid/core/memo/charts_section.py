"""The charts section: the same core/charts.py figures the app shows, as 150 dpi images (about 180 dpi as printed, where they are drawn a little smaller)."""

from __future__ import annotations

import contextlib
import io
import logging
from typing import Any

from PIL import Image as PILImage
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer

from clusterbid.core.memo import chart_cache, styles
from clusterbid.resources import resource_path

PRINT_DPI = 150


MAX_CHART_HEIGHT = 92 * mm
# The ten largest swings stay legible at print size; the full list is in `clusterbid score`.
MEMO_TORNADO_BARS = 10


class ChartImage(Flowable):
    """A raster chart drawn at a fixed size (platypus Image wants a file; this takes pixels)."""

    def __init__(self, pixels: ImageReader, width: float, height: float):
        super().__init__()
        self.pixels, self.width, self.height, self.caption = pixels, width, height, ""

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        self.canv.drawImage(self.pixels, 0, 0, self.width, self.height)


def _raster(figure) -> PILImage.Image:
    """The figure as RGB pixels at print resolution. Raw pixels skip a PNG encode and decode
    that cost a third of the export; the bytes still depend only on the figure."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="rgba", dpi=PRINT_DPI, facecolor=figure.get_facecolor())
    data = buffer.getvalue()
    exact_width, exact_height = (v * PRINT_DPI for v in figure.get_size_inches())
    # Agg truncates a fractional pixel size where round() would go up: take the width whose
    # height accounts for every pixel written.
    width = next(w for w in (int(exact_width), round(exact_width))
                 if w and len(data) % (4 * w) == 0 and abs(len(data) // (4 * w) - exact_height) < 1.5)
    height = len(data) // (4 * width)
    pixels = PILImage.frombuffer("RGBA", (width, height), data, "raw", "RGBA", 0, 1)
    return pixels.convert("RGB")


def _script_fallbacks():
    """matplotlib's font list with the memo's fallback fonts after DejaVu: a provider named in
    Chinese, Japanese, Korean or Thai is drawn in the chart labels instead of as empty boxes (the
    memo's text refuses what no font has, so nothing reaches a chart unprintable)."""
    import matplotlib
    from matplotlib import font_manager

    families = []
    for file in styles.CHART_FALLBACK_FILES:
        path = str(resource_path("fonts", file))
        if path not in {f.fname for f in font_manager.fontManager.ttflist}:
            font_manager.fontManager.addfont(path)
        families.append(font_manager.FontProperties(fname=path).get_name())
    # The fallbacks have no bold: matplotlib's note that it uses the regular weight is not news.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    return matplotlib.rc_context({"font.family": ["DejaVu Sans", *families]})


def _drawn(caption: str, build, other_scripts: bool, *drawn_from) -> tuple[PILImage.Image, tuple[float, float]]:
    """(pixels, figure inches): kept ones when the same chart was drawn before, else drawn now."""
    key = chart_cache.chart_key(caption, PRINT_DPI, MEMO_TORNADO_BARS, *drawn_from)
    kept = chart_cache.load(key)
    if kept is not None:
        return kept
    with _script_fallbacks() if other_scripts else contextlib.nullcontext():
        figure = build()
        size = tuple(float(v) for v in figure.get_size_inches())
        pixels = _raster(figure)
    chart_cache.store(key, pixels, size)
    return pixels, size


def chart_images(scorecard, uncertainty: Any = None, sensitivity: Any = None) -> list[Flowable]:
    """One image flowable per chart (its caption kept as the image's alternative text)."""
    from clusterbid.core import charts  # matplotlib: imported when a memo is drawn, not before

    style = charts.PRINT_STYLE
    other_scripts = False
    for bid in scorecard.evaluation.bids:  # the charts label bids by provider: refuse boxes before drawing
        styles.markup(bid.quote.provider)
        other_scripts = other_scripts or styles.needs_fallback(bid.quote.provider)
    builders = [
        ("Sticker price vs effective price per useful GPU-hour", lambda: charts.sticker_vs_effective_price(scorecard, style)),
        ("Net cost of the plan" + (" with P10-P90 bands" if uncertainty is not None else ""),
         lambda: charts.cost_to_finish_bands(scorecard, uncertainty, style)),
        ("Effective MFU as the job grows, per bid", lambda: charts.scaling_curves(scorecard, style)),
    ]
    if sensitivity is not None:
        builders.append(("What moves the net cost (tornado)",
                         lambda: charts.sensitivity_tornado(sensitivity, scorecard, style=style,
                                                            max_bars=MEMO_TORNADO_BARS)))
    out: list[Flowable] = []
    for caption, build in builders:
        drawn_from = (style, scorecard, uncertainty, sensitivity)
        pixels, (fig_width, fig_height) = _drawn(caption, build, other_scripts, *drawn_from)
        width = min(styles.CONTENT_WIDTH, MAX_CHART_HEIGHT * fig_width / fig_height)
        image = ChartImage(ImageReader(pixels), width, width * fig_height / fig_width)
        # The figure carries its own title; the caption is the image's alternative text.
        image.caption = caption
        out.append(image)
    return out


def charts_section(images: list[Flowable] | None) -> list[Flowable]:
    s = styles.paragraph_styles()
    head = Paragraph("4. Charts", s["h1"])
    if images is None:
        note = "Charts: not available in this build (the charts module is not installed)."
        return [CondPageBreak(30 * mm), head, Paragraph(note, s["warn"])]
    # The heading travels with the first chart so it is never stranded at a page foot. Flat: a
    # KeepTogether nested in another reports 16,777,215 points and never fits below anything.
    return [KeepTogether([head, images[0], Spacer(1, 3 * mm)])] + [
        f for image in images[1:] for f in (image, Spacer(1, 3 * mm))]
