"""Issue 32: what an edit costs the window's thread, counted (never timed): the score matrix asks
for the cells in view only, and the comparison's sort reads each row's place from one list."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.gui.comparison.comparison_view import ComparisonView
from clusterbid.gui.comparison.score_matrix import ScoreMatrix
from clusterbid.gui.comparison.scorecard_table_model import (
    PRICE,
    PROVIDER,
    RANK,
    ScorecardTableModel,
)
from clusterbid.gui.comparison.sort_places import order_places


def many_bids(count: int) -> Evaluation:
    """The demo's bids repeated under fresh ids (equal prices repeat: ties for the sort)."""
    demo = demo_evaluation()
    bids = []
    for i in range(count):
        bid = demo.bids[i % len(demo.bids)].model_dump()
        bid["id"] = f"bid-{i:04d}"
        bids.append(bid)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})


def test_places_share_a_place_on_equal_keys_and_mixed_kinds_compare_as_text():
    # By hand: 1 (rows 1 and 3) < 2 < 3.
    assert order_places([3, 1, 2, 1]) == [2, 0, 1, 0]
    # "1" < "a" < "b" as text: the table's rule when a number meets a text.
    assert order_places(["b", 1, "a"]) == [2, 0, 1]
    assert order_places([]) == []


@pytest.fixture(scope="module")
def big_scorecard():
    return score_evaluation(many_bids(300))


def test_the_matrix_asks_only_for_the_rows_in_view(qtbot, big_scorecard):
    matrix = ScoreMatrix()
    qtbot.addWidget(matrix)
    matrix.resize(700, 300)
    matrix.show()
    asked: set[int] = set()
    model = matrix.matrix_model
    data = model.data
    model.data = lambda index, role=Qt.ItemDataRole.DisplayRole: (
        asked.add(index.row()) or data(index, role)
    )
    matrix.show_scorecard(big_scorecard)
    matrix.repaint()
    ranked = len(big_scorecard.ranked)
    assert matrix.rowCount() == ranked > 150
    in_view = matrix.rowAt(matrix.viewport().height() - 1) + 1 or ranked
    assert asked and max(asked) <= in_view + 1 < ranked  # never the whole list
    # The cells still read whole when asked for (the first and the last ranked bid).
    last = big_scorecard.ranked[-1]
    assert matrix.item(ranked - 1, 0).text() == f"{last.rank}. {last.bid.quote.provider}"
    assert matrix.item(ranked - 1, matrix.columnCount() - 1).text() == f"{last.weighted_score:.3f}"


def shown_ids(view: ComparisonView) -> list[str]:
    model = view.model()
    return [view.source_model.score_at(row).bid.id for row in range(model.rowCount())]


# Each column's key computed here from the bids' own figures (cell_text shows the provider as
# the bid's quote names it; the price is the estimate's per GPU-hour).
BY_HAND = {
    PRICE: lambda score: score.estimate.price_per_gpu_hour,
    PROVIDER: lambda score: score.bid.quote.provider.casefold(),
}


@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
@pytest.mark.parametrize("column", [PRICE, PROVIDER])
def test_a_sorted_column_orders_rows_as_its_keys_do_ties_kept_in_place(
    qtbot, big_scorecard, column, order
):
    model = ScorecardTableModel(big_scorecard)
    view = ComparisonView(model)
    qtbot.addWidget(view)
    view.sortByColumn(column, order)
    # Python's stable sort: equal keys keep the scorecard's order (the rank order shown before
    # the click), in either direction, as Qt's stable sort proxy kept them.
    expected = sorted(
        big_scorecard.scores, key=BY_HAND[column], reverse=order == Qt.SortOrder.DescendingOrder
    )
    assert shown_ids(view) == [score.bid.id for score in expected]
    assert len({BY_HAND[column](s) for s in expected}) < len(expected)  # ties exist


def test_a_header_clicked_keeps_equal_keys_in_the_order_shown_before(qtbot, big_scorecard):
    model = ScorecardTableModel(big_scorecard)
    view = ComparisonView(model)
    qtbot.addWidget(view)
    view.sortByColumn(PRICE, Qt.SortOrder.DescendingOrder)
    view.sortByColumn(RANK, Qt.SortOrder.AscendingOrder)
    # The ranked bids by rank, then the excluded ones (no rank: all equal) as the price sort
    # left them: dearest first, equal prices in the scorecard's order.
    ranked = sorted((s for s in big_scorecard.scores if s.rank is not None), key=lambda s: s.rank)
    excluded = [s for s in big_scorecard.scores if s.rank is None]
    excluded.sort(key=BY_HAND[PRICE], reverse=True)
    assert len(excluded) > 1
    assert shown_ids(view) == [s.bid.id for s in ranked + excluded]


def with_price(count: int, bid_index: int, price: float) -> Evaluation:
    evaluation = many_bids(count).model_dump()
    evaluation["bids"][bid_index]["terms"]["price_per_gpu_hour"] = price
    return Evaluation.model_validate(evaluation)


class CallCount:
    """Counts the Python calls Qt makes into the table model (the only ones a sort could make)."""

    def __init__(self, model: ScorecardTableModel, monkeypatch) -> None:
        self.calls = 0
        for name in ("rowCount", "columnCount", "data", "index", "sort"):
            method = getattr(model, name)
            monkeypatch.setattr(model, name, self._counted(method))

    def _counted(self, method):
        def counted(*args, **kwargs):
            self.calls += 1
            return method(*args, **kwargs)

        return counted


@pytest.mark.parametrize("column", [RANK, PRICE])
def test_a_price_edit_that_moves_rows_sorts_them_without_a_comparison_per_pair(
    qtbot, big_scorecard, monkeypatch, column
):
    model = ScorecardTableModel(big_scorecard)
    view = ComparisonView(model)
    qtbot.addWidget(view)
    view.sortByColumn(column, Qt.SortOrder.AscendingOrder)
    assert view.model() is model  # no sort proxy between the table and the view
    chosen = big_scorecard.scores[len(big_scorecard.ranked) - 1].bid.id  # the last ranked
    view.select_bid(chosen)
    edited = score_evaluation(with_price(300, int(chosen.removeprefix("bid-")), 0.5))
    assert [s.bid.id for s in edited.scores] != [s.bid.id for s in big_scorecard.scores]
    resets, moves = [], []
    model.modelReset.connect(lambda: resets.append(1))
    model.layoutChanged.connect(lambda *_: moves.append(1))
    count = CallCount(model, monkeypatch)
    model.set_scorecard(edited)
    # A sort proxy compared pairs: ~2 n log2 n = ~4,900 comparisons at 300 bids, five Python
    # calls each. Fewer Python calls than bids now, whatever the sorted column.
    assert count.calls < 300
    assert resets == [] and moves == [1]
    if column == RANK:  # ranked by rank, then the excluded ones in the new scorecard's order
        expected = sorted(edited.scores, key=lambda s: (s.rank is None, s.rank or 0))
    else:  # by price, equal prices in the new scorecard's order
        expected = sorted(edited.scores, key=BY_HAND[PRICE])
    assert shown_ids(view) == [s.bid.id for s in expected]
    assert shown_ids(view)[0] == chosen  # at $0.50 it is first by rank and by price
    assert view.selected_bid_id() == chosen


def test_rows_ordered_by_places_stably_and_checked_in_order():
    from clusterbid.gui.comparison.sort_places import in_order, sorted_rows

    # By hand: places [1, 0, 1, 2] for scorecard rows 0-3; shown as 3, 2, 1, 0.
    places = [1, 0, 1, 2]
    assert sorted_rows([3, 2, 1, 0], places, descending=False) == [1, 2, 0, 3]  # 2 before 0
    assert sorted_rows([3, 2, 1, 0], places, descending=True) == [3, 2, 0, 1]  # 2 before 0
    assert sorted_rows([0, 1, 2, 3], places, descending=True) == [3, 0, 2, 1]  # 0 before 2
    assert in_order([1, 2, 0, 3], places, descending=False)
    assert in_order([1, 0, 2, 3], places, descending=False)  # ties in any order
    assert not in_order([0, 1, 2, 3], places, descending=False)
    assert in_order([3, 0, 2, 1], places, descending=True)


def test_the_bands_scale_is_found_once_per_scorecard_not_per_cell_painted(
    big_scorecard, monkeypatch
):
    model = ScorecardTableModel(big_scorecard)
    asked: list[int] = []
    figures = model.band_figures
    monkeypatch.setattr(model, "band_figures", lambda row: asked.append(row) or figures(row))
    for _ in range(25):  # a screenful of band cells painted
        assert model.band_range() is None  # no bands drawn yet
    assert len(asked) == model.rowCount()
    model.set_uncertainty(None)  # new bands: the scale is found again
    model.band_range()
    assert len(asked) == 2 * model.rowCount()


def test_columns_are_measured_again_only_when_the_bids_change_not_their_order(qtbot, monkeypatch):
    import dataclasses

    scorecard = score_evaluation(many_bids(12))
    model = ScorecardTableModel(scorecard)
    view = ComparisonView(model)
    qtbot.addWidget(view)
    measured: list[int] = []
    monkeypatch.setattr(view, "measure_columns", lambda *a: measured.append(1))
    # The decided ranking lists the same bids in another order: nothing to measure again.
    model.set_scorecard(dataclasses.replace(scorecard, scores=tuple(reversed(scorecard.scores))))
    model.set_scorecard(scorecard)
    assert measured == []
    model.set_scorecard(score_evaluation(many_bids(13)))  # a bid more: measured once
    assert measured == [1]
