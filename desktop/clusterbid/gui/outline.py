"""The evaluation at a glance: the workload and each bid with its status badge."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem

from clusterbid.core.scoring import Scorecard
from clusterbid.gui.bid_status import BADGES, bid_status, is_dark, missing_evidence, status_colour

BID_ID_ROLE = Qt.ItemDataRole.UserRole + 2
WORKLOAD_KEY = "__workload__"


def outline_rows(scorecard: Scorecard) -> tuple[tuple, ...]:
    """Each bid's line (id, provider, status, reasons, words), in entry order, not rank: the
    outline is where officers find a bid by name. Made once per scorecard and kept on it, by the
    worker that scored it (gui/rescoring.py; issue 32: ~7 ms a bid-pass at 500 bids)."""
    derived = getattr(scorecard, "derived", None)
    if derived is not None and "outline_rows" in derived:
        return derived["outline_rows"]
    order = {bid.id: i for i, bid in enumerate(scorecard.evaluation.bids)}
    rows = []
    for score in sorted(scorecard.scores, key=lambda s: order.get(s.bid.id, 0)):
        reasons = [g.message for g in score.estimate.gates] or [
            f"missing: {what}" for what in missing_evidence(score)
        ]
        rows.append(
            (
                score.bid.id,
                score.bid.quote.provider,
                bid_status(score),
                "\n".join(reasons) or "gates passed and the expected evidence is on file",
                f"{score.bid.quote.provider}, {score.bid.capacity.gpu_model}",
            )
        )
    if derived is not None:
        derived["outline_rows"] = tuple(rows)
    return tuple(rows)


class OutlineTree(QTreeWidget):
    bid_selected = Signal(str)
    workload_selected = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("outline")
        self.setHeaderLabels(["Evaluation", "Status"])
        self.setAccessibleName("Outline of the evaluation")
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.currentItemChanged.connect(self._on_current)
        self._filling = False
        self._shown: tuple | None = None  # what the tree holds: refilled only when it changes
        self._items: dict[str, QTreeWidgetItem] = {}  # bid id -> its line, for selecting it

    def show_scorecard(self, scorecard: Scorecard, selected_bid: str | None = None) -> None:
        w = scorecard.evaluation.workload
        rows = outline_rows(scorecard)
        shown = (
            w.name,
            w.job_gpus,
            tuple(rows),
            is_dark(self.palette()),
        )  # badge colours follow the theme
        if (
            shown == self._shown
        ):  # most edits (weights, a price) change no name or status: keep the tree
            if selected_bid is not None:
                self.select_bid(selected_bid)
            return
        self._shown = shown
        self._fill(shown, selected_bid)

    def _fill(self, shown: tuple, selected_bid: str | None) -> None:
        name, job_gpus, rows, _dark = shown
        self._filling = True
        self.clear()
        self._items = {}
        workload = QTreeWidgetItem(["Workload", f"{job_gpus:,} GPUs"])
        workload.setToolTip(0, name)
        workload.setData(0, BID_ID_ROLE, WORKLOAD_KEY)
        bids = QTreeWidgetItem([f"Bids ({len(rows)})", ""])
        bids.setFlags(bids.flags() & ~Qt.ItemFlag.ItemIsSelectable)
        self.addTopLevelItems([workload, bids])
        palette = self.palette()
        for bid_id, provider, status, reasons, words in rows:
            item = QTreeWidgetItem([provider, BADGES[status]])
            item.setData(0, BID_ID_ROLE, bid_id)
            item.setForeground(1, status_colour(status, palette))
            item.setToolTip(1, reasons)
            item.setToolTip(0, words)  # the bid as the table shows it, never its id (issue 38)
            bids.addChild(item)
            self._items[bid_id] = item
            if bid_id == selected_bid:
                self.setCurrentItem(item)
        self.expandAll()
        self._filling = False

    def select_bid(self, bid_id: str) -> None:
        item = self._items.get(bid_id)
        if item is not None and self.currentItem() is not item:
            self._filling = True
            self.setCurrentItem(item)
            self._filling = False

    def _on_current(self, current: QTreeWidgetItem | None, _previous) -> None:
        if self._filling or current is None:
            return
        key = current.data(0, BID_ID_ROLE)
        if key == WORKLOAD_KEY:
            self.workload_selected.emit()
        elif key:
            self.bid_selected.emit(key)
