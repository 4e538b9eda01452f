"""Curves on a log2 axis: each bid's scaling curve, and bus bandwidth of nccl-tests evidence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from clusterbid.core.charts.style import (
    LINE_STYLES,
    MARKERS,
    ChartStyle,
    empty_figure,
    finish_axes,
    legend_below,
    new_figure,
    shorten,
    training_workload,
)
from clusterbid.core.evidence.nccl_result import ONE_GIB, NcclTestsRun

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from clusterbid.core.scoring import Scorecard


def _log2_ticks(ax: Axes, ticks: list[int], labels: list[str]) -> None:
    """A log2 x-axis showing only the given ticks (the default minor ticks crowd a log2 axis)."""
    from matplotlib.ticker import NullFormatter, NullLocator

    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, labels)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())


def scaling_curves(scorecard: Scorecard, style: ChartStyle | None = None) -> Figure:
    """Effective MFU against GPU count for every bid, up to its largest contiguous block, with the
    planned job size marked. Excluded bids are dashed: their curve often shows why."""
    style = style or ChartStyle()
    title = "How each offer scales: effective MFU up to its largest contiguous block"
    if not scorecard.scores:
        return empty_figure(title, "No bids yet.\nAdd a bid to see how it scales.", style)
    job_gpus = training_workload(scorecard).job_gpus
    fig, ax = new_figure(
        style, title, "A curve that stops left of the planned job cannot run it as one job"
    )
    # Colours follow the order of entry, so a bid keeps its colour when the ranking changes.
    index_of = {bid.id: i for i, bid in enumerate(scorecard.evaluation.bids)}
    counts: set[int] = {job_gpus}
    top = 0.0
    for score in scorecard.scores:
        curve = score.estimate.scaling
        i = index_of.get(score.bid.id, len(index_of))
        excluded = not score.estimate.passes_gates
        label = shorten(score.bid.quote.provider) + (" (excluded)" if excluded else "")
        ax.plot(
            curve.gpus,
            [m * 100 for m in curve.effective_mfu],
            label=label,
            color=style.series_colour(i),
            linestyle="--" if excluded else LINE_STYLES[(i // 7) % len(LINE_STYLES)],
            marker=MARKERS[i % len(MARKERS)],
            markersize=4 * style.font_scale**0.5,
            linewidth=1.8,
            gid=score.bid.id,
            # Where curves coincide, the better-ranked bid is drawn on top, and the dashed excluded
            # bids above all, since a dashed line lets the one beneath show through.
            zorder=3 + len(scorecard.scores) + (1 if excluded else -(score.rank or 0)),
        )
        counts.update(curve.gpus)
        top = max(top, *curve.effective_mfu, 0.0)
    ax.axvline(job_gpus, color=style.foreground, linestyle=":", linewidth=1.4, gid="planned-job")
    ax.annotate(
        f"planned job: {job_gpus:,} GPUs",
        (job_gpus, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(-4, -4),
        textcoords="offset points",
        ha="right",
        va="top",
        fontsize=style.font("note"),
        color=style.foreground,
    )
    _log2_ticks(ax, sorted(counts), [f"{n:,}" for n in sorted(counts)])
    ax.set_ylim(0, max(top * 100 * 1.15, 1.0))
    ax.set_xlabel("GPUs in the job")
    ax.set_ylabel("Effective MFU [%]")
    finish_axes(ax, style, grid_axis="y")
    legend_below(ax, style, columns=3)
    return fig


def _size_label(size: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} B"


def busbw_curve(
    nccl_results: Sequence[NcclTestsRun],
    nic_aggregate_gb_s: float | None = None,
    style: ChartStyle | None = None,
) -> Figure:
    """Bus bandwidth against message size, one line per parsed nccl-tests run (the better of in-place
    and out-of-place per size, as the plateau is taken), each plateau marked; optionally the NIC
    aggregate per node as the ceiling a Ring run across nodes should stay under."""
    style = style or ChartStyle()
    title = "Measured bus bandwidth (nccl-tests)"
    runs = [run for run in nccl_results if any(row.size_bytes > 0 for row in run.rows)]
    if not runs:
        return empty_figure(
            title,
            "No nccl-tests evidence attached.\nAttach an all_reduce_perf log to a bid.",
            style,
        )
    fig, ax = new_figure(
        style, title, "The plateau (sizes of 1 GiB and more) is the figure the model uses"
    )
    sizes: set[int] = set()
    top = 0.0
    for i, run in enumerate(runs):
        rows = [row for row in run.rows if row.size_bytes > 0]
        colour = style.series_colour(i)
        scale = f", {run.ranks} ranks" if run.ranks else ""
        ax.plot(
            [r.size_bytes for r in rows],
            [r.best_busbw()[0] for r in rows],
            color=colour,
            linestyle=LINE_STYLES[(i // 7) % len(LINE_STYLES)],
            marker=MARKERS[i % len(MARKERS)],
            markersize=3,
            linewidth=1.6,
            label=f"{shorten(run.source, 32)} ({run.collective or 'unknown'}{scale})",
            gid=f"run-{i}",
        )
        sizes.update(r.size_bytes for r in rows)
        top = max(top, *(r.best_busbw()[0] for r in rows))
        if run.plateau is not None:
            ax.plot(
                [run.plateau.size_bytes],
                [run.plateau.busbw_gb_s],
                marker="*",
                markersize=14,
                color=colour,
                markeredgecolor=style.foreground,
                linestyle="none",
                gid=f"plateau-{i}",
            )
            what = (
                "plateau" if run.plateau.saturated else "lower bound"
            )  # sweep stopped below 1 GiB
            ax.annotate(
                f"{what} {run.plateau.busbw_gb_s:g} GB/s",
                (run.plateau.size_bytes, run.plateau.busbw_gb_s),
                xytext=(-8, 8),
                textcoords="offset points",
                ha="right",
                fontsize=style.font("note"),
                color=style.foreground,
            )
    ax.axvline(ONE_GIB, color=style.muted, linestyle=":", linewidth=1.2)
    ax.annotate(
        "1 GiB",
        (ONE_GIB, 0),
        xytext=(3, 3),
        textcoords="offset points",
        ha="left",
        va="bottom",
        fontsize=style.font("note"),
        color=style.foreground,
    )
    if nic_aggregate_gb_s is not None:
        ax.axhline(
            nic_aggregate_gb_s,
            color=style.foreground,
            linestyle="--",
            linewidth=1.2,
            label=f"NIC aggregate per node ({nic_aggregate_gb_s:g} GB/s)",
            gid="nic-aggregate",
        )
        top = max(top, nic_aggregate_gb_s)
    low, high = min(sizes), max(sizes)
    ticks = [2**k for k in range(0, 64, 4) if low <= 2**k <= high] or [low]
    _log2_ticks(ax, ticks, [_size_label(t) for t in ticks])
    ax.set_ylim(0, top * 1.15 or 1.0)
    ax.set_xlabel("Message size (log2 scale)")
    ax.set_ylabel("Bus bandwidth [GB/s]")
    finish_axes(ax, style, grid_axis="both")
    legend_below(ax, style, columns=1 if len(runs) > 2 else 2)
    return fig
