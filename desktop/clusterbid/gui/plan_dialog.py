"""Edit > Plan Inputs: the buyer's plan (cost of capital, usual payment terms, and for training
the deadline, idle time, cost of a day late and commitment ceiling) in one small dialog.

Each keystroke is checked by the same operation `clusterbid plan --set` runs
(operations/plan_inputs.py), so a field the rules refuse says why beneath it, in words, and OK
stays off; OK records the change as one audited edit (one undo step)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.gui.error_line import ErrorLine
from clusterbid.operations.plan_inputs import (
    EDIT_LABEL,
    PlanEdit,
    PlanInputError,
    current_texts,
    plan_inputs,
    with_plan_inputs,
)


class PlanInputsDialog(QDialog):
    """The plan inputs of `evaluation`; `edit` holds the validated change once OK is pressed."""

    def __init__(self, evaluation: Evaluation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Plan Inputs")
        self.setObjectName("plan_inputs_dialog")
        self._evaluation = evaluation
        self.edit: PlanEdit | None = None
        self.editors: dict[str, QLineEdit | QComboBox] = {}
        self.errors: dict[str, ErrorLine] = {}
        texts = current_texts(evaluation)
        form = QFormLayout()
        for item in plan_inputs(evaluation):
            editor: QLineEdit | QComboBox
            if item.choices:
                editor = QComboBox()
                for value, words in item.choices:
                    editor.addItem(words, value)
                editor.setCurrentIndex(max(editor.findData(texts[item.name]), 0))
                editor.currentIndexChanged.connect(self._check)
            else:
                editor = QLineEdit(texts[item.name])
                editor.setPlaceholderText("empty: the default")
                editor.textChanged.connect(self._check)
            editor.setObjectName(f"plan_{item.name}")
            label = QLabel(item.label)
            label.setWordWrap(True)
            label.setBuddy(editor)
            error = ErrorLine(f"plan_error_{item.name}")
            form.addRow(label, editor)
            form.addRow(error)
            self.editors[item.name], self.errors[item.name] = editor, error
        self.general_error = ErrorLine("plan_error_general")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        note = QLabel(
            "What your own plan is worth decides what idle time, payment terms and a late finish "
            "cost. Empty fields take ClusterBid's documented defaults."
        )
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(self.general_error)
        layout.addWidget(self.buttons)
        self._check()

    def texts(self) -> dict[str, str]:
        return {
            name: (e.currentData() if isinstance(e, QComboBox) else e.text())
            for name, e in self.editors.items()
        }

    def _check(self, *_args: object) -> PlanEdit | None:
        """Validate the form as it stands; show each problem beneath its field."""
        by_field: dict[str, str] = {}
        general: list[str] = []
        edit = None
        try:
            edit = with_plan_inputs(self._evaluation, self.texts())
        except PlanInputError as exc:
            by_field, general = exc.by_field, exc.general
        except InputError as exc:
            general = [str(exc)]
        for name, line in self.errors.items():
            _show(line, by_field.get(name))
        _show(self.general_error, "; ".join(general) or None)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(edit is not None)
        return edit

    def accept(self) -> None:
        edit = self._check()
        if edit is None:
            return
        self.edit = edit
        super().accept()


def _show(line: ErrorLine, message: str | None) -> None:
    if message:
        line.setText(message)
        line.show()
    else:
        line.clear()
        line.hide()


def edit_plan_inputs(window: Any) -> bool:
    """Open the dialog over the window's evaluation and apply what OK gives, as one edit. `window`:
    the training or the serving window (each has a `session`)."""
    dialog = PlanInputsDialog(window.session.evaluation, window)
    if (
        dialog.exec() != QDialog.DialogCode.Accepted
        or dialog.edit is None
        or not dialog.edit.changed
    ):
        return False
    return bool(window.session.apply(dialog.edit.evaluation, EDIT_LABEL))
