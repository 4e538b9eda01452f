"""Issue 34: the Details pane shows why the first-ranked bid wins, part by part, once the
worker that draws the bands has kept the waterfall on the decided scorecard."""

from __future__ import annotations

from tests.core.uncertainty.test_waterfall import _two_bids

from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.waterfall import keep_waterfall
from clusterbid.gui.details_panel import DetailsPanel


def test_details_show_the_waterfall_on_the_two_first_bids_only_once_kept(qtbot):
    scorecard = score_evaluation(_two_bids())
    panel = DetailsPanel()
    qtbot.addWidget(panel)
    winner = scorecard.ranked[0]
    panel.show_bid(scorecard, winner)
    assert "Shown once the Monte Carlo bands are in." in panel.toPlainText()
    keep_waterfall(scorecard, None)  # what the worker does (without draws here)
    panel.show_bid(scorecard, winner)
    text = panel.toPlainText()
    # The hand figures of tests/core/uncertainty/test_waterfall.py: $180,200 -> $154,100.
    assert "on-demand-7 (next by score): $180,200" in text
    assert "Price per GPU-hour: -$51,200" in text
    assert "Term and idle value: +$25,600" in text
    assert "Fees and exit: -$500" in text
    assert "block-5 (first-ranked): $154,100" in text
    panel.show_bid(scorecard, scorecard.ranked[1])
    assert "Why the first-ranked bid wins" in panel.toPlainText()


def test_the_worker_that_draws_the_bands_keeps_the_waterfall():
    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.uncertainty.waterfall import kept_waterfall
    from clusterbid.gui.uncertainty_source import analyse_uncertainty

    analysis = analyse_uncertainty(demo_evaluation())
    found = kept_waterfall(analysis.scorecard)
    assert found is not None and found.winner == analysis.scorecard.ranked[0].bid.id
    assert found.samples == analysis.uncertainty.samples
