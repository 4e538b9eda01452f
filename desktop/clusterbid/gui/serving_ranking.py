"""The serving window's ranking: only the columns that decide (rank, provider, score, the cost per
million output tokens the bids are ranked on, the point cost, its P10-P90 band, the chance of
being cheapest, gates), fitted to the
table's width so none of them ever scrolls off-screen. Every other figure of a bid (price, fleet,
throughput, monthly bill) is in its tooltip and in the Details tab (serving_details.py).

The provider name gives way first (elided, whole in its tooltip); then the gates verdict, whose
full reasons are its tooltip and the Gates and flags tab."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from clusterbid.core.costmodel.serving_bill_gpus import bill_words, fleet_words, grows
from clusterbid.core.money import format_money
from clusterbid.core.serving_scoring import ServingScorecard

RANK, PROVIDER, SCORE, RANKED, COST, BAND, CHEAPEST, GATES = range(8)
HEADINGS = (
    "Rank",
    "Provider",
    "Score",
    "Ranked on",
    "Point cost per\nmillion tokens",
    "Likely range\n(P10 – P90)",
    "Cheapest",
    "Gates",
)
HEADING_TIPS = (
    "Place by weighted score (1 = recommended)",
    "The provider who made the bid",
    "Weighted score, 0 to 1: each criterion's score times its weight (the matrix below)",
    "The cost per million output tokens the bids are ranked on: the mean over the Monte Carlo "
    "samples (or their median, as the policy says; the point estimate when no bands are run)",
    "Cost per million output tokens at the average load, the GPUs billed at peak provisioning: "
    "the point estimate, at the assumed or measured efficiencies",
    "Cost per million output tokens: 10% of the simulated outcomes cost less than the first "
    "figure, 10% more than the second",
    "Share of the simulated outcomes in which this bid is the cheapest that can serve",
    "Whether the bid can serve the workload at all, and how many workload-fit flags it carries",
)
# A gate in a few words, where the table has no room for the whole reason (its tooltip has it).
GATE_WORDS = {
    "precision_unsupported": "precision unsupported",
    "replica_does_not_fit_offer": "a replica does not fit the offer",
    "weights_exceed_hbm": "weights do not fit in memory",
    "kv_cache_exceeds_hbm": "no memory left for requests",
    "latency_targets_unmeetable": "latency targets out of reach",
    "not_enough_gpus": "not enough GPUs",
    "capacity_unlikely": "GPUs fall short too often",
}
CANNOT_SERVE = QColor("#b3261e")
PROVIDER_FLOOR_CHARS = 10  # the narrowest the provider column becomes before the gates give way
GATES_FLOOR_TEXT = "Can serve, 2 flags"  # the verdict's usual width; the rest is its tooltip
DASH = "—"
CELL_PADDING = 16  # px around a cell's text (the style's margins and the focus frame)


def gate_words(score) -> str:
    """Why a bid that cannot serve is set aside, in a few words (never a cost)."""
    return "; ".join(GATE_WORDS.get(g.code, "see Gates and flags") for g in score.estimate.gates)


def cells(scorecard: ServingScorecard, score) -> list[str]:
    """A bid's row as shown: money with its currency, to the cent; a bid that cannot serve shows
    why across the cost columns, not a figure."""
    e, currency = score.estimate, scorecard.evaluation.currency
    band = scorecard.band(score.bid.id)
    if score.rank is None:
        return [
            DASH,
            score.bid.quote.provider,
            DASH,
            f"Cannot serve: {gate_words(score)}",
            DASH,
            DASH,
            DASH,
            "Cannot serve",
        ]
    flags = len(e.warnings)
    verdict = f"Can serve, {flags} flag{'s' if flags > 1 else ''}" if flags else "Can serve"
    has_band = band is not None and band.chance_servable > 0
    return [
        str(score.rank),
        score.bid.quote.provider,
        f"{score.weighted_score:.3f}",
        format_money(
            scorecard.decision_costs.get(score.bid.id, e.cost_per_million_tokens),
            currency,
            cents=True,
        ),
        format_money(e.cost_per_million_tokens, currency, cents=True),
        (
            f"{format_money(band.cost_per_million[0], currency, cents=True)} – "
            f"{format_money(band.cost_per_million[2], currency, cents=True)}"
        )
        if has_band
        else DASH,
        f"{band.chance_cheapest:.0%}" if band is not None else DASH,
        verdict,
    ]


def row_tip(scorecard: ServingScorecard, score) -> str:
    """What the table leaves out for want of room, for the whole row's tooltip."""
    e, bid, currency = score.estimate, score.bid, scorecard.evaluation.currency
    lines = [
        f"{bid.quote.provider}: {bid.capacity.gpu_model}, "
        f"{format_money(e.price_per_gpu_hour, currency, cents=True)} per GPU-hour"
    ]
    if score.rank is None:
        lines += [f"Cannot serve: {g.message}" for g in e.gates]
    else:
        if grows(e):  # issue 37: a growing service's mean month, beside the GPUs it reserves
            lines += [f"GPUs: {fleet_words(e)}", f"Monthly cost: {bill_words(e, currency)}"]
        else:
            lines.append(
                f"{e.gpus_needed:,} GPUs needed, {e.gpus_billed:,} billed; "
                f"{format_money(e.monthly_cost, currency, cents=True)} a month"
            )
        lines += [f"Flag: {w.message}" for w in e.warnings]
    return "\n".join(lines)


class ServingRanking(QTableWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(0, len(HEADINGS), parent)
        self.setObjectName("serving_table")
        self.setAccessibleName("Serving bids ranked by weighted score")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSortingEnabled(False)  # rank order is the point; keep it
        self.verticalHeader().hide()  # the rank column numbers the rows
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        # Never a sideways scroll bar: fit_columns gives every deciding column its width.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalHeaderLabels(list(HEADINGS))
        for column, tip in enumerate(HEADING_TIPS):
            self.horizontalHeaderItem(column).setToolTip(tip)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.bid_ids: list[str] = []

    def show_scorecard(self, scorecard: ServingScorecard) -> None:
        scores = scorecard.scores  # ranked first, in rank order, then those that cannot serve
        self.bid_ids = [s.bid.id for s in scores]
        self.clearSpans()
        self.setRowCount(len(scores))
        for row, score in enumerate(scores):
            tip = row_tip(scorecard, score)
            for column, text in enumerate(cells(scorecard, score)):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if column not in (PROVIDER, GATES) and not text.startswith("Cannot"):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if score.rank is None:
                    item.setForeground(QBrush(CANNOT_SERVE))
                self.setItem(row, column, item)
            if score.rank is None:  # the reason spans the figures it has none of
                self.setSpan(row, RANKED, 1, CHEAPEST - RANKED + 1)
        self.fit_columns()

    def _needed(self) -> list[int]:
        """Each column's width for its heading and the cells of the ranked bids (a set-aside bid's
        reason spans three columns and elides; its whole text is the tooltip)."""
        header, metrics = self.horizontalHeader(), self.fontMetrics()
        needed = [header.sectionSizeHint(c) for c in range(self.columnCount())]
        for row in range(self.rowCount()):
            if self.columnSpan(row, RANKED) > 1:
                continue
            for column in range(self.columnCount()):
                item = self.item(row, column)
                if item is not None:
                    needed[column] = max(
                        needed[column], metrics.horizontalAdvance(item.text()) + CELL_PADDING
                    )
        return needed

    def _floors(self) -> dict[int, int]:
        metrics = self.fontMetrics()
        return {
            PROVIDER: metrics.averageCharWidth() * PROVIDER_FLOOR_CHARS,
            GATES: metrics.horizontalAdvance(GATES_FLOOR_TEXT) + CELL_PADDING,
        }

    def fit_columns(self) -> None:
        """The deciding figures at their measured width; the provider and gates share what is left,
        each down to its floor, and elide beyond it (whole in the tooltip)."""
        self.resizeRowsToContents()
        needed, floors = self._needed(), self._floors()
        spare = self.viewport().width() - sum(w for c, w in enumerate(needed) if c not in floors)
        widths = dict(enumerate(needed))
        for column in (PROVIDER, GATES):
            widths[column] = min(needed[column], floors[column])
        # What is left after both floors is shared, then goes to whichever still wants it.
        rest = spare - widths[PROVIDER] - widths[GATES]
        for column in (PROVIDER, GATES):
            grow = max(0, min(rest // 2, needed[column] - widths[column]))
            widths[column] += grow
        rest = spare - widths[PROVIDER] - widths[GATES]
        for column in (PROVIDER, GATES):
            grow = max(0, min(rest, needed[column] - widths[column]))
            widths[column] += grow
            rest -= grow
        widths[GATES] += max(0, rest)  # the last column reaches the right edge
        # Narrower than the floors (the splitter not yet widened): the provider, then the gates
        # verdict elide further, never a sideways scroll.
        over = sum(widths.values()) - self.viewport().width()
        for column in (PROVIDER, GATES):
            cut = max(0, min(over, widths[column] - self.fontMetrics().averageCharWidth() * 3))
            widths[column] -= cut
            over -= cut
        for column, width in widths.items():
            self.horizontalHeader().resizeSection(column, width)

    def needed_width(self) -> int:
        """The table's width with every deciding column whole and the provider and gates at their floors."""
        floors = self._floors()
        columns = sum(w for c, w in enumerate(self._needed()) if c not in floors) + sum(
            floors.values()
        )
        return columns + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth() + 8

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit_columns()
