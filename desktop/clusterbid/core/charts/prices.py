"""Money charts: sticker vs effective price, cost to finish with its band, and the tornado."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clusterbid.core.charts.style import (
    OKABE_ITO,
    ChartStyle,
    compact_money,
    empty_figure,
    end_labels,
    finish_axes,
    legend_below,
    money_axis,
    new_figure,
    shorten,
    training_workload,
)
from clusterbid.core.flops import flops_text
from clusterbid.core.money import format_money

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from clusterbid.core.costmodel.estimate import BidEstimate
    from clusterbid.core.ranking import BidScore
    from clusterbid.core.scoring import Scorecard

BAR = 0.38  # height of each bar of a pair; the pair fills 0.76 of a row
NO_PASSING_BIDS = (
    "No bid passes the gates yet, so there is nothing to compare.\nFix the gated bids or add one."
)


def _bid_label(score: BidScore[BidEstimate], with_rank: bool = False, with_gpu: bool = True) -> str:
    name = shorten(score.bid.quote.provider)
    if with_rank and score.rank is not None:
        name = f"{score.rank}. {name}"
    return f"{name}\n{score.bid.capacity.gpu_model}" if with_gpu else name


def sticker_vs_effective_price(scorecard: Scorecard, style: ChartStyle | None = None) -> Figure:
    """Per passing bid: the quoted price per GPU-hour next to the price per useful GPU-hour, cheapest
    effective price on top."""
    style = style or ChartStyle()
    title = "The sticker price is not what a useful GPU-hour costs"
    scores = sorted(
        (s for s in scorecard.scores if s.estimate.passes_gates),
        key=lambda s: (s.estimate.effective_price_per_useful_gpu_hour, s.bid.id),
    )
    if not scores:
        return empty_figure(title, NO_PASSING_BIDS, style)
    currency = scorecard.evaluation.currency
    fig, ax = new_figure(
        style,
        title,
        "Per GPU-hour of each bid's own GPU model. Effective = price / (effective MFU / baseline "
        "MFU x goodput)",
        label_rows=len(scores),
    )
    rows = list(range(len(scores)))
    sticker = [s.estimate.price_per_gpu_hour for s in scores]
    effective = [s.estimate.effective_price_per_useful_gpu_hour for s in scores]
    ax.barh(
        [r - BAR / 2 for r in rows],
        sticker,
        height=BAR,
        color=OKABE_ITO["sky_blue"],
        label="Sticker price per GPU-hour",
    )
    ax.barh(
        [r + BAR / 2 for r in rows],
        effective,
        height=BAR,
        color=OKABE_ITO["vermillion"],
        label="Effective price per useful GPU-hour",
    )
    end_labels(
        ax,
        sticker + effective,
        [r - BAR / 2 for r in rows] + [r + BAR / 2 for r in rows],
        [format_money(v, currency, cents=True) for v in sticker + effective],
        style,
    )
    ax.set_yticks(rows, [_bid_label(s) for s in scores])
    ax.invert_yaxis()
    money_axis(ax.xaxis, currency)
    ax.set_xlabel(f"{currency} per GPU-hour")
    finish_axes(ax, style)
    legend_below(ax, style)
    return fig


def cost_to_finish_bands(
    scorecard: Scorecard, uncertainty: Any = None, style: ChartStyle | None = None
) -> Figure:
    """Cost to finish the job per ranked bid; with a Monte Carlo result, its P50 and P10-P90 band.

    `uncertainty` is an UncertaintyResult: `.bids[bid_id]` has cost_p10, cost_p50 and cost_p90.
    """
    style = style or ChartStyle()
    title = "Net cost of the buyer's plan"
    scores = scorecard.ranked
    if not scores:
        return empty_figure(title, NO_PASSING_BIDS, style)
    evaluation = scorecard.evaluation
    currency = evaluation.currency
    workload = training_workload(scorecard)
    band_of = {} if uncertainty is None else uncertainty.bids
    subtitle = (
        f"{workload.job_gpus:,} GPUs, {flops_text(workload.total_training_flops)}; in rank order "
        "(weighted score)"
        + ("; whiskers: Monte Carlo P10-P90" if band_of else "; no uncertainty run yet")
    )
    fig, ax = new_figure(style, title, subtitle, label_rows=len(scores))
    rows = list(range(len(scores)))
    costs = [s.estimate.plan_cost for s in scores]
    ax.barh(
        rows,
        costs,
        height=0.6,
        color=style.series_colour(0),
        label="Net plan cost (model estimate)",
    )
    banded = [(row, band_of[s.bid.id]) for row, s in zip(rows, scores) if s.bid.id in band_of]
    if banded:
        ax.errorbar(
            [b.cost_p50 for _, b in banded],
            [row for row, _ in banded],
            xerr=[
                [b.cost_p50 - b.cost_p10 for _, b in banded],
                [b.cost_p90 - b.cost_p50 for _, b in banded],
            ],
            fmt="o",
            color=style.foreground,
            ecolor=style.foreground,
            elinewidth=1.6,
            capsize=5,
            markersize=5,
            label="P50 with P10-P90 band",
        )
    ends = [
        max(c, band_of[s.bid.id].cost_p90) if s.bid.id in band_of else c
        for c, s in zip(costs, scores)
    ]
    end_labels(ax, ends, rows, [format_money(c, currency) for c in costs], style)
    ax.set_yticks(rows, [_bid_label(s, with_rank=True) for s in scores])
    ax.invert_yaxis()
    money_axis(ax.xaxis, currency)
    ax.set_xlabel(f"Net cost of the plan [{currency}]")
    finish_axes(ax, style)
    legend_below(ax, style)
    return fig


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


def sensitivity_tornado(
    sensitivity: Any,
    scorecard: Scorecard | None = None,
    base_cost: float | None = None,
    style: ChartStyle | None = None,
    max_bars: int | None = None,
) -> Figure:
    """Which inputs move the cost to finish most: one bar per input from its low to its high case,
    centred on the base cost, widest on top. With bars of several bids, each swings around its own
    base and the axis shows the change instead. `max_bars` keeps the largest swings only (a
    narrow figure keeps NARROW_MAX_BARS unless told otherwise)."""
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
    labels = [
        shorten(f"{bars[i].bid_id}: {bars[i].label}" if several_bids else bars[i].label, 34)
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
