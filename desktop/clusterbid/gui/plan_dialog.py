"""Edit > Plan Inputs: the buyer's plan (cost of capital, usual payment terms; for training the
deadline, idle time, cost of a day late and commitment ceiling; for serving the traffic and the
engine) in one small dialog, its note worded for the evaluation's kind.

Each keystroke is checked by the same operation `clusterbid plan --set` runs
(operations/plan_inputs.py), so a field the rules refuse says why beneath it, in words, and OK
stays off; OK records the change as one audited edit (one undo step)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLineEdit,
    QWidget,
)

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.kinds import SERVING, kind_of
from clusterbid.gui.checked_form_dialog import CheckedFormDialog
from clusterbid.gui.error_line import ErrorLine
from clusterbid.operations.plan_inputs import (
    EDIT_LABEL,
    PlanEdit,
    PlanInputError,
    current_texts,
    plan_inputs,
    with_plan_inputs,
)

TRAINING_NOTE = (
    "What your own plan is worth decides what idle time, payment terms and a late finish cost. "
    "Empty fields take ClusterBid's documented defaults."
)
SERVING_NOTE = (
    "Your service's traffic over the day and the term sizes each bid's fleet and its bill, the "
    "engine you will run sets the serving speed assumed, and your cost of capital and usual "
    "payment terms price each bid's payment terms. Empty fields take ClusterBid's documented "
    "defaults."
)


class PlanInputsDialog(CheckedFormDialog[PlanEdit]):
    """The plan inputs of `evaluation`; `edit` holds the validated change once OK is pressed."""

    def __init__(self, evaluation: Evaluation, parent: QWidget | None = None) -> None:
        serving = kind_of(evaluation).tag == SERVING.tag
        note = SERVING_NOTE if serving else TRAINING_NOTE
        super().__init__("Plan Inputs", "plan_inputs_dialog", note, parent)
        self._evaluation = evaluation
        self._serving = serving
        self.editors: dict[str, QLineEdit | QComboBox] = {}
        texts = current_texts(evaluation)
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
            self.add_field("plan", item.name, item.label, editor, wrap=True)
            self.editors[item.name] = editor
        self.general_error = ErrorLine("plan_error_general")
        self.lay_out(self.general_error)
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
            if self._serving:
                # A serving rule tying fields together ("the average cannot exceed the peak", 24
                # hourly shares) refuses the first field it names: said beneath it, not at the
                # foot of the form. (Training's rules name the field still to fill last.)
                by_field = exc.tied | exc.by_field
                general = [g for g in general if g not in by_field.values()]
        except InputError as exc:
            general = [str(exc)]
        self.show_problems(by_field, edit)
        self.general_error.say("; ".join(general))
        return edit


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
