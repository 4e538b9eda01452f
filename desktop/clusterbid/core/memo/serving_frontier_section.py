"""The serving memo's frontier (issue 37): the chart View > Serving Frontier shows, drawn by the
same figure builder (charts.serving_frontier_figure) at print resolution, so the approver sees
what a looser or tighter latency target would buy, not one point per bid."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer

from clusterbid.core.memo import styles
from clusterbid.core.memo.chart_drawing import charted, draw_chart
from clusterbid.core.memo.charts_section import ChartImage, printed_height
from clusterbid.core.memo.flowables import para
from clusterbid.core.memo.fonts import needs_script_fallbacks

CAPTION = "Throughput per GPU against speed per user, over batch sizes"


def frontier_section(scorecard: Any, number: int) -> list[Flowable]:
    """Section `number`: the frontier chart and how to read it; empty when no bid can serve (the
    decision already says so)."""
    if not scorecard.ranked:
        return []
    from clusterbid.core import (
        charts,  # matplotlib: loaded when the memo draws its chart, not before
    )
    from clusterbid.core.charts.serving_frontier import serving_frontier_figure

    shown = charted(scorecard)  # the leading bids when there are more than a chart keeps legible
    pixels, (width_in, height_in) = draw_chart(
        lambda: serving_frontier_figure(shown, charts.PRINT_STYLE),
        needs_script_fallbacks(scorecard),
    )
    width = min(styles.CONTENT_WIDTH, printed_height(height_in) * width_in / height_in)
    image = ChartImage(ImageReader(pixels), width, width * height_in / width_in)
    image.caption = CAPTION
    target = scorecard.evaluation.workload.tpot_target_ms
    words = (
        "Each curve is one bid at the tensor-parallel degree it was costed at, over every batch "
        "that fits its "
        "GPUs' memory; the marker is the batch its fleet is sized at. Moving left along a curve (a "
        "larger "
        "batch) buys more output tokens per GPU-hour, so a lower cost per token, at a slower speed "
        "for each "
        f"user. The ranked cost is read where a curve meets the {target:g} ms per token target "
        "(the dotted "
        "line); cost per million output tokens before queueing headroom, whole nodes and spares is "
        "the price "
        "per GPU-hour / (3,600 x tokens per second per GPU) x 1,000,000."
    )
    return [
        CondPageBreak(60 * mm),
        KeepTogether(
            [
                para(f"{number}. The frontier: cost against speed per user", "h1"),
                para(words, "small"),
                image,
            ]
        ),
        Spacer(1, 3 * mm),
    ]
