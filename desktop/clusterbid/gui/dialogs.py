"""The message boxes and file dialogs the window uses, in one place tests can replace."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

BID_FILES = "Bid sheets (*.xlsx *.csv *.json)"
EVALUATION_FILES = "Evaluations (*.clusterbid *.json)"


def show_problem(parent: QWidget, title: str, text: str, details: str = "") -> None:
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    if details:
        box.setDetailedText(details)
    box.exec()


def show_info(parent: QWidget, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def confirm(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(parent, title, text)
    return answer == QMessageBox.StandardButton.Yes


def open_file(parent: QWidget, title: str, filters: str) -> str:
    return QFileDialog.getOpenFileName(parent, title, "", filters)[0]


def save_file(parent: QWidget, title: str, suggested: str, filters: str) -> str:
    return QFileDialog.getSaveFileName(parent, title, suggested, filters)[0]


def ask_text(parent: QWidget, title: str, label: str) -> str:
    """A line of text the user typed, or "" when cancelled."""
    text, accepted = QInputDialog.getText(parent, title, label)
    return text.strip() if accepted else ""
