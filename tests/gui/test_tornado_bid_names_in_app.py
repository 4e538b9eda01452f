"""The app's tornado (Charts > Sensitivity tornado) names bids as the memo does, never by id: the
memo's showed "prime-efa: ..." (tests/core/charts/test_tornado_bid_names.py); the app's shares
the chart code and is given the same names."""

from __future__ import annotations

from tests.core.charts.conftest import Sensitivity, TornadoBar

from clusterbid.core import charts
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.gui.charts.charts_panel import ChartsPanel


def _texts(figure) -> list[str]:
    ax = figure.axes[0]  # the side pane's narrow layout draws the labels over the bars as text
    return [t.get_text() for t in [*ax.get_yticklabels(), *ax.texts] if t.get_text()]


def test_the_app_s_tornado_names_each_bid_by_its_provider(qtbot) -> None:
    scorecard = score_evaluation(demo_evaluation())
    first, second = scorecard.ranked[:2]
    sensitivity = Sensitivity(
        [
            TornadoBar("busbw", first.bid.id, first.estimate.plan_cost + 1_000, 0.0),
            TornadoBar("busbw", second.bid.id, second.estimate.plan_cost + 3_000, 0.0),
        ]
    )
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    panel.set_inputs(scorecard=scorecard, sensitivity=sensitivity)
    for width in (400, 1200):  # the side pane (labels over the bars) and a wide window
        panel.resize(width, 600)
        figure, why = panel._figure(charts, "sensitivity_tornado")
        assert figure is not None, why
        texts = _texts(figure)
        assert f"{first.bid.quote.provider}: busbw" in texts, texts
        assert f"{second.bid.quote.provider}: busbw" in texts, texts
        assert not any(t.startswith((first.bid.id, second.bid.id)) for t in texts)
