"""Repeatable bytes, no metadata, lazy imports, and nothing drawn outside the figure or over data."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from tests.conftest import REPO
from tests.core.charts.conftest import (
    BidUncertainty,
    Sensitivity,
    TornadoBar,
    UncertaintyResult,
    visible_texts,
)

from clusterbid.core.charts import (
    PRINT_STYLE,
    ChartStyle,
    busbw_curve,
    cost_to_finish_bands,
    figure_to_pdf,
    figure_to_png_bytes,
    figure_to_svg,
    scaling_curves,
    sensitivity_tornado,
    sticker_vs_effective_price,
)
from clusterbid.core.evidence import parse_nccl_tests_text

REAL_LOG = REPO / "tests" / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"


def every_chart(scorecard, style):
    """Each chart on the demo, with hand-made uncertainty and tornado inputs."""
    winner = scorecard.ranked[0]
    base = winner.estimate.plan_cost
    bands = UncertaintyResult(
        {s.bid.id: BidUncertainty(1.0e6, 1.2e6, 1.5e6) for s in scorecard.ranked}
    )
    tornado = Sensitivity(
        [
            TornadoBar("baseline MFU", winner.bid.id, base + 1e5, base - 8e4),
            TornadoBar("busbw", winner.bid.id, base + 3e4, base - 1e4),
        ]
    )
    runs = parse_nccl_tests_text(REAL_LOG.read_text(encoding="utf-8"), source=REAL_LOG.name)
    return {
        "sticker": sticker_vs_effective_price(scorecard, style=style),
        "cost": cost_to_finish_bands(scorecard, bands, style=style),
        "scaling": scaling_curves(scorecard, style=style),
        "busbw": busbw_curve(runs, nic_aggregate_gb_s=200.0, style=style),
        "tornado": sensitivity_tornado(tornado, scorecard, style=style),
    }


def test_two_renders_give_identical_png_svg_and_pdf(demo_scorecard):
    first = every_chart(demo_scorecard, PRINT_STYLE)
    second = every_chart(demo_scorecard, PRINT_STYLE)
    for name in first:
        assert figure_to_png_bytes(first[name], 100) == figure_to_png_bytes(second[name], 100), name
        assert figure_to_svg(first[name]) == figure_to_svg(second[name]), name
        assert figure_to_pdf(first[name]) == figure_to_pdf(second[name]), name


RENDER_IN_A_NEW_PROCESS = """
import hashlib
from clusterbid.core.charts import PRINT_STYLE, figure_to_pdf, figure_to_png_bytes, figure_to_svg, scaling_curves
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.scoring import score_evaluation
fig = scaling_curves(score_evaluation(demo_evaluation()), style=PRINT_STYLE)
for data in (figure_to_png_bytes(fig, 100), figure_to_svg(fig).encode(), figure_to_pdf(fig)):
    print(hashlib.sha256(data).hexdigest())
"""


def test_a_fresh_process_renders_the_same_bytes(demo_scorecard):
    # SVG ids are salted with a random UUID by default, fresh in every process: this is where a
    # missing fixed salt or a timestamp would show.
    fig = scaling_curves(demo_scorecard, style=PRINT_STYLE)
    here = [
        hashlib.sha256(d).hexdigest()
        for d in (figure_to_png_bytes(fig, 100), figure_to_svg(fig).encode(), figure_to_pdf(fig))
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO / "desktop")}
    there = subprocess.run(
        [sys.executable, "-c", RENDER_IN_A_NEW_PROCESS],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    assert there == here


def test_outputs_carry_no_dates_or_tool_stamps(demo_scorecard):
    fig = sticker_vs_effective_price(demo_scorecard)
    png = figure_to_png_bytes(fig, 72)
    assert png.startswith(b"\x89PNG") and b"tEXt" not in png and b"Software" not in png
    svg = figure_to_svg(fig)
    assert svg.lstrip().startswith("<?xml") and "<dc:date>" not in svg and "Matplotlib" not in svg
    pdf = figure_to_pdf(fig)
    assert pdf.startswith(b"%PDF") and b"/CreationDate" not in pdf and b"/Producer" not in pdf


def test_importing_the_charts_loads_neither_qt_nor_matplotlib():
    code = (
        "import sys, clusterbid.core.charts; print(sorted(m for m in ('PySide6', 'matplotlib') if "
        "m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "desktop")}
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert loaded.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "style",
    [ChartStyle(), ChartStyle(dark=True, font_scale=1.6), PRINT_STYLE],
    ids=["light", "dark-zoomed", "print"],
)
def test_nothing_is_clipped_and_legends_stay_off_the_data(demo_scorecard, style):
    for name, fig in every_chart(demo_scorecard, style).items():
        canvas = FigureCanvasAgg(fig)  # the memo's raster path; positions are final after a draw
        canvas.draw()
        renderer = canvas.get_renderer()
        page = fig.bbox
        for text in visible_texts(fig):
            box = text.get_window_extent(renderer)
            inside = (
                box.x0 >= page.x0 - 1
                and box.x1 <= page.x1 + 1
                and box.y0 >= page.y0 - 1
                and box.y1 <= page.y1 + 1
            )
            assert inside, f"{name}: {text.get_text()!r} is cut off at {box} (figure {page})"
        ax = fig.axes[0]
        ticks = [
            t.label1.get_window_extent(renderer)
            for t in ax.yaxis.get_major_ticks()
            if t.label1.get_text()
        ]
        if (
            name != "busbw" and name != "scaling"
        ):  # category labels; numeric ticks are spaced by matplotlib
            assert not any(a.overlaps(b) for a, b in zip(ticks, ticks[1:])), (
                f"{name}: y tick labels overlap"
            )
        assert ax.get_legend() is None and len(fig.legends) == 1, name
        legend_box = fig.legends[0].get_window_extent(renderer)
        assert not legend_box.overlaps(ax.get_window_extent(renderer)), (
            f"{name}: the legend covers the plot"
        )


def test_dark_style_paints_a_dark_background_with_light_text(demo_scorecard):
    fig = scaling_curves(demo_scorecard, style=ChartStyle(dark=True))
    ax = fig.axes[0]
    assert fig.get_facecolor()[:3] == pytest.approx((0x20 / 255, 0x21 / 255, 0x24 / 255))
    assert ax.xaxis.label.get_color() == "#E8EAED"
    # Black, the one Okabe-Ito colour a dark background hides, is not used for any bid.
    assert all(line.get_color() != "#000000" for line in ax.lines)


def test_chart_style_rejects_sizes_that_cannot_be_drawn():
    with pytest.raises(ValueError, match="font_scale"):
        ChartStyle(font_scale=0)
    with pytest.raises(ValueError, match="width_in and height_in"):
        ChartStyle(width_in=0.1)
