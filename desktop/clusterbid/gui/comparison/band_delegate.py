"""The P10-P90 cell drawn as a bar as well as in words: every ranked bid's band on one scale, the
point estimate marked, so the spread and the overlap of the bands are seen in the main table
(issue 20: the bands in view, not only behind the Charts tab). The text stays; the bar sits under it."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

BAR_COLOUR, MARK_COLOUR = QColor("#4f8fd6"), QColor("#1f1f1f")
SELECTED_BAR, SELECTED_MARK = QColor("#d6e6f7"), QColor("#ffffff")  # on the selection's blue
BAR_HEIGHT, MARGIN = 3, 4
MARK_RISE = 1  # how far the point's mark stands above and below the bar


def band_geometry(
    left: int, width: int, low: float, high: float, band: tuple[float, float, float]
) -> tuple[int, int, int]:
    """(x of P10, x of P90, x of the point estimate) in a cell from `left` of `width` pixels,
    on the scale low..high shared by every row."""
    usable = max(width - 2 * MARGIN, 1)
    span = (high - low) or 1.0

    def x(value: float) -> int:
        return left + MARGIN + round(usable * min(max((value - low) / span, 0.0), 1.0))

    p10, point, p90 = band
    return x(p10), x(p90), x(point)


class BandDelegate(QStyledItemDelegate):
    """Paints the cell as usual, then the bid's band under the text."""

    def paint(self, painter, option, index) -> None:
        model = index.model()  # the scorecard's table model: its rows are the rows shown
        band, scale = model.band_figures(index.row()), model.band_range()
        if band is None or scale is None:
            super().paint(painter, option, index)
            return
        rect = option.rect
        # The cell's background over the whole cell, its text centred above the bar's strip: text
        # centred in the whole cell sat on the bar (descenders of "$" and "," touched it).
        whole = QStyleOptionViewItem(option)
        self.initStyleOption(whole, index)
        style = whole.widget.style() if whole.widget is not None else QApplication.style()
        style.drawPrimitive(
            QStyle.PrimitiveElement.PE_PanelItemViewItem, whole, painter, whole.widget
        )
        above = QStyleOptionViewItem(option)
        above.rect = rect.adjusted(0, 0, 0, -(BAR_HEIGHT + MARK_RISE + 1))
        super().paint(painter, above, index)
        x10, x90, xp = band_geometry(rect.left(), rect.width(), *scale, band)
        bottom = rect.bottom() - 1
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.fillRect(
            QRect(x10, bottom - BAR_HEIGHT, max(x90 - x10, 1), BAR_HEIGHT),
            SELECTED_BAR if selected else BAR_COLOUR,
        )
        painter.fillRect(
            QRect(xp - 1, bottom - BAR_HEIGHT - MARK_RISE, 2, BAR_HEIGHT + 2 * MARK_RISE),
            SELECTED_MARK if selected else MARK_COLOUR,
        )
        painter.restore()
