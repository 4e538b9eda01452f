"""Issue 39, item 6: the app's slider for the third-party rating (tests/core/test_provider_rating.py
works the criterion by hand)."""

from __future__ import annotations

from tests.conftest import evaluation_dict
from tests.core.test_provider_rating import RATINGS, A, B

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty.sensitivity import analyse_sensitivity
from clusterbid.gui.comparison.weights_panel import PENDING, WeightsPanel


def test_the_weights_panel_says_when_nobody_is_rated(qtbot):
    """The app's slider for the rating: no tipping point is computed while nobody is rated, and the
    label says so in words once the other weights' points are in (not "computing" for ever)."""
    panel = WeightsPanel()
    qtbot.addWidget(panel)
    assert panel.tipping_labels["provider_rating"].text() in ("", PENDING)
    unrated = Evaluation.model_validate(evaluation_dict([A, B]))
    panel.show_sensitivity(analyse_sensitivity(unrated))
    assert (
        panel.tipping_labels["provider_rating"].text()
        == "no third-party rating recorded: nothing to weigh yet"
    )
    rated = Evaluation.model_validate(evaluation_dict([A, B], provider_ratings=RATINGS))
    panel.show_sensitivity(analyse_sensitivity(rated), {"a": "Provider a", "b": "Provider b"})
    assert "Provider b" in panel.tipping_labels["provider_rating"].text()


def test_the_score_matrix_shows_the_rating_column_only_once_it_can_mean_something(qtbot):
    """Unweighted and unrated, a Rating column would show every provider at 0.00 in red, as if all
    had been rated poorly: it appears once a rating is recorded (or the policy weighs it), as in the
    memo's matrix."""
    from clusterbid.core.scoring import score_evaluation
    from clusterbid.gui.comparison.score_matrix import ScoreMatrix

    matrix = ScoreMatrix()
    qtbot.addWidget(matrix)
    headings = lambda: [
        matrix.horizontalHeaderItem(c).text().split("\n")[0]  # noqa: E731
        for c in range(matrix.columnCount())
    ]
    matrix.show_scorecard(score_evaluation(Evaluation.model_validate(evaluation_dict([A, B]))))
    assert "Rating" not in headings() and headings()[-1] == "Score" and "Evidence" in headings()
    rated = score_evaluation(
        Evaluation.model_validate(evaluation_dict([A, B], provider_ratings=RATINGS))
    )
    matrix.show_scorecard(rated)
    assert headings()[-2:] == ["Rating", "Score"]
