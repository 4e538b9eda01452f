"""What an evaluation with no bids shows where the ranking will be: the next steps, as buttons."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget


def _shortcut(action: QAction) -> str:
    keys = action.shortcut().toString()
    return f" ({keys})" if keys else ""


class EmptyHint(QWidget):
    """Laid over the empty comparison; the buttons run the same actions as the menus."""

    def __init__(
        self,
        workload: QAction,
        add_bid: QAction,
        import_bids: QAction,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("empty_hint")
        self.setAutoFillBackground(True)
        self.text = QLabel(
            "<b>No bids yet.</b> What to do next:<ol>"
            f"<li>Check the planned job: Edit ▸ Edit Workload{_shortcut(workload)}.</li>"
            f"<li>Enter each provider's bid: Edit ▸ Add Bid{_shortcut(add_bid)}, or read bid "
            "sheets: "
            f"File ▸ Import Bids{_shortcut(import_bids)} (or drop the files on this window).</li>"
            "<li>The ranking, the score matrix and the approval memo follow from the "
            "bids.</li></ol>"
        )
        self.text.setWordWrap(True)
        buttons = QHBoxLayout()
        for action in (workload, add_bid, import_bids):
            button = QToolButton()
            button.setDefaultAction(action)
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        layout.addStretch(1)
