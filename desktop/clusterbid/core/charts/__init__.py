"""Matplotlib figures shared by the app and the memo; matplotlib loads on the first chart drawn."""

from clusterbid.core.charts.curves import busbw_curve, scaling_curves
from clusterbid.core.charts.export import figure_to_pdf, figure_to_png_bytes, figure_to_svg
from clusterbid.core.charts.prices import cost_to_finish_bands, sticker_vs_effective_price
from clusterbid.core.charts.style import OKABE_ITO, PRINT_STYLE, ChartStyle, empty_figure
from clusterbid.core.charts.tornado import sensitivity_tornado

__all__ = [
    "OKABE_ITO",
    "PRINT_STYLE",
    "ChartStyle",
    "busbw_curve",
    "cost_to_finish_bands",
    "empty_figure",
    "figure_to_pdf",
    "figure_to_png_bytes",
    "figure_to_svg",
    "scaling_curves",
    "sensitivity_tornado",
    "sticker_vs_effective_price",
]
