"""A tester's faults in a serving evaluation's Edit > Plan Inputs: its note spoke of idle time and
a late finish (a training plan's words), and a refused value (an average above the peak, too few
hourly shares) was said at the foot of the dialog, not beneath the field that holds it."""

from __future__ import annotations

from tests.conftest import EXAMPLES
from tests.gui.test_no_codes_where_officers_read import _codes, _widget_texts

from clusterbid.core.documents import read_evaluation
from clusterbid.gui.plan_dialog import PlanInputsDialog

TRAINING_WORDS = ("idle", "late finish", "deadline", "job")


def _dialog(qtbot, name: str) -> PlanInputsDialog:
    dialog = PlanInputsDialog(read_evaluation(EXAMPLES / name))
    qtbot.addWidget(dialog)
    return dialog


def _said(dialog: PlanInputsDialog) -> dict[str, str]:
    return {name: line.text() for name, line in dialog.errors.items() if line.text()}


def test_the_serving_note_speaks_of_the_service_not_of_a_training_plan(qtbot):
    shown = _dialog(qtbot, "demo-serving-evaluation.json")  # held: Qt deletes it with its last name
    serving = shown.note.text().lower()
    assert not [w for w in TRAINING_WORDS if w in serving]
    assert "traffic" in serving and "payment terms" in serving and "engine" in serving
    other = _dialog(qtbot, "demo-evaluation.json")
    training = other.note.text().lower()
    assert "idle time" in training and "late finish" in training  # its own words kept


def test_an_average_above_the_peak_is_refused_beneath_the_average(qtbot):
    dialog = _dialog(qtbot, "demo-serving-evaluation.json")
    peak = dialog.editors["peak_requests_per_s"].text()  # the demo's 120 requests/s
    dialog.editors["average_requests_per_s"].setText("1000")
    said = _said(dialog)
    assert list(said) == ["average_requests_per_s"]
    assert (
        "(1000) cannot exceed" in said["average_requests_per_s"]
        and f"({peak})" in said["average_requests_per_s"]
    )
    assert dialog.general_error.text() == ""  # not again at the foot
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    assert not _codes([("error", said["average_requests_per_s"])])  # the form's words


def test_two_hourly_shares_are_refused_beneath_the_hourly_shares(qtbot):
    dialog = _dialog(qtbot, "demo-serving-evaluation.json")
    dialog.editors["hourly_share_of_peak"].setText("1, 0.5")  # a day has 24 hours
    said = _said(dialog)
    assert list(said) == ["hourly_share_of_peak"] and "24 values" in said["hourly_share_of_peak"]
    assert "not 2" in said["hourly_share_of_peak"] and dialog.general_error.text() == ""
    dialog.editors["hourly_share_of_peak"].setText("")
    assert _said(dialog) == {} and not _codes(_widget_texts(dialog))
