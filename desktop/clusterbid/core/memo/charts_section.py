"""The charts section: the same core/charts figures the app shows, as 150 dpi images (about 180
dpi as printed, where they are drawn a little smaller)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer

from clusterbid.core.memo import chart_cache, early_charts, styles
from clusterbid.core.memo.chart_drawing import MEMO_CHART_BIDS, chart_specs
from clusterbid.core.memo.chart_fork import draw_missing
from clusterbid.core.memo.fonts import needs_script_fallbacks

# A chart up to a few bars (4.6 in) is printed 92 mm tall; each inch a chart of many bars has
# beyond that adds what an inch of the 4-inch default takes (23 mm), up to most of a page, so its
# type stays near the other charts' size.
CHART_HEIGHT, TALL_FROM_IN, PRINTED_PER_INCH, MAX_CHART_HEIGHT = (
    92 * mm,
    4.6,
    92 * mm / 4.0,
    190 * mm,
)


def printed_height(figure_height_in: float) -> float:
    tall = max(0.0, figure_height_in - TALL_FROM_IN) * PRINTED_PER_INCH
    return min(CHART_HEIGHT + tall, MAX_CHART_HEIGHT)


class ChartImage(Flowable):
    """A raster chart drawn at a fixed size (platypus Image wants a file; this takes pixels)."""

    def __init__(self, pixels: ImageReader, width: float, height: float):
        super().__init__()
        self.pixels, self.width, self.height, self.caption = pixels, width, height, ""

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        self.canv.drawImage(self.pixels, 0, 0, self.width, self.height)


def chart_images(
    scorecard,
    uncertainty: Any = None,
    sensitivity: Any = None,
) -> list[Flowable]:
    """One image flowable per chart (its caption kept as the image's alternative text): kept
    pixels where the same chart was drawn before, else drawn here. Both give the same pixels."""
    other_scripts = needs_script_fallbacks(scorecard)
    specs = chart_specs(scorecard, uncertainty, sensitivity)
    early = early_charts.take_early(scorecard, uncertainty, sensitivity)  # started by making.py
    keys, found = (
        (early.keys, early.found)
        if early is not None
        else early_charts.chart_lookups(scorecard, uncertainty, sensitivity)
    )
    child = early.child if early is not None else []
    missing = [position for position, chart in enumerate(found) if chart is None]
    drawings = [(position, specs[position][1]) for position in missing if position not in child]
    try:
        drawn = draw_missing(drawings, other_scripts)
    except BaseException:
        early_charts.stop(early)  # the early child, no longer waited for
        raise
    if early is not None:  # the charts the early child drew, taken once this one drew its own
        drawn.update(early_charts.collect(early, specs, other_scripts))
    out: list[Flowable] = []
    for position, ((caption, _build), chart) in enumerate(zip(specs, found)):
        if chart is None:
            chart = drawn[position]
            chart_cache.store(keys[position], *chart)
        pixels, (fig_width, fig_height) = chart
        width = min(styles.CONTENT_WIDTH, printed_height(fig_height) * fig_width / fig_height)
        image = ChartImage(ImageReader(pixels), width, width * fig_height / fig_width)
        # The figure carries its own title; the caption is the image's alternative text.
        image.caption = caption
        out.append(image)
    return out


def charts_section(images: list[Flowable] | None, bids: int = 0) -> list[Flowable]:
    """`bids`: how many bids the memo holds; beyond what a chart shows legibly, a line says which
    of them the charts draw."""
    s = styles.paragraph_styles()
    head: list[Flowable] = [Paragraph("4. Charts", s["h1"])]
    if bids > MEMO_CHART_BIDS:
        head.append(
            Paragraph(
                f"The charts draw the {MEMO_CHART_BIDS} leading bids by rank of the {bids:,} in "
                "this memo; "
                "section 3 ranks every bid and sections 2 and 6 list each one.",
                s["small"],
            )
        )
    if images is None:
        note = "Charts: not available in this build (the charts module is not installed)."
        return [CondPageBreak(30 * mm), *head, Paragraph(note, s["warn"])]
    # The heading travels with the first chart so it is never stranded at a page foot. Flat: a
    # KeepTogether nested in another reports 16,777,215 points and never fits below anything.
    return [KeepTogether([*head, images[0], Spacer(1, 3 * mm)])] + [
        f for image in images[1:] for f in (image, Spacer(1, 3 * mm))
    ]
