"""Money charts: sticker vs effective price and cost to finish with its band (the tornado is
tornado.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clusterbid.core.charts.style import (
    OKABE_ITO,
    ChartStyle,
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
