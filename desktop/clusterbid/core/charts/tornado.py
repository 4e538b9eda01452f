"""The tornado: which inputs move the net cost most, one bar per input from its low to its high
case, each bar of several bids named as the memo names the bid (apart from prices.py for size)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clusterbid.core.charts.style import (
    ChartStyle,
    compact_money,
    empty_figure,
    finish_axes,
    legend_below,
    literal,
    money_axis,
    new_figure,
)
from clusterbid.core.money import format_money

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from clusterbid.core.scoring import Scorecard


def _tornado_bases(
    sensitivity: Any, scorecard: Scorecard | None, base_cost: float | None
) -> list[float]:
    """The cost each bar swings around: given, on the Sensitivity, on the bar, or the bid's estimate."""
    costs = {} if scorecard is None else {s.bid.id: s.estimate.plan_cost for s in scorecard.scores}
    bases = []
    for bar in sensitivity.tornado:
        base = (
            base_cost or getattr(bar, "base_cost", None) or getattr(sensitivity, "base_cost", None)
        )
        base = base if base is not None else costs.get(bar.bid_id)
        if base is None:
            raise ValueError(
                f"tornado bar {bar.label!r}: no base cost; pass the scorecard or base_cost"
            )
        bases.append(base)
    return bases


NARROW_WIDTH_IN = 5.5
NARROW_MAX_BARS = 8


# Label widths of the tornado's bars, in characters: an input's words (the longest,
# "checkpoint write throughput", is 27) and, with bars of several bids, the bid's provider before
# them (what the memo's name adds to tell two bids of one provider apart is kept whole).
TORNADO_INPUT, TORNADO_NAME = 34, 20


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _bar_label(label: str, name: str | None = None, provider: str = "") -> str:
    """A tornado bar's words, drawn as typed: the input, after the bid's name when bars of several
    bids share the chart."""
    if name is None:
        return literal(_clip(label, TORNADO_INPUT))
    rest = name[len(provider) :] if provider and name.startswith(provider) else ""
    head = name[: len(name) - len(rest)]
    return literal(f"{_clip(head, TORNADO_NAME)}{rest}: {_clip(label, TORNADO_INPUT)}")


def sensitivity_tornado(
    sensitivity: Any,
    scorecard: Scorecard | None = None,
    base_cost: float | None = None,
    style: ChartStyle | None = None,
    max_bars: int | None = None,
    names: dict[str, str] | None = None,
) -> Figure:
    """Which inputs move the cost to finish most: one bar per input from its low to its high case,
    centred on the base cost, widest on top. With bars of several bids, each swings around its own
    base and the axis shows the change instead, each bar named by its bid's name in `names` (the
    memo's and the app's: core/memo/bid_words.bid_names), else its provider, never its id.
    `max_bars` keeps the largest swings only (a narrow figure keeps NARROW_MAX_BARS unless told
    otherwise)."""
    style = style or ChartStyle()
    title = "What moves the net cost most"
    bars = list(getattr(sensitivity, "tornado", None) or [])
    if not bars:
        return empty_figure(
            title,
            "No sensitivity results yet.\nRun the uncertainty analysis to see what moves the cost.",
            style,
        )
    currency = (
        scorecard.evaluation.currency
        if scorecard is not None
        else getattr(sensitivity, "currency", "USD")
    )
    bases = _tornado_bases(sensitivity, scorecard, base_cost)
    one_base = len(set(bases)) == 1
    several_bids = len({bar.bid_id for bar in bars}) > 1
    order = sorted(
        range(len(bars)), key=lambda i: (-abs(bars[i].high_cost - bars[i].low_cost), bars[i].label)
    )
    # A narrow pane (the app's side panel) gets the largest swings only, labelled above each bar:
    # beside the bars, long labels would leave the bars no room.
    narrow = style.width_in < NARROW_WIDTH_IN
    limit = max_bars if max_bars is not None else (NARROW_MAX_BARS if narrow else None)
    shown = order[:limit] if limit else order
    hidden = len(order) - len(shown)
    order = shown
    centre = [bases[i] if one_base else 0.0 for i in order]
    low = [bars[i].low_cost - bases[i] for i in order]
    high = [bars[i].high_cost - bases[i] for i in order]
    subtitle = (
        f"Around the base cost of {format_money(bases[0], currency)}"
        if one_base
        else "Change from each bid's own base cost"
    )
    if hidden:
        subtitle += f"; the {len(order)} largest of {len(order) + hidden}"
    fig, ax = new_figure(style, title, subtitle, label_rows=(len(order) + 1) // 2)
    rows = list(range(len(order)))
    bar_height = 0.45 if narrow else 0.6
    ax.barh(
        rows, low, left=centre, height=bar_height, color=style.series_colour(0), label="Low case"
    )
    ax.barh(
        rows, high, left=centre, height=bar_height, color=style.series_colour(1), label="High case"
    )
    ax.axvline(centre[0], color=style.foreground, linewidth=1.2)
    providers = {s.bid.id: s.bid.quote.provider for s in scorecard.scores} if scorecard else {}
    names = providers if names is None else names
    labels = [
        _bar_label(
            bars[i].label,
            names.get(bars[i].bid_id, bars[i].bid_id),
            providers.get(bars[i].bid_id, ""),
        )
        if several_bids
        else _bar_label(bars[i].label)
        for i in order
    ]
    if narrow:
        ax.set_yticks(rows, [""] * len(rows))
        ax.tick_params(axis="y", length=0)
        for row, label in zip(rows, labels):  # y is inverted below: row - 0.26 sits over the bar
            ax.text(
                0.0,
                row - 0.26,
                label,
                transform=ax.get_yaxis_transform(),
                ha="left",
                va="bottom",
                fontsize=style.font("note"),
                color=style.foreground,
            )
    else:
        ax.set_yticks(rows, labels)
    ax.invert_yaxis()
    reach = max(abs(v) for v in low + high) or 1.0
    ax.set_xlim(centre[0] - reach * 1.45, centre[0] + reach * 1.45)
    for row, c, lo, hi in zip(rows, centre, low, high):
        for delta in (lo, hi):
            sign = "+" if delta >= 0 else "-"
            ax.text(
                c + delta + (reach * 0.02 if delta >= 0 else -reach * 0.02),
                row,
                f"{sign}{compact_money(abs(delta), currency)}",
                va="center",
                ha="left" if delta >= 0 else "right",
                fontsize=style.font("note"),
                color=style.foreground,
            )
    money_axis(ax.xaxis, currency)
    if narrow:
        from matplotlib.ticker import MaxNLocator

        ax.set_ylim(len(rows) - 0.5, -0.9)  # room for the first label above its bar
        ax.xaxis.set_major_locator(MaxNLocator(3))  # fewer money ticks so they do not collide
    ax.set_xlabel(
        f"Net cost of the plan [{currency}]" if one_base else f"Change in net cost [{currency}]"
    )
    finish_axes(ax, style)
    legend_below(ax, style)
    return fig
