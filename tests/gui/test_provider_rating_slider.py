"""Issue 39, item 6: the app's slider for the third-party rating (tests/core/test_provider_rating.py
works the criterion by hand)."""

from __future__ import annotations

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty.sensitivity import analyse_sensitivity
from clusterbid.gui.comparison.weights_panel import PENDING, WeightsPanel
from tests.conftest import evaluation_dict
from tests.core.test_provider_rating import A, B, RATINGS


def test_the_weights_panel_says_when_nobody_is_rated(qtbot):
    """The app's slider for the rating: no tipping point is computed while nobody is rated, and the
    label says so in words once the other weights' points are in (not "computing" for ever)."""
    panel = WeightsPanel()
    qtbot.addWidget(panel)
    assert panel.tipping_labels["provider_rating"].text() in ("", PENDING)
    unrated = Evaluation.model_validate(evaluation_dict([A, B]))
    panel.show_sensitivity(analyse_sensitivity(unrated))
    assert panel.tipping_labels["provider_rating"].text() == "no third-party rating recorded: nothing to weigh yet"
    rated = Evaluation.model_validate(evaluation_dict([A, B], provider_ratings=RATINGS))
    panel.show_sensitivity(analyse_sensitivity(rated), {"a": "Provider a", "b": "Provider b"})
    assert "Provider b" in panel.tipping_labels["provider_rating"].text()
