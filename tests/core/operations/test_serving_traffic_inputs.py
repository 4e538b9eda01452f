"""Issue 37, item 2: a serving evaluation's traffic profile and growth are typed in the app's Plan
Inputs (and `clusterbid plan --set`) through one operation: refusals name the field in words,
nothing half-applied, and the figures follow the change."""

from __future__ import annotations

import pytest
from tests.conftest import EXAMPLES

from clusterbid.cli import main
from clusterbid.core.documents import read_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.store import EvaluationDocument
from clusterbid.operations.plan_inputs import current_texts, with_plan_inputs

SHARES = (
    [0.3] * 8 + [0.6] * 8 + [1.0] * 4 + [0.5] * 4
)  # (2.4 + 4.8 + 4 + 2) / 24 = 0.55 of 120 = 66 requests/s


def _serving():
    return read_evaluation(EXAMPLES / "demo-serving-evaluation.json")


def test_the_hourly_shape_is_typed_as_values_with_commas_and_shown_back_the_same_way():
    text = ", ".join(f"{s:g}" for s in SHARES)
    edit = with_plan_inputs(
        _serving(), {"hourly_share_of_peak": text, "average_requests_per_s": "66"}
    )
    w = edit.evaluation.workload
    assert w.hourly_share_of_peak == tuple(SHARES) and w.average_requests_per_s == 66
    assert current_texts(edit.evaluation)["hourly_share_of_peak"] == text
    assert "Each hour's traffic as a share of the peak" in edit.changed


def test_refusals_name_the_field_in_the_forms_words():
    serving = _serving()  # peak 120 requests/s, average 50
    with pytest.raises(InputError) as wrong:
        with_plan_inputs(serving, {"peak_hours_per_day": "12"})  # 12 x 120 / 24 = 60 > 50
    message = str(wrong.value)
    assert "the plan inputs were not changed" in message
    assert "'Hours a day at the peak' 12 at 120 requests/s already averages 60" in message
    with pytest.raises(InputError) as short:
        with_plan_inputs(serving, {"hourly_share_of_peak": "1, 0.5"})
    assert "'Each hour's traffic as a share of the peak' needs 24 values" in str(short.value)
    with pytest.raises(InputError) as fast:
        with_plan_inputs(serving, {"traffic_growth_percent_per_month": "150"})
    assert "Traffic growth: Input should be less than or equal to 100" in str(fast.value)
    assert serving == _serving()  # nothing changed


def test_growth_set_from_the_command_line_is_one_audited_edit_and_moves_the_bill(tmp_path, capsys):
    path = tmp_path / "serving.clusterbid"
    with EvaluationDocument.create(path, _serving()):
        pass
    args = ["plan", str(path), "--set", "traffic_growth_percent_per_month=5"]
    assert main(args) == 0
    with EvaluationDocument.open(path, read_only=True) as document:
        assert document.evaluation.workload.traffic_growth_percent_per_month == 5
    assert main(["plan", str(path), "--set", "peak_hours_per_day=30"]) == 2
    assert "Hours a day at the peak" in capsys.readouterr().err
