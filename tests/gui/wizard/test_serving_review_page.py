"""A tester's fault: a serving bid's Review page spoke of "what it costs to finish the planned
job" and left its "Against the other bids" pane empty. It now speaks of the service and shows
every bid's cost per million output tokens beside this one's, with where the figures come from,
and a bid that cannot serve says why instead of a cost."""

from __future__ import annotations

import re

from tests.conftest import EXAMPLES

from clusterbid.core.documents import read_evaluation


def _review(qtbot, open_wizard, bid_index: int = 0):
    evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    wizard = open_wizard(bid=evaluation.bids[bid_index], ev=evaluation)
    page = wizard.review_page
    wizard.setCurrentId(wizard.page_ids[wizard.pages_in_order.index(page)])
    qtbot.waitUntil(lambda: "per million output tokens" in page.preview_cost.text())
    return evaluation, page


def test_a_serving_review_shows_every_bids_cost_per_million_tokens_in_a_services_words(
    qtbot, open_wizard
):
    evaluation, page = _review(qtbot, open_wizard)
    words = page.subTitle() + page.preview_cost.text()
    assert "planned job" not in words and "net plan cost" not in words.lower()
    assert "million output tokens" in page.subTitle()
    shown = page.comparison.toPlainText()
    assert shown.startswith("Against the other bids")
    for bid in evaluation.bids:  # every bid, by its provider's name, never its id
        assert " ".join(bid.quote.provider.split()) in " ".join(shown.split())
        assert bid.id not in shown
    # The bid's own figure is the one its line above the summary gives.
    own = re.search(r"\$[\d,.]+(?= per million output tokens)", page.preview_cost.text())
    assert own is not None and own.group(0) in shown
    # Ranked bids in their order, then the one that cannot serve, saying why.
    ranks = [int(rank) for rank in re.findall(r"\n(\d+)\n(?=[A-Z])", shown)]  # a cell a line
    assert ranks == list(range(1, len(ranks) + 1)) and len(ranks) >= 2
    assert re.search(r"\n—\n[^\n]+\ncannot serve: .+GPUs", shown)
    assert "Point estimates of ClusterBid's serving cost model" in shown  # where they came from


def test_a_training_review_keeps_its_planned_job_words(qtbot, open_wizard):
    wizard = open_wizard()  # the training demo
    assert "planned job" in wizard.review_page.subTitle()


def test_the_review_shows_the_figure_the_ranks_rest_on_beside_the_point(qtbot, open_wizard):
    # A review found the footnote calling the ranks the point's order "before the likely ranges
    # are drawn", while the scorecard ranks on the mean: Helio at $1.48 sat above Quarry at $1.46.
    _, page = _review(qtbot, open_wizard)
    shown = page.comparison.toPlainText()
    means = [float(m) for m in re.findall(r"\$(\d+\.\d\d) mean", shown)]
    assert len(means) >= 2 and means == sorted(means)  # in rank order the ranked figure ascends
    assert "before the likely ranges" not in shown
    assert "its cost criterion on the ranked figure beside the point" in shown
