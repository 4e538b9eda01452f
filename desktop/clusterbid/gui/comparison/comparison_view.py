"""The ranked, sortable comparison table; it follows and reports the selected bid by id."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from clusterbid.gui.comparison.band_delegate import BandDelegate
from clusterbid.gui.comparison.scorecard_table_model import (
    BAND,
    FINDINGS,
    HIDE_FIRST,
    PROVIDER,
    ScorecardTableModel,
)

LAST_COLUMN_WIDTH = 150
# The narrowest the provider name may become (in average characters) when the deciding columns do
# not fit otherwise; the name elides and its tooltip has it whole.
PROVIDER_FLOOR_CHARS = 10
FINDINGS_FLOOR_TEXT = (
    "passed, 1 note"  # the gates column keeps room for its verdict (the reason: tooltip)
)
# Pixels beyond the font's height: half above the centred text, half below it, where the band's
# bar and mark take the last 4 and leave 3 clear (12 left 1, and "$" and "," touched the mark).
ROW_PADDING = 14


class ComparisonView(QTableView):
    bid_selected = Signal(str)  # bid id

    def __init__(self, model: ScorecardTableModel, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("comparison")
        self.source_model = model
        # No sort proxy: the model sorts its own rows when a header is clicked and keeps them
        # sorted across edits (scorecard_table_model.py). Behind a QSortFilterProxyModel each
        # price edit at 500 bids re-sorted with ~2,700 Python comparisons (issue 32).
        self.setModel(model)
        self.setSortingEnabled(True)
        self.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.verticalHeader().hide()
        # Sized once per new scorecard, not in ResizeToContents mode: that mode re-measures every
        # cell on each selection change, which cost ~100 ms per edit at 50 bids.
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.setAccessibleName("Ranked comparison of the bids")
        self.setItemDelegateForColumn(
            BAND, BandDelegate(self)
        )  # the P10-P90 band as a bar, on one scale
        self.selectionModel().currentRowChanged.connect(self._on_current)
        model.modelAboutToBeReset.connect(self._remember_selection)
        model.modelReset.connect(self._restore_selection)
        self._kept_id = None
        self._sized_for: dict | None = None
        self._findings_pending = False  # the findings were measured before their "rests on"
        self._restore_selection()

    def set_empty_hint(self, hint) -> None:
        """A widget shown over the table while the evaluation has no bids (what to do next)."""
        self.empty_hint = hint
        hint.setParent(self.viewport())
        self._place_hint()

    def _place_hint(self) -> None:
        hint = getattr(self, "empty_hint", None)
        if hint is not None:
            hint.setGeometry(self.viewport().rect())
            hint.setVisible(self.source_model.rowCount() == 0)

    def selected_bid_id(self) -> str | None:
        index = self.currentIndex()
        if not index.isValid():
            return None
        return self.source_model.score_at(index.row()).bid.id

    def select_bid(self, bid_id: str | None) -> None:
        row = None if bid_id is None else self.source_model.row_of(bid_id)
        if row is None:
            row = 0 if self.source_model.rowCount() else None
        if row is None:
            return
        index = self.source_model.index(row, 0)
        if index != self.currentIndex():
            self.setCurrentIndex(index)
            self.selectRow(index.row())

    def provider_order(self) -> list[str]:
        """Providers top to bottom as shown (after sorting)."""
        model = self.source_model
        return [model.index(r, 1).data() for r in range(model.rowCount())]

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.bid_selected.emit(self.source_model.score_at(current.row()).bid.id)

    def _remember_selection(self) -> None:
        self._kept_id = self.selected_bid_id()

    def fit_row_height(self) -> None:
        """Rows a line of text tall, with room under it for the P10-P90 bar (band_delegate.py)."""
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + ROW_PADDING)

    def _restore_selection(self) -> None:
        self.fit_row_height()
        # Bids by id, not a set: hashing every bid cost 20 ms an edit at 500 bids (a dict's ==
        # checks identity first). Not a list either: the decided ranking lists them in another order.
        bids = {score.bid.id: score.bid for score in self.source_model.scorecard.scores}
        if bids != self._sized_for:  # re-measuring costs ~60 ms at 50 bids: only when bids change
            self._sized_for = bids
            self.measure_columns()
        self.select_bid(self._kept_id)
        self._place_hint()

    def measure_columns(self, columns: tuple[int, ...] | None = None) -> None:
        """Size columns to their contents (all, or the given ones) and remember each width
        (hidden columns are shown to be measured; the last one stretches, so it is measured
        apart), then fit them to the view."""
        header = self.horizontalHeader()
        last = header.count() - 1
        if (
            not getattr(self, "_content_widths", None)
            or len(self._content_widths) != header.count()
        ):
            self._content_widths, columns = [0] * header.count(), None
        if columns is None or FINDINGS in columns:
            self._findings_pending = self.source_model.resting is None
        for column in range(header.count()) if columns is None else columns:
            header.setSectionHidden(column, False)
            if column != last:
                self.resizeColumnToContents(column)
                self._content_widths[column] = header.sectionSize(column)
                continue
            # The last column stretches and elides (its full text is the tooltip): count a short
            # width. Only it is measured again by hand (issue 32: every column was measured twice,
            # ~40 ms of the window's thread when the bands arrive at 50 bids).
            size = min(
                max(self.sizeHintForColumn(column), header.sectionSizeHint(column)),
                LAST_COLUMN_WIDTH,
            )
            self._content_widths[column] = size
            header.resizeSection(column, size)
        self.fit_columns()

    def findings_known(self) -> None:
        """What each rank rests on has filled the findings in (gui/rescoring.py): their column is
        measured again if it was measured without it, so the table ends as it would have been
        (called when they arrive, and with the bands' decided ranking, which may come first)."""
        if self._findings_pending and self.source_model.resting is not None:
            self.measure_columns((FINDINGS,))

    def fit_columns(self) -> None:
        """Show every column that fits the view's width, hiding the least telling first, so the
        table never scrolls sideways (the hidden figures are in the tooltips and Details pane)."""
        header = self.horizontalHeader()
        widths = getattr(self, "_content_widths", None)
        if not widths or len(widths) != header.count():
            return
        needed = sum(widths)
        hidden = set()
        for column in HIDE_FIRST:
            if needed <= self.viewport().width():
                break
            needed -= widths[column]
            hidden.add(column)
        for column in range(header.count()):
            header.setSectionHidden(column, column in hidden)
        last = header.count() - 1
        # Still too wide (presentation zoom on a laptop): the provider name gives way, down to a
        # floor, so that the gates column keeps room for its verdict and nothing scrolls sideways.
        over = needed - widths[last] + self.findings_floor() - self.viewport().width()
        provider = widths[PROVIDER]
        if over > 0:
            provider = max(min(self.provider_floor(), provider), provider - over)
        header.resizeSection(PROVIDER, provider)
        # The last column (gates and flags) takes what is left and elides; its tooltip has it all.
        others = sum(widths[c] for c in range(last) if c not in hidden and c != PROVIDER) + provider
        header.resizeSection(
            last, max(header.minimumSectionSize(), self.viewport().width() - others)
        )

    def provider_floor(self) -> int:
        return self.fontMetrics().averageCharWidth() * PROVIDER_FLOOR_CHARS

    def findings_floor(self) -> int:
        """The narrowest the gates and flags column may be: its verdict's first words."""
        return self.fontMetrics().horizontalAdvance(FINDINGS_FLOOR_TEXT) + 12

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit_columns()
        self._place_hint()
