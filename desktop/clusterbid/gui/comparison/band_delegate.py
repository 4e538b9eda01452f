"""The P10-P90 cell drawn as a bar as well as in words: every ranked bid's band on one scale, the
point estimate marked, so the spread and the overlap of the bands are seen in the main table
(issue 20: the bands in view, not only behind the Charts tab). The text stays; the bar sits under it."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QStyle, QStyledItemDelegate

BAR_COLOUR, MARK_COLOUR = QColor("#4f8fd6"), QColor("#1f1f1f")
SELECTED_BAR, SELECTED_MARK = QColor("#d6e6f7"), QColor("#ffffff")  # on the selection's blue
BAR_HEIGHT, MARGIN = 3, 4
MARK_RISE = 1  # how far the point's mark stands above the bar


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


def mark_top(cell_bottom: int) -> int:
    """The top row of what the band draws in a cell whose last row is `cell_bottom`: the bar fills
    the cell's last BAR_HEIGHT rows, the point's mark stands MARK_RISE above it."""
    return cell_bottom - BAR_HEIGHT - MARK_RISE + 1


class BandDelegate(QStyledItemDelegate):
    """Paints the cell as usual, then the bid's band along its bottom edge, under the text (the
    comparison's rows are tall enough that they do not touch: comparison_view.ROW_PADDING)."""

    def paint(self, painter, option, index) -> None:
        super().paint(painter, option, index)
        model = index.model()  # the scorecard's table model: its rows are the rows shown
        band, scale = model.band_figures(index.row()), model.band_range()
        if band is None or scale is None:
            return
        rect = option.rect
        x10, x90, xp = band_geometry(rect.left(), rect.width(), *scale, band)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.fillRect(
            QRect(x10, rect.bottom() - BAR_HEIGHT + 1, max(x90 - x10, 1), BAR_HEIGHT),
            SELECTED_BAR if selected else BAR_COLOUR,
        )
        painter.fillRect(
            QRect(xp - 1, mark_top(rect.bottom()), 2, BAR_HEIGHT + MARK_RISE),
            SELECTED_MARK if selected else MARK_COLOUR,
        )
        painter.restore()
