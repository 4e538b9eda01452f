"""The demo scorecard, and stand-ins shaped like the uncertainty module's results (not yet merged)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.scoring import score_evaluation


@dataclass(frozen=True)
class BidUncertainty:
    cost_p10: float
    cost_p50: float
    cost_p90: float
    hours_p10: float = 0.0
    hours_p50: float = 0.0
    hours_p90: float = 0.0
    win_probability: float = 0.0
    rank_stability: float = 0.0


@dataclass(frozen=True)
class UncertaintyResult:
    bids: dict


@dataclass(frozen=True)
class TornadoBar:
    label: str
    bid_id: str
    low_cost: float
    high_cost: float


@dataclass(frozen=True)
class Sensitivity:
    tornado: list


@pytest.fixture(scope="session")
def demo_scorecard():
    return score_evaluation(demo_evaluation())


def visible_texts(fig):
    """Every non-empty Text drawn on the figure: titles, axis labels, tick labels of the ticks
    inside the view (matplotlib keeps labels for ticks beyond the limits but does not draw them),
    annotations and legend entries."""
    from matplotlib.text import Text

    beyond_view = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            beyond_view |= {
                id(label)
                for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                if not low <= tick.get_loc() <= high
                for label in (tick.label1, tick.label2)
            }
    return [
        t
        for t in fig.findobj(Text)
        if id(t) not in beyond_view and t.get_visible() and t.get_text().strip()
    ]
