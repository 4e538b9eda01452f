"""Start drawing the memo's charts as soon as their figures are decided, before the renderer.

Once the Monte Carlo has decided (making.py), every chart's inputs are known; the renderer's
imports, the evidence valued and the memo's wording come after, and need no chart. Where charts
may be drawn in a forked child (chart_fork.py), one is forked here for all the missing charts but
the first: it imports matplotlib and draws while this process goes on, draws the first itself
when the charts section asks for them (chart_images), then takes the rest from the child. The
kept charts found and the keys reckoned here are handed over too, so nothing is looked up twice.

Only for a memo made now (its evidence still to be valued): verify's re-render has its words and
its renderer loaded already, so nothing would overlap the child's import of matplotlib; its charts
are split at the charts section instead (chart_fork.draw_missing). And only for the very objects
the charts section is then given (the same scorecard, bands and tipping points): anything else,
and a memo abandoned on the way (an error), stops the child.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clusterbid.core.memo import chart_fork

if TYPE_CHECKING:
    from clusterbid.core.memo.chart_drawing import Chart


@dataclass
class Early:
    """What was looked up and started for one scorecard, bands and tipping points."""

    drawn_from: tuple[Any, Any, Any]
    keys: list[str | None]  # chart_cache's key of each chart, in the memo's order
    found: list[Chart | None]  # the kept pixels of each chart, None where it must be drawn
    child: list[int]  # the positions the child draws
    reader: int = -1
    pid: int = 0


_STARTED: list[Early] = []


def chart_lookups(scorecard: Any, uncertainty: Any, sensitivity: Any) -> tuple[list[Any], ...]:
    """(keys, kept pixels) of every chart, as the charts section reckons them."""
    from clusterbid.core import charts
    from clusterbid.core.memo import chart_cache
    from clusterbid.core.memo.chart_drawing import MEMO_TORNADO_BARS, PRINT_DPI, chart_specs

    specs = chart_specs(scorecard, uncertainty, sensitivity)
    keys = chart_cache.chart_keys(
        [(caption, PRINT_DPI, MEMO_TORNADO_BARS) for caption, _ in specs],
        charts.PRINT_STYLE,
        scorecard,
        uncertainty,
        sensitivity,
    )
    return keys, [chart_cache.load(key) for key in keys]


def start_early(scorecard: Any, uncertainty: Any, sensitivity: Any) -> None:
    """Fork a child for the missing charts but the first, where chart_fork would fork."""
    from clusterbid.core.memo.chart_drawing import chart_specs

    if not chart_fork.forks(2):  # not allowed here (the app), or no core to spare
        return
    stop_early()  # one memo at a time on the command line: a child left over is stopped
    keys, found = chart_lookups(scorecard, uncertainty, sensitivity)
    missing = [position for position, chart in enumerate(found) if chart is None]
    early = Early((scorecard, uncertainty, sensitivity), keys, found, missing[1:])
    other_scripts = _other_scripts(scorecard) if early.child else None
    if other_scripts is not None and chart_fork.forks(len(missing)):
        specs = chart_specs(scorecard, uncertainty, sensitivity)
        drawings = [(position, specs[position][1]) for position in early.child]
        early.reader, early.pid = chart_fork.start(drawings, lambda: other_scripts)
    else:
        early.child = []
    _STARTED.append(early)


def _other_scripts(scorecard: Any) -> bool | None:
    """needs_script_fallbacks, here before the fork (the child imports no page layout); None
    for a name no font prints, refused by the charts section in its turn, after the checks the
    memo makes before it."""
    from clusterbid.core.errors import InputError
    from clusterbid.core.memo.fonts import needs_script_fallbacks

    try:
        return needs_script_fallbacks(scorecard)
    except InputError:
        return None


def take_early(scorecard: Any, uncertainty: Any, sensitivity: Any) -> Early | None:
    """What start_early began for these very objects (None: nothing); anything else is stopped."""
    early = _STARTED.pop() if _STARTED else None
    given = (scorecard, uncertainty, sensitivity)
    if early is not None and all(a is b for a, b in zip(early.drawn_from, given)):
        return early
    stop(early)
    return None


def collect(early: Early, specs: list[Any], other_scripts: bool) -> dict[int, Chart]:
    """The child's charts, as it handed them back or drawn here (chart_fork.finish)."""
    if not early.child:
        return {}
    drawings = [(position, specs[position][1]) for position in early.child]
    return chart_fork.finish(early.reader, early.pid, drawings, other_scripts)


def stop_early() -> None:
    """Stop a child no charts section took (the memo failed on the way)."""
    while _STARTED:
        stop(_STARTED.pop())


def stop(early: Early | None) -> None:
    """Stop the child of `early` (if any): one no charts section took, or one taken and no longer
    waited for (the charts section failed)."""
    if early is None or not early.child:
        return
    chart_fork.stop(early.reader, early.pid)
