"""The serving frontier as a chart (issue 37): one curve per bid of output tokens/s per GPU
against the tokens/s each user sees, over batch sizes, with the buyer's time-per-token target as
a line and each bid's costed batch marked. Shared by the app and the memo: both draw
`serving_frontier_figure` (issue 37), so the memo prints what View > Serving Frontier shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clusterbid.core.charts.style import (
    LINE_STYLES,
    MARKERS,
    ChartStyle,
    empty_figure,
    finish_axes,
    legend_below,
    new_figure,
    shorten,
)
from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_frontier import serving_frontiers

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from clusterbid.core.costmodel.serving_frontier import Frontier


def serving_frontier_figure(scorecard: Any, style: ChartStyle | None = None) -> Figure:
    """The frontier of a serving scorecard's bids, each on the efficiencies it was costed with."""
    evaluation = scorecard.evaluation
    estimates = ServingEstimates(evaluation.workload, tuple(s.estimate for s in scorecard.scores))
    providers = {b.id: b.quote.provider for b in evaluation.bids}
    return frontier_chart(
        serving_frontiers(estimates), providers, evaluation.workload.tpot_target_ms, style
    )


def _same_curve(one: Frontier, other: Frontier) -> bool:
    return (
        one.tokens_per_s_per_user.shape == other.tokens_per_s_per_user.shape
        and bool((one.tokens_per_s_per_user == other.tokens_per_s_per_user).all())
        and bool((one.tokens_per_s_per_gpu == other.tokens_per_s_per_gpu).all())
    )


def _plain_log_axis(ax: Any) -> None:
    """A log x axis labelled 10, 20, 30, 50... as an officer reads numbers, not 2 x 10^1."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 3.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _position: f"{value:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def frontier_chart(
    frontiers: tuple[Frontier, ...],
    providers: dict[str, str],
    tpot_target_ms: float,
    style: ChartStyle | None = None,
) -> Figure:
    """`providers`: each bid id's provider name, as the legend shows it."""
    style = style or ChartStyle()
    title = "Throughput per GPU against speed per user, over batch sizes"
    drawn = [f for f in frontiers if f.batches.size]
    if not drawn:
        return empty_figure(
            title, "No bid can serve the workload.\nThe frontier needs a bid that fits.", style
        )
    fig, ax = new_figure(
        style,
        title,
        "Right of the dotted line each user gets the target speed; the dot is the "
        "batch each fleet is sized at",
    )
    for i, f in enumerate(frontiers):
        if not f.batches.size:
            continue
        colour = style.series_colour(i)
        label = f"{shorten(providers.get(f.bid_id, f.bid_id))} (TP {f.tensor_parallel})"
        # Two bids on the same GPU at the same TP degree and efficiencies have the same curve: the
        # later one is dashed, so the one beneath still shows between its dashes.
        twin = any(_same_curve(f, earlier) for earlier in frontiers[:i])
        ax.plot(
            f.tokens_per_s_per_user,
            f.tokens_per_s_per_gpu,
            color=colour,
            label=label,
            gid=f.bid_id,
            linestyle=(0, (4, 4)) if twin else LINE_STYLES[(i // 7) % len(LINE_STYLES)],
            linewidth=1.8,
        )
        if f.chosen_batch is not None and f.chosen_batch in f.batches:
            at = int(list(f.batches).index(f.chosen_batch))
            ax.plot(
                [f.tokens_per_s_per_user[at]],
                [f.tokens_per_s_per_gpu[at]],
                color=colour,
                marker=MARKERS[i % len(MARKERS)],
                markersize=7,
                linestyle="none",
                gid=f"{f.bid_id}-costed",
            )
    target = 1000.0 / tpot_target_ms
    ax.axvline(target, color=style.foreground, linestyle=":", linewidth=1.4, gid="target")
    # Bottom left of the target line: the curves are high on the left and fall to the right, so
    # the words there cross none of them.
    ax.annotate(
        f"target: {target:,.0f} tokens/s per user ({tpot_target_ms:g} ms a token)",
        (target, 0.0),
        xycoords=("data", "axes fraction"),
        xytext=(-4, 4),
        textcoords="offset points",
        ha="right",
        va="bottom",
        fontsize=style.font("note"),
        color=style.foreground,
    )
    _plain_log_axis(ax)
    ax.set_xlabel("Output tokens per second each user sees")
    ax.set_ylabel("Output tokens per second per GPU")
    finish_axes(ax, style, grid_axis="both")
    legend_below(ax, style, columns=3)
    return fig
