"""A read-only Qt table over a Scorecard: one row per bid, ranked first, excluded bids last."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor

from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard

COLUMNS = ("Rank", "Provider", "GPU", "Fabric", "Price / GPU-h", "Effective MFU", "Goodput", "Hours", "Cost to finish", "Per useful GPU-h", "Score")
EXCLUDED_COLOUR = QColor("#8a1c1c")


class ScorecardTableModel(QAbstractTableModel):
    def __init__(self, scorecard: Scorecard) -> None:
        super().__init__()
        self._scorecard = scorecard

    def score_at(self, row: int) -> BidScore:
        return self._scorecard.scores[row]

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 (Qt API)
        return 0 if parent.isValid() else len(self._scorecard.scores)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        score = self._scorecard.scores[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell(score, index.column())
        if role == Qt.ItemDataRole.ForegroundRole and score.rank is None:
            return EXCLUDED_COLOUR
        if role == Qt.ItemDataRole.ToolTipRole and score.rank is None:
            return "\n".join(g.message for g in score.estimate.gates)
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() >= 4:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _cell(self, score: BidScore, column: int) -> str:
        e, bid = score.estimate, score.bid
        currency = self._scorecard.evaluation.currency
        fixed = {
            0: "—" if score.rank is None else str(score.rank),
            1: bid.quote.provider,
            2: bid.capacity.gpu_model,
            3: f"{bid.fabric.technology} {bid.fabric.nics_per_node}x{bid.fabric.nic_line_rate_gbit_s:g}G",
            4: format_money(e.price_per_gpu_hour, currency, cents=True),
        }
        if column in fixed:
            return fixed[column]
        if score.rank is None:
            return "excluded: " + e.gates[0].code.replace("_", " ") if column == 5 else ""
        return {
            5: f"{e.effective_mfu:.1%}",
            6: f"{e.goodput:.1%}",
            7: f"{e.wall_hours:,.0f}",
            8: format_money(e.cost_to_finish, currency),
            9: format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True),
            10: f"{score.weighted_score:.3f}",
        }[column]
