"""The bid-by-criterion matrix beside the weights: why the ranking is what it is, in one look.

Each ranked bid's criteria scored 0 to 1 (1 best) under headings that carry the current weights,
and the weighted score they add up to; shaded so the strong and weak cells stand out."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from clusterbid.core.scoring import Scorecard
from clusterbid.gui.comparison.scorecard_table_model import CRITERION_WORDS

CRITERIA = tuple(CRITERION_WORDS)
# Column headings short enough for a laptop; the full name is the heading's tooltip.
SHORT = {"cost_to_finish": "Cost", "sla": "SLA", "datacenter_tier": "Tier", "certifications": "Certs",
         "support": "Support", "contract_terms": "Terms", "evidence": "Evidence",
         "provider_rating": "Rating"}
NAME_FLOOR_CHARS = 12  # the narrowest the bid names become before the matrix scrolls
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
ROW_PADDING = 6  # pixels above and below a line of text


def _hue(value: float) -> int:
    """Pale red (0) through pale yellow to pale green (1), light enough for dark text: the hue of
    QColor.fromHsv(hue, 60, 245)."""
    return int(120 * max(0.0, min(1.0, value)))


class ScoreMatrix(QTableWidget):
    def __init__(self, parent=None, criteria: tuple[str, ...] = CRITERIA,
                 words: dict[str, str] = CRITERION_WORDS, short: dict[str, str] = SHORT) -> None:
        """`criteria`, `words` and `short` name the scorecard's criteria (serving ranks on the cost
        per million tokens where training ranks on the net plan cost)."""
        super().__init__(parent)
        self.criteria, self.words, self.short = criteria, words, short
        self.setObjectName("score_matrix")
        self.setAccessibleName("Each bid's score per criterion and the weighted total")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.verticalHeader().hide()
        self.setWordWrap(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # Columns are fitted to the rows in view (figures of one width: "0.00" to "1.00"), not to
        # every row: all 500 rows measured per column cost 140 ms an edit (issue 32).
        self.verticalHeader().setResizeContentsPrecision(0)

    def show_scorecard(self, scorecard: Scorecard) -> None:
        ranked = scorecard.ranked
        weights = scorecard.weights
        self.setColumnCount(len(self.criteria) + 2)
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)  # sized to the names below
        self.setHorizontalHeaderLabels(["Bid", *(f"{self.short[n]}\n{weights[n]:.0%}" for n in self.criteria), "Score"])
        for column, name in enumerate(self.criteria, start=1):
            self.horizontalHeaderItem(column).setToolTip(
                f"{self.words[name]}, weight {weights[name]:.1%}: 0 to 1, 1 best (methodology 6)")
        # Colours, the font and each shade made once per fill, not per cell (issue 32). Cells are
        # made here, never clone()d: a clone is not a Python-made item, so PySide is not told when
        # the table deletes it and may hand its stale wrapper out for a later object.
        black, bold, shades = QColor("black"), self.font(), {}
        bold.setBold(True)
        self.setRowCount(len(ranked))
        names = ["Bid"]
        for row, score in enumerate(ranked):
            name = f"{score.rank}. {score.bid.quote.provider}"
            names.append(name)
            item = QTableWidgetItem(name)
            item.setToolTip(name)  # whole when the column elides it
            self.setItem(row, 0, item)
            for column, criterion in enumerate(self.criteria, start=1):
                value, weight = score.criteria[criterion], weights[criterion]
                item = QTableWidgetItem(f"{value:.2f}")
                item.setTextAlignment(RIGHT)
                hue = _hue(value)
                item.setBackground(shades.get(hue) or shades.setdefault(hue, QColor.fromHsv(hue, 60, 245)))
                item.setForeground(black)
                item.setToolTip(f"{self.words[criterion]}: {value:.3f} x weight {weight:.1%} "
                                f"= {value * weight:.3f} of the score")
                self.setItem(row, column, item)
            total = QTableWidgetItem(f"{score.weighted_score:.3f}")
            total.setTextAlignment(RIGHT)
            total.setFont(bold)
            self.setItem(row, len(self.criteria) + 1, total)
        self._names_width = max(map(self.fontMetrics().horizontalAdvance, names)) + 16
        self.horizontalHeader().resizeSection(0, self._names_width)
        # One line per row, as tall as the font needs: measuring each row's contents cost 40 ms
        # at 500 bids and gives the same height for one line of text.
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + ROW_PADDING)
        self.fit_columns()

    def fit_columns(self) -> None:
        """Each criterion at least its measured width, sharing the spare width when they fit; when
        they do not (a narrow pane, presentation zoom) the matrix scrolls rather than cut figures
        off. (Equal stretched columns cut a wide heading such as "Evidence" at 175% while the
        criteria's total still fitted.)"""
        header = self.horizontalHeader()
        if header.count() < 2:
            return
        needed = [max(self.sizeHintForColumn(c), header.sectionSizeHint(c))
                  for c in range(1, header.count())]
        # The names give way first (they elide; the tooltip has them whole), down to a floor, so
        # the weighted score at the right edge stays in view without scrolling.
        names = getattr(self, "_names_width", header.sectionSize(0))
        floor = min(names, self.fontMetrics().averageCharWidth() * NAME_FLOOR_CHARS)
        header.resizeSection(0, max(floor, min(names, self.viewport().width() - sum(needed))))
        spare = self.viewport().width() - header.sectionSize(0) - sum(needed)
        for column, width in enumerate(needed, start=1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width + max(0, spare) // len(needed))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit_columns()
