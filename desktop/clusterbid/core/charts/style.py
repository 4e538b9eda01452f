"""How every chart looks: size, theme, the colour-blind-safe palette, and shared axis chores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from clusterbid.core.errors import InputError
from clusterbid.core.money import SYMBOLS, format_money
from clusterbid.core.workload import Workload

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

    from clusterbid.core.scoring import Scorecard

# Okabe, M. and Ito, K. (2008), "Color Universal Design (CUD): how to make figures and
# presentations that are friendly to colorblind people", https://jfly.uni-koeln.de/color/.
# Distinguishable under protanopia, deuteranopia and tritanopia. Yellow is too pale on white
# and black is invisible on a dark background, so each theme drops the one it cannot show.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}
_LIGHT_SERIES = (
    "blue",
    "orange",
    "bluish_green",
    "vermillion",
    "reddish_purple",
    "sky_blue",
    "black",
)
_DARK_SERIES = (
    "sky_blue",
    "orange",
    "bluish_green",
    "vermillion",
    "reddish_purple",
    "yellow",
    "blue",
)
# Line styles repeat the distinction for readers who cannot rely on colour at all, and past
# seven series.
LINE_STYLES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")


@dataclass(frozen=True, slots=True)
class ChartStyle:
    """Theme and size of one figure: the app passes its theme and zoom, the memo its print size."""

    dark: bool = False
    font_scale: float = 1.0
    width_in: float = 7.5
    height_in: float = 4.5

    def __post_init__(self) -> None:
        if not 0.5 <= self.font_scale <= 4:
            raise ValueError(
                f"ChartStyle.font_scale must be between 0.5 and 4, not {self.font_scale}"
            )
        if not (1 <= self.width_in <= 40 and 1 <= self.height_in <= 40):
            raise ValueError("ChartStyle width_in and height_in must be between 1 and 40 inches")

    @property
    def background(self) -> str:
        return "#202124" if self.dark else "#FFFFFF"

    @property
    def foreground(self) -> str:
        return "#E8EAED" if self.dark else "#202124"

    @property
    def muted(self) -> str:
        """Grid lines and secondary marks."""
        return "#5F6368" if self.dark else "#C8CBCF"

    def series_colour(self, index: int) -> str:
        names = _DARK_SERIES if self.dark else _LIGHT_SERIES
        return OKABE_ITO[names[index % len(names)]]

    def font(self, role: str) -> float:
        base = {"title": 12.0, "subtitle": 9.5, "label": 10.0, "tick": 9.0, "note": 8.5}[role]
        return base * self.font_scale


# A column of an A4/Letter page inside 2 cm margins, for the approval memo.
PRINT_STYLE = ChartStyle(dark=False, font_scale=1.0, width_in=6.7, height_in=4.0)


def new_figure(
    style: ChartStyle, title: str, subtitle: str = "", label_rows: int = 0
) -> tuple[Figure, Axes]:
    """A themed Figure with one Axes; matplotlib is imported here so the app starts without it.

    `label_rows` two-line category labels stacked on the y axis make the figure taller than the
    style asks when they would otherwise overlap (many bids, large zoom)."""
    from matplotlib.figure import Figure

    row_in = 2 * 1.3 * style.font("tick") / 72 + 0.1
    overhead_in = 2.6 * style.font_scale  # title, subtitle, x axis and legend
    height = max(style.height_in, overhead_in + label_rows * row_in)
    fig = Figure(figsize=(style.width_in, height), layout="constrained", facecolor=style.background)
    # Titles wrap at the figure's edge rather than clip at a large zoom.
    fig.suptitle(
        title,
        x=0.01,
        ha="left",
        wrap=True,
        fontsize=style.font("title"),
        fontweight="bold",
        color=style.foreground,
    )
    ax = fig.add_subplot()
    ax.set_facecolor(style.background)
    if subtitle:
        # wrap=True breaks the line at the figure's right edge, measured when drawn, whatever
        # width the tick labels take at this zoom.
        ax.set_title(
            subtitle, loc="left", wrap=True, fontsize=style.font("subtitle"), color=style.foreground
        )
    return fig, ax


def finish_axes(ax: Axes, style: ChartStyle, grid_axis: Literal["both", "x", "y"] = "x") -> None:
    """Theme colours and sizes on spines, ticks, labels and grid (set per figure, never in rcParams)."""
    for side, spine in ax.spines.items():
        spine.set_visible(side in ("left", "bottom"))
        spine.set_color(style.foreground)
    ax.tick_params(
        colors=style.foreground, labelcolor=style.foreground, labelsize=style.font("tick")
    )
    for label in (ax.xaxis.label, ax.yaxis.label):
        label.set_color(style.foreground)
        label.set_fontsize(style.font("label"))
    ax.grid(True, axis=grid_axis, color=style.muted, linewidth=0.6)
    ax.set_axisbelow(True)


def legend_below(ax: Axes, style: ChartStyle, columns: int = 2) -> None:
    """The legend outside the plot, under the axes, so it never covers data; fewer columns when
    the entries would not fit the width (large zoom, long names)."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    # An entry is its text (about 0.55 em a character) plus the handle and padding (about 4 em).
    entry_points = (0.55 * max(len(label) for label in labels) + 4) * style.font("note")
    fitting = int(style.width_in * 72 * 0.95 // entry_points)
    legend = ax.figure.legend(
        handles,
        labels,
        loc="outside lower center",
        ncols=max(1, min(columns, len(handles), fitting)),
        fontsize=style.font("note"),
        frameon=False,
    )
    for text in legend.get_texts():
        text.set_color(style.foreground)


def empty_figure(title: str, message: str, style: ChartStyle | None = None) -> Figure:
    """Nothing to draw: say why in the middle of the figure rather than show an empty axis."""
    style = style or ChartStyle()
    fig, ax = new_figure(style, title)
    ax.set_axis_off()
    ax.text(
        0.5,
        0.5,
        message,
        ha="center",
        va="center",
        wrap=True,
        transform=ax.transAxes,
        fontsize=style.font("label") * 1.1,
        color=style.foreground,
    )
    return fig


def literal(text: str) -> str:
    """Text drawn as typed: matplotlib reads a pair of '$' as mathtext, so "$x^{$" in a provider's
    name would stop the chart (and the memo) and "$a$" would be drawn as math; an escaped '\\$'
    is drawn as a plain '$'."""
    return text.replace("$", r"\$")


def shorten(text: str, limit: int = 22) -> str:
    """Long provider names end in an ellipsis so tick labels do not collide; the result is literal."""
    return literal(text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026")


def compact_money(amount: float, currency: str) -> str:
    """Axis ticks: $1.2M, $350k, $2.50, -$40k, $0 (the symbol or the code from the report's SYMBOLS)."""
    magnitude = abs(float(amount))  # ticks arrive as numpy floats, which format_money cannot read
    sign = "-" if amount < 0 and magnitude >= 0.005 else ""
    if magnitude < 0.005:
        return format_money(0, currency)
    if magnitude >= 1e6:
        text = f"{magnitude / 1e6:.3g}M"
    elif magnitude >= 1e3:
        text = f"{magnitude / 1e3:.3g}k"
    else:
        return sign + format_money(magnitude, currency, cents=magnitude < 100)
    symbol = SYMBOLS.get(currency)
    return sign + (f"{symbol}{text}" if symbol else f"{text} {currency}")


def money_axis(axis: Axis, currency: str) -> None:
    """Format an axis (ax.xaxis / ax.yaxis) in the evaluation currency."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _pos: compact_money(value, currency)))


def training_workload(scorecard: Scorecard) -> Workload:
    """The scorecard's training job: these charts draw GPU counts and FLOPs, which a serving
    evaluation does not have (its charts are its own)."""
    workload = scorecard.evaluation.workload
    if not isinstance(workload, Workload):
        raise InputError("this chart draws a training job; the evaluation serves inference")
    return workload


def end_labels(
    ax: Axes, ends: list[float], rows: Sequence[float], texts: list[str], style: ChartStyle
) -> None:
    """Value labels just right of each bar (or whisker) end, and room on the axis for them."""
    right = max(ends)
    pad = right * 0.015
    for end, row, text in zip(ends, rows, texts):
        ax.text(
            end + pad,
            row,
            text,
            va="center",
            ha="left",
            fontsize=style.font("note"),
            color=style.foreground,
        )
    ax.set_xlim(0, right * 1.2)
