"""The score matrix's cells as a Qt model: a scorecard in, texts and shades out, made for the
cells a paint asks for. Filling item widgets made 4,500 items per edit at 500 bids, on the
window's thread, where the view shows about thirty rows (issue 32)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from clusterbid.core.provider_rating import criteria_in_view

RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
Index = QModelIndex | QPersistentModelIndex


def hue(value: float) -> int:
    """Pale red (0) through pale yellow to pale green (1), light enough for dark text: the hue of
    QColor.fromHsv(hue, 60, 245)."""
    return int(120 * max(0.0, min(1.0, value)))


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell's text and tooltip, as a table widget's item gives them (for tests and accessibility)."""

    text_shown: str
    tip: str | None

    def text(self) -> str:
        return self.text_shown

    def toolTip(self) -> str:  # noqa: N802 (the name QTableWidgetItem gives it)
        return self.tip or ""


class ScoreMatrixModel(QAbstractTableModel):
    """Rows: the ranked bids. Columns: the bid's name, each criterion (0-1, 1 best), the score."""

    def __init__(
        self, criteria: tuple[str, ...], words: dict[str, str], short: dict[str, str]
    ) -> None:
        super().__init__()
        self.all_criteria, self.words, self.short = criteria, words, short
        self.criteria: tuple[str, ...] = criteria  # those in view (core/provider_rating.py decides)
        self._ranked: list[Any] = []  # BidScore or ServingScore: both have these fields
        self._weights: dict[str, float] = {}
        self._shades: dict[int, QColor] = {}  # one colour per hue, made once
        self._black = QColor("black")
        self.bold = QFont()
        self.bold.setBold(True)

    def show(self, scorecard: Any, font: QFont) -> None:
        """The same bids and criteria re-scored (a weight edit): rows move, cells and headings
        change, the view keeps its state (issue 32: a reset per edit re-made it at 500 bids).
        Other bids or criteria in view: the model is reset."""
        ranked, weights = list(scorecard.ranked), dict(scorecard.weights)
        ratings = getattr(scorecard.evaluation, "provider_ratings", ())
        criteria = tuple(criteria_in_view(self.all_criteria, weights, ratings))
        before = [score.bid.id for score in self._ranked]
        after = [score.bid.id for score in ranked]
        bold = QFont(font)
        bold.setBold(True)
        if criteria != self.criteria or sorted(before) != sorted(after) or bold != self.bold:
            self.beginResetModel()
            self._ranked, self._weights, self.criteria, self.bold = ranked, weights, criteria, bold
            self.endResetModel()
            return
        moved = before != after
        if moved:
            self.layoutAboutToBeChanged.emit()
        self._ranked, self._weights = ranked, weights
        if moved:
            row_now = {bid_id: row for row, bid_id in enumerate(after)}
            kept = self.persistentIndexList()
            self.changePersistentIndexList(
                kept, [self.index(row_now[before[i.row()]], i.column()) for i in kept]
            )
            self.layoutChanged.emit()
        elif ranked:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(ranked) - 1, self.columnCount() - 1)
            )
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    def names(self) -> list[str]:
        return [self._name(row) for row in range(len(self._ranked))]

    def _name(self, row: int) -> str:
        score = self._ranked[row]
        return f"{score.rank}. {score.bid.quote.provider}"

    # -- Qt API ------------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt: an invalid index)
        return 0 if parent.isValid() else len(self._ranked)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt: an invalid index)
        return 0 if parent.isValid() else len(self.criteria) + 2

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,  # noqa: N802 (Qt API)
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < self.columnCount():
            return None
        inside = 1 <= section <= len(self.criteria)
        name = self.criteria[section - 1] if inside else ""
        if role == Qt.ItemDataRole.DisplayRole:
            if not inside:
                return "Bid" if section == 0 else "Score"
            return f"{self.short[name]}\n{self._weights.get(name, 0.0):.0%}"
        if role == Qt.ItemDataRole.ToolTipRole and inside:
            return (
                f"{self.words[name]}, weight {self._weights.get(name, 0.0):.1%}: 0 to 1, 1 best "
                "(methodology 6)"
            )
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        score = self._ranked[row]
        if column == 0:
            return (
                self._name(row)
                if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
                else None
            )
        if column > len(self.criteria):  # the weighted score, bold
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{score.weighted_score:.3f}"
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return RIGHT
            return self.bold if role == Qt.ItemDataRole.FontRole else None
        criterion = self.criteria[column - 1]
        value = score.criteria[criterion]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{value:.2f}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return RIGHT
        if role == Qt.ItemDataRole.BackgroundRole:
            shade = hue(value)
            return self._shades.get(shade) or self._shades.setdefault(
                shade, QColor.fromHsv(shade, 60, 245)
            )
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._black
        if role == Qt.ItemDataRole.ToolTipRole:
            weight = self._weights[criterion]
            return (
                f"{self.words[criterion]}: {value:.3f} x weight {weight:.1%} = "
                f"{value * weight:.3f} of the score"
            )
        return None

    def cell(self, row: int, column: int) -> Cell | None:
        if not (0 <= row < self.rowCount() and 0 <= column < self.columnCount()):
            return None
        index = self.index(row, column)
        return Cell(index.data(), index.data(Qt.ItemDataRole.ToolTipRole))

    def header_cell(self, column: int) -> Cell | None:
        if not 0 <= column < self.columnCount():
            return None
        words = (
            self.headerData(column, Qt.Orientation.Horizontal, role)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
        )
        return Cell(*words)
