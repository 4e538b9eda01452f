"""A small form dialog checked at each keystroke by the operation its command-line twin runs
(Edit > Plan Inputs, Edit > Provider Ratings): a note on top, one row per field with its error
line beneath it, OK enabled only while the operation accepts the form, and `edit` holding the
validated change once the dialog is accepted (applied by the caller as one audited edit)."""

from __future__ import annotations

from typing import Generic, TypeVar

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from clusterbid.gui.error_line import ErrorLine

Edit = TypeVar("Edit")


class CheckedFormDialog(QDialog, Generic[Edit]):
    """Subclasses add their fields (`add_field`), lay the dialog out (`lay_out`) and say in
    `_check` what the form gives: the edit, or None after showing each problem by its field."""

    def __init__(
        self, title: str, object_name: str, note: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName(object_name)
        self.edit: Edit | None = None
        self.errors: dict[str, ErrorLine] = {}
        self.form = QFormLayout()
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

    def add_field(
        self, prefix: str, name: str, label_text: str, editor: QWidget, *, wrap: bool = False
    ) -> None:
        """The field's row, its label the editor's buddy (Alt+letter), its error line beneath."""
        editor.setObjectName(f"{prefix}_{name}")
        label = QLabel(label_text)
        label.setWordWrap(wrap)
        label.setBuddy(editor)
        self.errors[name] = ErrorLine(f"{prefix}_error_{name}")
        self.form.addRow(label, editor)
        self.form.addRow(self.errors[name])

    def lay_out(self, *below_form: QWidget) -> None:
        """The note, the form, any widget given (a general error line), then OK and Cancel."""
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(self.form)
        for widget in below_form:
            layout.addWidget(widget)
        layout.addWidget(self.buttons)

    def showEvent(self, event: QShowEvent) -> None:
        """Each wrapped label as tall as its lines at the width it got: the form sizes a row from
        the label's one-line hint, and squeezed a three-line label into a one-line row, clipped
        (found trying the serving Plan Inputs at 1600 x 1000)."""
        super().showEvent(event)
        for label in self.findChildren(QLabel):
            if label.wordWrap():
                label.setMinimumHeight(label.heightForWidth(label.width()))
        self.adjustSize()

    def show_problems(self, by_field: dict[str, str], edit: Edit | None) -> None:
        """Each field's problem beneath it (an empty line keeps its place); OK only with an edit."""
        for name, line in self.errors.items():
            line.say(by_field.get(name) or "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(edit is not None)

    def _check(self, *_args: object) -> Edit | None:
        raise NotImplementedError

    def accept(self) -> None:
        edit = self._check()
        if edit is not None:
            self.close_with(edit)

    def close_with(self, edit: Edit) -> None:
        """Keep `edit` for the caller and close as accepted."""
        self.edit = edit
        QDialog.accept(self)
