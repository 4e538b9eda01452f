"""The ranked comparison as a Qt table over a Scorecard (plus uncertainty when it is known)."""

from __future__ import annotations

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
from clusterbid.core.contract_summary import billing_words, contract_lines
from clusterbid.core.criteria import criterion_words
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.gui.bid_status import BidStatus, status_colour
from clusterbid.gui.comparison.sort_places import order_places

CRITERION_WORDS = criterion_words()  # core/criteria.py

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
        self._keys: dict[tuple[int, int], object] = {}  # (row, column) -> sort key, as the texts
        self._places: dict[int, list[int]] = {}  # column -> each row's place in its order
        self._band_range: tuple[tuple[float, float] | None] | None = None  # (the scale,) once found

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
            self.endResetModel()
            return
        if before == after:  # no row moved: every cell may have changed
            self._take(scorecard, uncertainty)
            self._cells_changed()
            return
        self.layoutAboutToBeChanged.emit()
        kept = self.persistentIndexList()  # the views' selection and current row, by bid
        self._take(scorecard, uncertainty)
        row_now = {bid_id: row for row, bid_id in enumerate(after)}
        self.changePersistentIndexList(
            kept, [self.index(row_now[before[index.row()]], index.column()) for index in kept]
        )
        self.layoutChanged.emit()  # the views repaint, and the sort proxy re-sorts, from here

    def _take(self, scorecard: Scorecard, uncertainty: object | None) -> None:
        self._scorecard, self._uncertainty = scorecard, uncertainty
        self._resting = resting_if_known(scorecard)  # kept on the scorecard by a worker: a lookup
        self._rows, self._keys, self._places, self._band_range = None, {}, {}, None

    def _cells_changed(self) -> None:
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1)
            )

    def set_uncertainty(self, uncertainty: object | None) -> None:
        self._take(self._scorecard, uncertainty)
        self._cells_changed()

    def score_at(self, row: int) -> BidScore:
        return self._scorecard.scores[row]

    def row_of(self, bid_id: str) -> int | None:
        for row, score in enumerate(self._scorecard.scores):
            if score.bid.id == bid_id:
                return row
        return None

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
        score = self._scorecard.scores[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(index.row(), column)
        if role == SORT_ROLE:
            return self.sort_key(index.row(), column)
        if role == Qt.ItemDataRole.ForegroundRole and score.rank is None:
            return status_colour(BidStatus.FAILED_GATE, QApplication.palette())
        if (
            role == Qt.ItemDataRole.ToolTipRole and column == PROVIDER
        ):  # whole when the column elides it
            return score.bid.quote.provider
        if role == Qt.ItemDataRole.ToolTipRole and column in (RANK, FINDINGS):
            return self._findings(score, "\n") or None
        if role == Qt.ItemDataRole.ToolTipRole and column in (COMMITMENT, COST, TIME):
            return self._contract_tip(score)
        if role == Qt.ItemDataRole.ToolTipRole and column in (BAND, WIN):
            return self._band_tip(score)
        if role == Qt.ItemDataRole.ToolTipRole and column == SCORE and score.rank is not None:
            return self._score_tip(score)
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in TEXT_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def band_figures(self, row: int) -> tuple[float, float, float] | None:
        """(P10, point estimate, P90) of the net plan cost of the bid in `row`; None without a band."""
        score = self._scorecard.scores[row]
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

    def _findings(self, score: BidScore, sep: str) -> str:
        e = score.estimate
        if self._resting is None:
            resting = (
                ["What its cost rank rests on is being worked out"]
                if score.rank is not None
                else []
            )
        elif score.bid.id in self._resting:
            resting = [
                "Its cost rank changes across the range of: "
                f"{', '.join(self._resting[score.bid.id])} "
                "(not stated or assumed; see Details)"
            ]
        else:
            resting = []
        return sep.join(
            [f"Excluded: {g.message}" for g in e.gates] + [w.message for w in e.warnings] + resting
        )

    def _band_tip(self, score: BidScore) -> str | None:
        u = self._bid_uncertainty(score)
        if u is None or score.rank is None:
            return None
        money = lambda v: format_money(v, self._scorecard.evaluation.currency, cents=True)  # noqa: E731
        return (
            f"Net cost of the plan, P10 / P50 / P90: {money(u.cost_p10)} / {money(u.cost_p50)} / "
            f"{money(u.cost_p90)}\nCheapest bid in {u.win_probability:.1%} of the simulated "
            "outcomes"
        )

    def _score_tip(self, score: BidScore) -> str:
        weights = self._scorecard.weights
        lines = [
            f"{CRITERION_WORDS.get(n, n)}: {value:.2f} x {weights[n]:.0%}"
            for n, value in score.criteria.items()
        ]
        return "Each criterion 0-1 (1 best) x its weight:\n" + "\n".join(lines)

    def _contract_tip(self, score: BidScore) -> str:
        e = score.estimate
        if score.rank is None:
            return billing_words(score.bid, self._scorecard.evaluation.currency)
        return "\n".join(
            f"{k}: {v}"
            for k, v in contract_lines(e, self._scorecard.evaluation.currency, cents=True)
        )

    def _text(self, row: int, column: int) -> str:
        # The same text the document keeps for the next start's first paint (core/comparison_table.py),
        # written by the worker that scored (or with the bands) and read here.
        if self._rows is None:
            self._rows = shown_rows(
                self._scorecard, self._uncertainty, self._resting, waiting=self._resting is None
            )
        return self._rows[row][column]

    def sort_key(self, row: int, column: int):
        """The key the sorted view orders `row` by in `column`, built once per scorecard and bands:
        a sort asks for it about 2 n log n times (issue 32: 13 keys built per ask before)."""
        if (row, column) not in self._keys:
            self._keys[(row, column)] = self._sort_key(row, column)
        return self._keys[(row, column)]

    def sort_places(self, column: int) -> list[int]:
        """Each row's place when the rows are ordered by `column`'s sort key; equal keys share a
        place, so Qt's stable sort keeps their order in either direction."""
        if column not in self._places:
            self._places[column] = order_places(
                [self.sort_key(row, column) for row in range(self.rowCount())]
            )
        return self._places[column]

    def _sort_key(self, row: int, column: int):
        # Only the asked column's key (issue 32: all thirteen were built per ask at each re-sort).
        score = self._scorecard.scores[row]
        e = score.estimate
        missing = float("inf")
        if column == PRICE:
            return e.price_per_gpu_hour
        if column == BLOCK:
            return score.bid.capacity.largest_contiguous_block_gpus
        if column == FINDINGS:
            return len(e.gates) * 1000 + len(e.warnings)
        excluded = score.rank is None
        figures = {
            RANK: lambda: score.rank,
            SCORE: lambda: -score.weighted_score,
            MFU: lambda: e.effective_mfu,
            GOODPUT: lambda: e.goodput,
            TIME: lambda: e.wall_hours,
            COST: lambda: e.plan_cost,
            COMMITMENT: lambda: e.commitment,
            USEFUL_PRICE: lambda: e.effective_price_per_useful_gpu_hour,
        }
        if column in figures:
            return missing if excluded else figures[column]()
        if column in (BAND, WIN):
            u = self._bid_uncertainty(score)
            if excluded or u is None:
                return missing
            return u.cost_p50 if column == BAND else -u.win_probability
        return self._text(row, column).casefold()
