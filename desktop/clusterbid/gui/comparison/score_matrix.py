"""The bid-by-criterion matrix beside the weights: why the ranking is what it is, in one look.

Each ranked bid's criteria scored 0 to 1 (1 best) under headings that carry the current weights,
and the weighted score they add up to; shaded so the strong and weak cells stand out."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from clusterbid.core.criteria import CRITERIA as CRITERIA_TABLE
from clusterbid.core.scoring import Scorecard
from clusterbid.gui.comparison.score_matrix_model import Cell, ScoreMatrixModel
from clusterbid.gui.comparison.scorecard_table_model import CRITERION_WORDS

CRITERIA = tuple(CRITERION_WORDS)
# Column headings short enough for a laptop; the full name is the heading's tooltip.
SHORT = {c.name: c.short for c in CRITERIA_TABLE}
NAME_FLOOR_CHARS = 12  # the narrowest the bid names become before the matrix scrolls
ROW_PADDING = 6  # pixels above and below a line of text


class ScoreMatrix(QTableView):
    def __init__(
        self,
        parent=None,
        criteria: tuple[str, ...] = CRITERIA,
        words: dict[str, str] = CRITERION_WORDS,
        short: dict[str, str] = SHORT,
    ) -> None:
        """`criteria`, `words` and `short` name the scorecard's criteria (serving ranks on the cost
        per million tokens where training ranks on the net plan cost)."""
        super().__init__(parent)
        self.criteria, self.words, self.short = criteria, words, short
        # A model whose cells are made when painted: the view asks for the rows in sight only.
        self.matrix_model = ScoreMatrixModel(criteria, words, short)
        self.setModel(self.matrix_model)
        self.setObjectName("score_matrix")
        self.setAccessibleName("Each bid's score per criterion and the weighted total")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.verticalHeader().hide()
        self.setWordWrap(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # Columns are fitted to the rows in view (figures of one width: "0.00" to "1.00"), not to
        # every row: all 500 rows measured per column cost 140 ms an edit (issue 32).
        # (Qt reads the precision from either header depending on the version: both say it.)
        self.verticalHeader().setResizeContentsPrecision(0)
        self.horizontalHeader().setResizeContentsPrecision(0)
        self._names: list[str] = []
        # Each criterion column's content width, measured once per criteria and font: its cells
        # always read "0.00" to "1.00" (the score "0.000"), so an edit that only re-scores needs
        # no measuring (issue 32: measuring the rows in view was 12-15 ms of the window's thread
        # per edit). The headings carry the weights and are measured each time (cheap).
        self._content_widths: dict[tuple, int] = {}

    # What a table widget answers, read from the model (tests and the zoom's checks read cells).
    def rowCount(self) -> int:  # noqa: N802 (QTableWidget's name)
        return self.matrix_model.rowCount()

    def columnCount(self) -> int:  # noqa: N802
        return self.matrix_model.columnCount()

    def item(self, row: int, column: int) -> Cell | None:
        return self.matrix_model.cell(row, column)

    def horizontalHeaderItem(self, column: int) -> Cell | None:  # noqa: N802
        return self.matrix_model.header_cell(column)

    def show_scorecard(self, scorecard: Scorecard) -> None:
        self.matrix_model.show(scorecard, self.font())
        self.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.Fixed
        )  # sized to the names below
        names = ["Bid", *self.matrix_model.names()]
        if names != self._names:  # the widest name measured again only when a name changes
            self._names = names
            self._names_width = max(map(self.fontMetrics().horizontalAdvance, names)) + 16
        self.horizontalHeader().resizeSection(0, self._names_width)
        # One line per row, as tall as the font needs: measuring each row's contents cost 40 ms
        # at 500 bids and gives the same height for one line of text.
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + ROW_PADDING)
        self.fit_columns()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._names = []  # measured again in the new font at the next fill
            self._content_widths = {}

    def fit_columns(self) -> None:
        """Each criterion at least its measured width, sharing the spare width when they fit; when
        they do not (a narrow pane, presentation zoom) the matrix scrolls rather than cut figures
        off. (Equal stretched columns cut a wide heading such as "Evidence" at 175% while the
        criteria's total still fitted.)"""
        header = self.horizontalHeader()
        if header.count() < 2:
            return
        needed = [
            max(self._content_width(c), header.sectionSizeHint(c)) for c in range(1, header.count())
        ]
        # The names give way first (they elide; the tooltip has them whole), down to a floor, so
        # the weighted score at the right edge stays in view without scrolling.
        names = getattr(self, "_names_width", header.sectionSize(0))
        floor = min(names, self.fontMetrics().averageCharWidth() * NAME_FLOOR_CHARS)
        header.resizeSection(0, max(floor, min(names, self.viewport().width() - sum(needed))))
        spare = self.viewport().width() - header.sectionSize(0) - sum(needed)
        for column, width in enumerate(needed, start=1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width + max(0, spare) // len(needed))

    def _content_width(self, column: int) -> int:
        """The widest cell of `column`, measured by Qt on the first fill with rows and kept."""
        model = self.matrix_model
        if model.rowCount() == 0:
            return self.sizeHintForColumn(column)
        key = (model.criteria, column)
        if key not in self._content_widths:
            self._content_widths[key] = self.sizeHintForColumn(column)
        return self._content_widths[key]

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit_columns()
