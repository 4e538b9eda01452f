"""The charts section: the same core/charts.py figures the app shows, as 200 dpi PNGs."""

from __future__ import annotations

import importlib
import io
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Image, KeepTogether, Paragraph, Spacer

from clusterbid.core.memo import styles

PRINT_DPI = 200


def _charts_module():
    """core/charts.py is built on its own branch; until it is merged the memo says so."""
    try:
        return importlib.import_module("clusterbid.core.charts")
    except ModuleNotFoundError as exc:
        if exc.name != "clusterbid.core.charts":
            raise
        return None


def figure_png(figure) -> bytes:
    """Agg PNG with no software/time metadata, so the bytes depend only on the figure."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=PRINT_DPI, metadata={"Software": None})
    return buffer.getvalue()


def chart_images(scorecard, uncertainty: Any = None, sensitivity: Any = None) -> list[Flowable] | None:
    """(caption, image) flowables for each chart; None when the charts module is not available."""
    charts = _charts_module()
    if charts is None:
        return None
    builders = [
        ("Sticker price vs effective price per useful GPU-hour", lambda: charts.sticker_vs_effective_price(scorecard)),
        ("Cost to finish" + (" with P10-P90 bands" if uncertainty is not None else ""),
         lambda: charts.cost_to_finish_bands(scorecard, uncertainty=uncertainty)),
        ("Effective MFU as the job grows, per bid", lambda: charts.scaling_curves(scorecard)),
    ]
    if sensitivity is not None:
        builders.append(("What moves the cost to finish (tornado)", lambda: charts.sensitivity_tornado(sensitivity)))
    out: list[Flowable] = []
    for caption, build in builders:
        figure = build()
        fig_width, fig_height = figure.get_size_inches()
        width = styles.CONTENT_WIDTH
        height = width * fig_height / fig_width
        image = Image(io.BytesIO(figure_png(figure)), width=width, height=min(height, 110 * mm))
        if height > 110 * mm:  # keep the aspect ratio when a tall figure is capped
            image.drawWidth = 110 * mm * fig_width / fig_height
        out.append(KeepTogether([Paragraph(styles.markup(caption), styles.paragraph_styles()["h2"]), image, Spacer(1, 3 * mm)]))
    return out


def charts_section(images: list[Flowable] | None) -> list[Flowable]:
    s = styles.paragraph_styles()
    head = [CondPageBreak(80 * mm), Paragraph("4. Charts", s["h1"])]
    if images is None:
        return head + [Paragraph("Charts: not available in this build (the charts module is not installed).", s["warn"])]
    return head + images
