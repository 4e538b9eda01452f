"""The ranked comparison as a Qt table over a Scorecard (plus uncertainty when it is known)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication

from clusterbid.core.contract_summary import billing_words, contract_lines
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.gui.bid_status import BidStatus, status_colour

CRITERION_WORDS = {
    "cost_to_finish": "Net plan cost", "sla": "SLA", "datacenter_tier": "Data-centre tier",
    "certifications": "Certifications", "support": "Support", "contract_terms": "Contract terms",
    "evidence": "Evidence",
}

DASH = "—"
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
# What decides first (sticker vs effective price, cost and time to finish), then why, then what.
# Why the order is what it is first (the weighted score and the net cost of the buyer's plan, which
# dominates it), then what the signature commits to, then the physics behind the cost.
COLUMNS = (
    "Rank", "Provider", "Score", "Net plan cost", "P10–P90", "Cheapest", "Commitment",
    "Time to finish", "Price / GPU-h", "Per useful GPU-h", "Effective MFU", "Goodput", "Block vs job", "GPU",
    "Fabric", "Gates & flags",
)
(RANK, PROVIDER, SCORE, COST, BAND, WIN, COMMITMENT, TIME, PRICE, USEFUL_PRICE, MFU, GOODPUT, BLOCK, GPU, FABRIC,
 FINDINGS) = range(len(COLUMNS))
# Columns a narrow window hides first (the comparison must fit a 1366-pixel laptop screen
# without scrolling sideways); every figure stays in the Details pane and the tooltips.
HIDE_FIRST = (FABRIC, GPU, GOODPUT, MFU, BLOCK, USEFUL_PRICE, TIME, PRICE, COMMITMENT)
# Short words for the findings column; the full sentence is the tooltip and in the Details pane.
FINDING_WORDS = {
    "contiguous_block_too_small": "block smaller than the job",
    "tp_exceeds_nvlink_domain": "TP crosses NVLink",
    "tcp_only_multi_node": "no RDMA fabric",
    "precision_unsupported": "precision unsupported",
    "model_state_exceeds_hbm": "model does not fit in memory",
    "misses_deadline": "misses the deadline",
    "reserves_fewer_gpus_than_job": "reserves too few GPUs",
    "job_outlasts_block": "job longer than the block",
}
TEXT_COLUMNS = {PROVIDER, GPU, FABRIC, FINDINGS}


def _short_money(amount: float, currency: str, millions: bool) -> str:
    """Millions to two decimals ($1.50M) so a band fits a laptop-width column; exact in the tooltip."""
    if not millions:
        return format_money(amount, currency)
    text = format_money(amount / 1e6, currency, cents=True)
    return f"{text}M" if not text.endswith(currency) else text.replace(f" {currency}", f"M {currency}")


def rank_resting_on(scorecard: Scorecard) -> dict[str, list[str]]:
    """Bid id -> the defaults and assumptions whose documented range moves its cost rank."""
    from clusterbid.core.memo.provenance_lines import field_words
    from clusterbid.core.provenance.model import UNVERIFIED_KINDS
    from clusterbid.core.uncertainty.default_effects import scorecard_default_effects

    return {bid_id: words for bid_id, effects in scorecard_default_effects(scorecard).items()
            if (words := [field_words(e.field) for e in effects if e.moves_rank and e.kind in UNVERIFIED_KINDS])}


class ScorecardTableModel(QAbstractTableModel):
    def __init__(self, scorecard: Scorecard, uncertainty: object | None = None) -> None:
        super().__init__()
        self._scorecard = scorecard
        self._uncertainty = uncertainty
        self._resting = rank_resting_on(scorecard)

    # -- updates ---------------------------------------------------------------------------------
    @property
    def scorecard(self) -> Scorecard:
        return self._scorecard

    def set_scorecard(self, scorecard: Scorecard, uncertainty: object | None = None) -> None:
        self.beginResetModel()
        self._scorecard, self._uncertainty = scorecard, uncertainty
        self._resting = rank_resting_on(scorecard)
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
        """The lowest P10 and highest P90 over the ranked bids: the scale every row's bar is drawn on."""
        figures = [f for f in map(self.band_figures, range(self.rowCount())) if f is not None]
        return (min(f[0] for f in figures), max(f[2] for f in figures)) if figures else None

    # -- formatting ----------------------------------------------------------------------------------
    def _bid_uncertainty(self, score: BidScore):
        bids = getattr(self._uncertainty, "bids", None) or {}
        return bids.get(score.bid.id)

    def _findings(self, score: BidScore, sep: str) -> str:
        e = score.estimate
        resting = [f"Its cost rank changes across the range of: {', '.join(self._resting[score.bid.id])} "
                   "(not stated or assumed; see Details)"] if score.bid.id in self._resting else []
        return sep.join([f"Excluded: {g.message}" for g in e.gates] + [w.message for w in e.warnings]
                        + resting)

    def _band_tip(self, score: BidScore) -> str | None:
        u = self._bid_uncertainty(score)
        if u is None or score.rank is None:
            return None
        money = lambda v: format_money(v, self._scorecard.evaluation.currency)  # noqa: E731
        return (f"Net cost of the plan, P10 / P50 / P90: {money(u.cost_p10)} / {money(u.cost_p50)} / "
                f"{money(u.cost_p90)}\nCheapest bid in {u.win_probability:.1%} of the simulated outcomes")

    def _score_tip(self, score: BidScore) -> str:
        weights = self._scorecard.weights
        lines = [f"{CRITERION_WORDS.get(n, n)}: {value:.2f} x {weights[n]:.0%}" for n, value in score.criteria.items()]
        return "Each criterion 0-1 (1 best) x its weight:\n" + "\n".join(lines)

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
                return "excluded: " + "; ".join(FINDING_WORDS.get(g.code, g.code.replace("_", " ")) for g in e.gates)
            count = len(e.warnings)
            passed = f"passed, {count} note{'s' if count > 1 else ''}" if count else "passed"
            resting = self._resting.get(bid.id)
            # Issue 14: a rank a default or an assumption can overturn says so where ranks are read.
            return f"{passed}; rank rests on {', '.join(resting)}" if resting else passed
        u = self._bid_uncertainty(score)
        if column == BAND:
            if u is None or score.rank is None:
                return DASH
            millions = u.cost_p90 >= 1e6  # both ends in one unit
            return f"{_short_money(u.cost_p10, currency, millions)} – {_short_money(u.cost_p90, currency, millions)}"
        if column == WIN:
            return DASH if u is None or score.rank is None else f"{u.win_probability:.0%}"
        if score.rank is None:
            return DASH
        return {
            SCORE: f"{score.weighted_score:.3f}",
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
            SCORE: missing if excluded else -score.weighted_score,
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
