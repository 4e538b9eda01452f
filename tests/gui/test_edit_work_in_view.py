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
from clusterbid.gui.comparison.scorecard_table_model import PRICE, PROVIDER, ScorecardTableModel
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


@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
@pytest.mark.parametrize("column", [PRICE, PROVIDER])
def test_a_sorted_column_orders_rows_as_its_keys_do_ties_kept_in_place(
    qtbot, big_scorecard, column, order
):
    model = ScorecardTableModel(big_scorecard)
    view = ComparisonView(model)
    qtbot.addWidget(view)
    view.sortByColumn(column, order)
    shown = [
        view.proxy.mapToSource(view.proxy.index(r, 0)).row() for r in range(view.proxy.rowCount())
    ]
    keys = [model.sort_key(row, column) for row in range(model.rowCount())]
    # Python's stable sort: equal keys keep the scorecard's order, in either direction.
    expected = sorted(
        range(len(keys)), key=keys.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder
    )
    assert shown == expected
    assert len(set(keys)) < len(keys)  # the case that matters: ties exist


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
