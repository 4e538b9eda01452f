"""The ranked comparison as a Qt table over a Scorecard (plus uncertainty when it is known)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication

from clusterbid.core.comparison_table import (  # noqa: F401 (names the app's views import from here)
    BAND,
    BLOCK,
    COLUMNS,
    COMMITMENT,
    COST,
    DASH,
    FABRIC,
    FINDINGS,
    GOODPUT,
    GPU,
    MFU,
    PRICE,
    PROVIDER,
    RANK,
    SCORE,
    TIME,
    USEFUL_PRICE,
    WIN,
    cell_text,
    rank_resting_on,
    resting_if_known,
    shown_rows,
)
from clusterbid.core.contract_summary import decision_figure
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.gui.bid_status import BidStatus, status_colour
from clusterbid.gui.comparison.cell_tips import CRITERION_WORDS as CRITERION_WORDS  # for views
from clusterbid.gui.comparison.cell_tips import band_tip, contract_tip, findings, score_tip
from clusterbid.gui.comparison.sort_places import column_keys, in_order, order_places, sorted_rows

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
# Columns a narrow window hides first (the comparison must fit a 1366-pixel laptop screen
# without scrolling sideways); every figure stays in the Details pane and the tooltips.
HIDE_FIRST = (FABRIC, GPU, GOODPUT, MFU, BLOCK, USEFUL_PRICE, TIME, PRICE, COMMITMENT)
TEXT_COLUMNS = {PROVIDER, GPU, FABRIC, FINDINGS}


class ScorecardTableModel(QAbstractTableModel):
    def __init__(self, scorecard: Scorecard, uncertainty: object | None = None) -> None:
        super().__init__()
        self._scorecard = scorecard
        self._uncertainty = uncertainty
        self._resting = resting_if_known(scorecard)  # None: a worker derives it after the table
        # Each cell's text once per scorecard and bands: the view asks again for every paint, size
        # hint and sort (issue 32: 1.7 formats per cell per edit at 500 bids before).
        self._rows: list[list[str]] | None = None  # every cell's text, made on first use
        self._keys: dict[int, list[object]] = {}  # column -> each row's sort key, as the texts
        self._places: dict[int, list[int]] = {}  # column -> each row's place in its order
        self._band_range: tuple[tuple[float, float] | None] | None = None  # (the scale,) once found
        # The model sorts its own rows (a header clicked calls sort()) and keeps them sorted across
        # edits (issue 32: a sort proxy made ~2,700 comparisons, five Python calls each, per price
        # edit at 500 bids). Row r shown is the scorecard's row _shown[r]: public methods take the
        # row shown; texts, keys and places are kept by the scorecard's row.
        self._shown: list[int] = list(range(len(scorecard.scores)))
        self._row_at: list[int] | None = None  # scorecard row -> row shown, made when asked
        self._sort_column, self._descending = -1, False  # -1: the scorecard's order
        self._by_id: dict[str, int] | None = None  # bid id -> the scorecard's row, when asked

    # -- updates ---------------------------------------------------------------------------------
    @property
    def scorecard(self) -> Scorecard:
        return self._scorecard

    @property
    def resting(self) -> dict[str, list[str]] | None:
        """The defaults each bid's rank rests on (kept on the scorecard by the worker that derived
        it); None while that worker runs, after the table is shown (gui/rescoring.py)."""
        return self._resting

    @property
    def uncertainty(self) -> object | None:
        return self._uncertainty

    def rests_known(self) -> None:
        """The default effects of the scorecard shown have been derived: the findings column's
        "rank rests on" is filled in. Only its texts change: no row moves, no sort key changes."""
        self._resting = resting_if_known(self._scorecard)
        self._rows = None
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, FINDINGS), self.index(self.rowCount() - 1, FINDINGS)
            )

    def set_scorecard(self, scorecard: Scorecard, uncertainty: object | None = None) -> None:
        """The same bids re-scored (a weight or workload edit, the bands' decided ranking): their
        rows move and their cells change, the views keep their state and selection. Bids added
        or removed: the model is reset. (Issue 32: a reset made the view, its sort proxy and the
        selection start over at every edit, ~25 ms of the window's thread at 500 bids.)"""
        before = [score.bid.id for score in self._scorecard.scores]
        after = [score.bid.id for score in scorecard.scores]
        if len(before) != len(after) or set(before) != set(after):
            self.beginResetModel()
            self._take(scorecard, uncertainty)
            self._show(self._sorted(list(range(len(after)))))
            self.endResetModel()
            return
        if before == after:  # no row moved in the scorecard: every cell may have changed
            self._take(scorecard, uncertainty)
            self._cells_changed()
            return
        # Sorted again from the scorecard's new order, ties in that order (as the proxy did).
        self._relayout(lambda: self._take(scorecard, uncertainty), fresh=True)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """A header clicked (or the view's first sort): rows ordered by the column's keys, stably
        from the order shown (equal keys keep it), as Qt's sort proxy ordered them."""
        self._sort_column = column
        self._descending = order == Qt.SortOrder.DescendingOrder
        self._relayout(lambda: None, fresh=False)

    def _relayout(self, change: Callable[[], None], fresh: bool) -> None:
        """`change`, then the rows sorted again from the scorecard's order (`fresh`) or from the
        order shown; the views' selection and current row follow their bids."""
        self.layoutAboutToBeChanged.emit()
        kept = self.persistentIndexList()
        kept_ids = [self.score_at(index.row()).bid.id for index in kept]
        change()
        self._show(self._sorted(list(range(self.rowCount())) if fresh else self._shown))
        now = self._rows_by_id()
        row_at = self._rows_at()
        moved = [
            self.index(row_at[now[b]], i.column()) for b, i in zip(kept_ids, kept, strict=True)
        ]
        self.changePersistentIndexList(kept, moved)
        self.layoutChanged.emit()  # the views repaint from here

    def _sorted(self, rows: list[int]) -> list[int]:
        """Scorecard rows ordered by the sorted column (by their number without one), stably."""
        column = self._sort_column
        valid = 0 <= column < len(COLUMNS)
        places = self._places_of(column) if valid else list(range(self.rowCount()))
        return sorted_rows(rows, places, self._descending)

    def _show(self, rows: list[int]) -> None:
        self._shown, self._row_at = rows, None

    def _rows_at(self) -> list[int]:
        if self._row_at is None:
            self._row_at = [0] * len(self._shown)
            for shown, row in enumerate(self._shown):
                self._row_at[row] = shown
        return self._row_at

    def _take(self, scorecard: Scorecard, uncertainty: object | None) -> None:
        self._scorecard, self._uncertainty = scorecard, uncertainty
        self._resting = resting_if_known(scorecard)  # kept on the scorecard by a worker: a lookup
        self._rows, self._keys, self._places, self._band_range = None, {}, {}, None
        self._by_id = None

    def _cells_changed(self) -> None:
        """Every cell changed in place; sorted again (from the order shown) only if the sorted
        column's keys no longer follow it, as the view did behind its proxy before."""
        if not self.rowCount():
            return
        self.dataChanged.emit(
            self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1)
        )
        column = self._sort_column
        valid = 0 <= column < len(COLUMNS)
        if valid and not in_order(self._shown, self._places_of(column), self._descending):
            self._relayout(lambda: None, fresh=False)

    def set_uncertainty(self, uncertainty: object | None) -> None:
        self._take(self._scorecard, uncertainty)
        self._cells_changed()

    def score_at(self, row: int) -> BidScore:
        """The bid shown in `row`."""
        return self._scorecard.scores[self._shown[row]]

    def row_of(self, bid_id: str) -> int | None:
        """The row `bid_id` is shown in; None if it is not."""
        row = self._rows_by_id().get(bid_id)
        return None if row is None else self._rows_at()[row]

    def _rows_by_id(self) -> dict[str, int]:
        """Bid id -> the scorecard's row, once per scorecard (asked for at each edit's selection)."""
        if self._by_id is None:
            self._by_id = {score.bid.id: row for row, score in enumerate(self._scorecard.scores)}
        return self._by_id

    # -- Qt API ------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008 (Qt: an invalid index)
        return 0 if parent.isValid() else len(self._scorecard.scores)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008 (Qt: an invalid index)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self._shown[index.row()]  # the scorecard's row
        score = self._scorecard.scores[row]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, column)
        if role == SORT_ROLE:
            return self._key(row, column)
        if role == Qt.ItemDataRole.ForegroundRole and score.rank is None:
            return status_colour(BidStatus.FAILED_GATE, QApplication.palette())
        if (
            role == Qt.ItemDataRole.ToolTipRole and column == PROVIDER
        ):  # whole when the column elides it
            return score.bid.quote.provider
        if role == Qt.ItemDataRole.ToolTipRole and column in (RANK, FINDINGS):
            return findings(score, self._resting, "\n") or None
        currency = self._scorecard.evaluation.currency
        if role == Qt.ItemDataRole.ToolTipRole and column in (COMMITMENT, COST, TIME):
            return contract_tip(score, currency, decision_figure(self._scorecard, score.bid.id))
        if role == Qt.ItemDataRole.ToolTipRole and column in (BAND, WIN):
            ranked_on = decision_figure(self._scorecard, score.bid.id)
            return band_tip(score, self._bid_uncertainty(score), currency, ranked_on)
        if role == Qt.ItemDataRole.ToolTipRole and column == SCORE and score.rank is not None:
            return score_tip(score, self._scorecard.weights)
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in TEXT_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def band_figures(self, row: int) -> tuple[float, float, float] | None:
        """(P10, point estimate, P90) of the net plan cost of the bid in `row`; None without a band."""
        score = self.score_at(row)
        u = self._bid_uncertainty(score)
        if u is None or score.rank is None:
            return None
        return u.cost_p10, score.estimate.plan_cost, u.cost_p90

    def band_range(self) -> tuple[float, float] | None:
        """The lowest P10 and highest P90 over the ranked bids: the scale every row's bar is drawn on.
        Found once per scorecard and bands: each band cell painted asks (issue 32: a pass over
        every bid per cell painted was 60% of a 500-bid table's paint)."""
        if self._band_range is None:
            figures = [f for f in map(self.band_figures, range(self.rowCount())) if f is not None]
            self._band_range = (
                ((min(f[0] for f in figures), max(f[2] for f in figures)),) if figures else (None,)
            )
        return self._band_range[0]

    # -- formatting ----------------------------------------------------------------------------------
    def _bid_uncertainty(self, score: BidScore):
        bids = getattr(self._uncertainty, "bids", None) or {}
        return bids.get(score.bid.id)

    def _text(self, row: int, column: int) -> str:
        """The text of the scorecard's `row` in `column`: the same text the document keeps for the
        next start's first paint (core/comparison_table.py), written by the worker that scored
        (or with the bands) and read here."""
        if self._rows is None:
            self._rows = shown_rows(
                self._scorecard, self._uncertainty, self._resting, waiting=self._resting is None
            )
        return self._rows[row][column]

    def sort_key(self, row: int, column: int):
        """The key the row shown in `row` is ordered by in `column`."""
        return self._key(self._shown[row], column)

    def _key(self, row: int, column: int) -> object:
        """The sort key of the scorecard's `row` in `column`."""
        return self._column_keys(column)[row]

    def _column_keys(self, column: int) -> list[object]:
        """Every scorecard row's sort key in `column`, built once per scorecard and bands."""
        if column not in self._keys:
            self._keys[column] = column_keys(
                self._scorecard.scores,
                column,
                self._bid_uncertainty,
                lambda row: self._text(row, column),
            )
        return self._keys[column]

    def _places_of(self, column: int) -> list[int]:
        """Each scorecard row's place when ordered by `column`'s sort key; equal keys share a
        place, so a stable sort keeps their order in either direction."""
        if column not in self._places:
            self._places[column] = order_places(self._column_keys(column))
        return self._places[column]
