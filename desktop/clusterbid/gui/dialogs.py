"""The message boxes and file dialogs the window uses, in one place tests can replace."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from clusterbid.gui.settings import AppSettings

BID_FILES = "Bid sheets (*.xlsx *.csv *.json)"
EVALUATION_FILES = "Evaluations (*.clusterbid *.json)"


def show_problem(parent: QWidget, title: str, text: str, details: str = "") -> None:
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    if details:
        box.setDetailedText(details)
    box.exec()


def show_task_error(parent: QWidget, title: str, exc: Exception) -> None:
    """What went wrong in background work, in words: the officer's problem as the core says it,
    anything else as an internal error to report (never a traceback)."""
    from clusterbid.core.errors import InputError
    from clusterbid.core.memo.next_steps import render
    from clusterbid.gui.memo.step_words import STEP_WORDS

    if isinstance(exc, (InputError, OSError)):  # a step it names, as the app's own field or menu
        show_problem(parent, title, render(str(exc), STEP_WORDS))
    else:
        show_problem(
            parent, title, f"Internal error ({type(exc).__name__}: {exc}); please report it."
        )


def show_info(parent: QWidget, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def confirm_box(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """A Yes/No question about something that cannot be undone: No is the default, so Enter
    (or Escape) keeps what the officer has; only a deliberate Yes goes ahead."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        parent,
    )
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.setEscapeButton(QMessageBox.StandardButton.No)
    return box


def confirm(parent: QWidget | None, title: str, text: str) -> bool:
    return confirm_box(parent, title, text).exec() == QMessageBox.StandardButton.Yes


def _settings_of(parent: QWidget | None) -> AppSettings | None:
    """The window's AppSettings, where the folders last used are kept (None: remember nothing)."""
    settings = getattr(parent.window(), "settings", None) if parent is not None else None
    return settings if isinstance(settings, AppSettings) else None


def _remembered(parent: QWidget | None, filters: str, chosen: str) -> str:
    settings = _settings_of(parent)
    if chosen and settings is not None:
        settings.note_folder(filters, Path(chosen))
    return chosen


def _start(parent: QWidget | None, filters: str, suggested: str = "") -> str:
    """Where a file dialog opens: the folder last used for this kind of file, else Qt's default."""
    settings = _settings_of(parent)
    folder = settings.last_folder(filters) if settings is not None else None
    return str(folder / suggested) if folder is not None else suggested


def open_file(parent: QWidget, title: str, filters: str, offered: Path | None = None) -> str:
    """`offered`: a file to select when the dialog opens (the memo just exported, for Sign)."""
    start = str(offered) if offered is not None and offered.is_file() else _start(parent, filters)
    chosen = QFileDialog.getOpenFileName(parent, title, start, filters)[0]
    return _remembered(parent, filters, chosen)


def save_file(parent: QWidget, title: str, suggested: str, filters: str) -> str:
    start = _start(parent, filters, suggested)
    chosen = QFileDialog.getSaveFileName(parent, title, start, filters)[0]
    return _remembered(parent, filters, chosen)


def ask_text(parent: QWidget, title: str, label: str) -> str:
    """A line of text the user typed, or "" when cancelled."""
    text, accepted = QInputDialog.getText(parent, title, label)
    return text.strip() if accepted else ""
