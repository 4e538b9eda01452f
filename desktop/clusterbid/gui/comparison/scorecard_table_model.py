"""The ranked comparison as a Qt table over a Scorecard (plus uncertainty when it is known)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication

from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.gui.bid_status import BidStatus, status_colour

DASH = "—"
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = (
    "Rank", "Provider", "GPU", "Price / GPU-h", "Block vs job", "Fabric", "Effective MFU", "Goodput",
    "Time to finish", "Cost to finish", "Cost P10–P90", "Per useful GPU-h", "Win probability", "Gates & flags",
)
TEXT_COLUMNS = {1, 2, 5, 13}


class ScorecardTableModel(QAbstractTableModel):
    def __init__(self, scorecard: Scorecard, uncertainty: object | None = None) -> None:
        super().__init__()
        self._scorecard = scorecard
        self._uncertainty = uncertainty

    # -- updates ---------------------------------------------------------------------------------
    @property
    def scorecard(self) -> Scorecard:
        return self._scorecard

    def set_scorecard(self, scorecard: Scorecard, uncertainty: object | None = None) -> None:
        self.beginResetModel()
        self._scorecard, self._uncertainty = scorecard, uncertainty
        self.endResetModel()

    def set_uncertainty(self, uncertainty: object | None) -> None:
        self._uncertainty = uncertainty
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def score_at(self, row: int) -> BidScore:
        return self._scorecard.scores[row]

    def row_of(self, bid_id: str) -> int | None:
        for row, score in enumerate(self._scorecard.scores):
            if score.bid.id == bid_id:
                return row
        return None

    # -- Qt API ------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._scorecard.scores)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
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
            return self._text(score, column)
        if role == SORT_ROLE:
            return self._sort_key(score, column)
        if role == Qt.ItemDataRole.ForegroundRole and score.rank is None:
            return status_colour(BidStatus.FAILED_GATE, QApplication.palette())
        if role == Qt.ItemDataRole.ToolTipRole and column in (0, 13):
            return self._findings(score, "\n") or None
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in TEXT_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    # -- formatting ----------------------------------------------------------------------------------
    def _bid_uncertainty(self, score: BidScore):
        bids = getattr(self._uncertainty, "bids", None) or {}
        return bids.get(score.bid.id)

    @staticmethod
    def _findings(score: BidScore, sep: str) -> str:
        e = score.estimate
        return sep.join([f"Excluded: {g.message}" for g in e.gates] + [w.message for w in e.warnings])

    def _text(self, score: BidScore, column: int) -> str:
        e, bid = score.estimate, score.bid
        currency = self._scorecard.evaluation.currency
        job = self._scorecard.evaluation.workload.job_gpus
        block = bid.capacity.largest_contiguous_block_gpus
        if column == 0:
            return DASH if score.rank is None else str(score.rank)
        if column == 1:
            return bid.quote.provider
        if column == 2:
            return bid.capacity.gpu_model
        if column == 3:
            return format_money(e.price_per_gpu_hour, currency, cents=True)
        if column == 4:
            return f"{block:,} {'≥' if block >= job else '<'} {job:,}"
        if column == 5:
            return f"{bid.fabric.technology} {bid.fabric.nics_per_node}×{bid.fabric.nic_line_rate_gbit_s:g}G"
        if column == 13:
            if e.gates:
                return "excluded: " + "; ".join(g.code.replace("_", " ") for g in e.gates)
            return f"passed, {len(e.warnings)} note(s)" if e.warnings else "passed"
        u = self._bid_uncertainty(score)
        if column == 10:
            if u is None or score.rank is None:
                return DASH
            return f"{format_money(u.cost_p10, currency)} – {format_money(u.cost_p90, currency)}"
        if column == 12:
            return DASH if u is None or score.rank is None else f"{u.win_probability:.0%}"
        if score.rank is None:
            return DASH
        return {
            6: f"{e.effective_mfu:.1%}",
            7: f"{e.goodput:.1%}",
            8: f"{e.wall_hours:,.0f} h ({e.wall_hours / 24:,.1f} d)",
            9: format_money(e.cost_to_finish, currency),
            11: format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True),
        }[column]

    def _sort_key(self, score: BidScore, column: int):
        e, bid = score.estimate, score.bid
        excluded = score.rank is None
        missing = float("inf")
        u = self._bid_uncertainty(score)
        keys = {
            0: missing if excluded else score.rank,
            3: e.price_per_gpu_hour,
            4: bid.capacity.largest_contiguous_block_gpus,
            6: missing if excluded else e.effective_mfu,
            7: missing if excluded else e.goodput,
            8: missing if excluded else e.wall_hours,
            9: missing if excluded else e.cost_to_finish,
            10: missing if excluded or u is None else u.cost_p50,
            11: missing if excluded else e.effective_price_per_useful_gpu_hour,
            12: missing if excluded or u is None else -u.win_probability,
            13: len(e.gates) * 1000 + len(e.warnings),
        }
        return keys.get(column, self._text(score, column).casefold())
