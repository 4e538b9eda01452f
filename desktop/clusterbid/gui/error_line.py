"""The error line beneath a field, which keeps its place while empty.

A line that appears only with an error pushes every field below it down as the officer types,
so the next click lands on the wrong field. This label holds one line of its current font even
while hidden or empty; only a message that wraps to a second line makes room for itself.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel, QWidget

ERROR_COLOUR = "#b3261e"


class ErrorLine(QLabel):
    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self.setWordWrap(True)
        self.setStyleSheet(f"color: {ERROR_COLOUR};")
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # hidden, it still holds its line in the layout
        self.setSizePolicy(policy)
        self.hide()

    def _one_line(self) -> int:
        # read at each layout pass: presentation zoom changes the font after the label is made
        return self.fontMetrics().lineSpacing()

    def sizeHint(self) -> QSize:
        # QLabel sizes wrapped text for a narrow guessed width (two lines for a short message);
        # at the width the form gives it, the message takes the lines it really needs
        hint = super().sizeHint()
        height = self.heightForWidth(self.width()) if self.width() > hint.width() else hint.height()
        return QSize(hint.width(), max(height, self._one_line()))

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(hint.width(), max(hint.height(), self._one_line()))

    def heightForWidth(self, width: int) -> int:
        return max(super().heightForWidth(width), self._one_line())

    def say(self, message: str) -> None:
        """Show `message`, or hide the line (keeping its place) when it is empty."""
        self.setText(message)
        self.setVisible(bool(message))
