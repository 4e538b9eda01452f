"""The ranked comparison as a Qt table over a Scorecard (plus uncertainty when it is known)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication

from clusterbid.core.contract_summary import billing_words, contract_lines
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.gui.bid_status import BidStatus, status_colour

DASH = "—"
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
# What decides first (sticker vs effective price, cost and time to finish), then why, then what.
# The net cost of the buyer's plan ranks; the commitment is what the signature approves.
COLUMNS = (
    "Rank", "Provider", "Price / GPU-h", "Per useful GPU-h", "Commitment", "Net plan cost", "Net cost P10–P90",
    "Time to finish", "Chance cheapest", "Effective MFU", "Goodput", "Block vs job", "GPU", "Fabric", "Gates & flags",
)
(RANK, PROVIDER, PRICE, USEFUL_PRICE, COMMITMENT, COST, BAND, TIME, WIN, MFU, GOODPUT, BLOCK, GPU, FABRIC,
 FINDINGS) = range(len(COLUMNS))
TEXT_COLUMNS = {PROVIDER, GPU, FABRIC, FINDINGS}


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
        if role == Qt.ItemDataRole.ToolTipRole and column in (RANK, FINDINGS):
            return self._findings(score, "\n") or None
        if role == Qt.ItemDataRole.ToolTipRole and column in (COMMITMENT, COST, TIME):
            return self._contract_tip(score)
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

    def _contract_tip(self, score: BidScore) -> str:
        e = score.estimate
        if score.rank is None:
            return billing_words(score.bid, self._scorecard.evaluation.currency)
        return "\n".join(f"{k}: {v}" for k, v in contract_lines(e, self._scorecard.evaluation.currency))

    def _text(self, score: BidScore, column: int) -> str:
        e, bid = score.estimate, score.bid
        currency = self._scorecard.evaluation.currency
        job = self._scorecard.evaluation.workload.job_gpus
        block = bid.capacity.largest_contiguous_block_gpus
        if column == RANK:
            return DASH if score.rank is None else str(score.rank)
        if column == PROVIDER:
            return bid.quote.provider
        if column == GPU:
            return bid.capacity.gpu_model
        if column == PRICE:
            return format_money(e.price_per_gpu_hour, currency, cents=True)
        if column == BLOCK:
            return f"{block:,} {'≥' if block >= job else '<'} {job:,}"
        if column == FABRIC:
            return f"{bid.fabric.technology} {bid.fabric.nics_per_node}×{bid.fabric.nic_line_rate_gbit_s:g}G"
        if column == FINDINGS:
            if e.gates:
                return "excluded: " + "; ".join(g.code.replace("_", " ") for g in e.gates)
            return f"passed, {len(e.warnings)} note(s)" if e.warnings else "passed"
        u = self._bid_uncertainty(score)
        if column == BAND:
            if u is None or score.rank is None:
                return DASH
            return f"{format_money(u.cost_p10, currency)} – {format_money(u.cost_p90, currency)}"
        if column == WIN:
            return DASH if u is None or score.rank is None else f"{u.win_probability:.0%}"
        if score.rank is None:
            return DASH
        return {
            MFU: f"{e.effective_mfu:.1%}",
            GOODPUT: f"{e.goodput:.1%}",
            TIME: f"{e.wall_hours / 24:,.1f} days",
            COST: format_money(e.plan_cost, currency),
            COMMITMENT: format_money(e.commitment, currency),
            USEFUL_PRICE: format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True),
        }[column]

    def _sort_key(self, score: BidScore, column: int):
        e, bid = score.estimate, score.bid
        excluded = score.rank is None
        missing = float("inf")
        u = self._bid_uncertainty(score)
        keys = {
            RANK: missing if excluded else score.rank,
            PRICE: e.price_per_gpu_hour,
            BLOCK: bid.capacity.largest_contiguous_block_gpus,
            MFU: missing if excluded else e.effective_mfu,
            GOODPUT: missing if excluded else e.goodput,
            TIME: missing if excluded else e.wall_hours,
            COST: missing if excluded else e.plan_cost,
            COMMITMENT: missing if excluded else e.commitment,
            BAND: missing if excluded or u is None else u.cost_p50,
            USEFUL_PRICE: missing if excluded else e.effective_price_per_useful_gpu_hour,
            WIN: missing if excluded or u is None else -u.win_probability,
            FINDINGS: len(e.gates) * 1000 + len(e.warnings),
        }
        return keys.get(column, self._text(score, column).casefold())
