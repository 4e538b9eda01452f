"""Issue 31: `clusterbid plan PATH --set NAME=VALUE` changes the buyer's plan inputs through the
operation the app's Plan Inputs dialog runs: every field checked first (a refusal names it in
words, exit 2, nothing written), the change one audited edit, and the figures follow it."""

from __future__ import annotations

import pytest
from tests.conftest import EXAMPLES

from clusterbid.cli import main
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.documents import read_evaluation
from clusterbid.core.store import EvaluationDocument, audit
from clusterbid.operations.plan_inputs import PlanInputError, with_plan_inputs


def _rows(path) -> list:
    with EvaluationDocument.open(path, read_only=True) as document:
        return list(document.audit_rows())


def test_set_writes_one_audited_edit_and_prices_payment_terms_with_the_buyers_figures(
    tmp_path, capsys
):
    path = tmp_path / "demo.clusterbid"
    assert main(["demo", str(path)]) == 0
    before = _rows(path)
    assert (
        main(
            [
                "plan",
                str(path),
                "--set",
                "cost_of_capital_percent_per_year=12",
                "--set",
                "baseline_payment_days=45",
                "--user",
                "officer",
            ]
        )
        == 0
    )
    assert "Changed Cost of capital, Your usual payment terms" in capsys.readouterr().out
    after = _rows(path)
    assert len(after) == len(before) + 1 and after[-1].action == audit.SET_WORKLOAD
    with EvaluationDocument.open(path, read_only=True) as document:
        evaluation = document.evaluation
    plan = evaluation.workload.plan
    assert (plan.cost_of_capital_percent_per_year, plan.baseline_payment_days) == (12.0, 45)
    # The demo's bids state no payment terms: due on invoice. At the defaults each pays what it
    # pays (its commitment, or its exit cost where the plan leaves early) x 0.08 x 30 / 365 in
    # cash; at the buyer's figures x 0.12 x 45 / 365: 5.4 / 2.4 = 2.25 times as much, bid by bid.
    default = read_evaluation(EXAMPLES / "demo-evaluation.json")
    old = estimate_training(default.workload, default.bids).bids
    new = estimate_training(evaluation.workload, evaluation.bids).bids
    for was, now in zip(old, new, strict=True):
        assert now.bid.terms.payment_terms_days is None and was.cash_cost > 0
        assert now.cash_cost == pytest.approx(2.25 * was.cash_cost, rel=1e-9)
        assert now.commitment == was.commitment  # what the signature approves does not move


def test_a_refused_value_names_its_field_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "demo.clusterbid"
    assert main(["demo", str(path)]) == 0
    capsys.readouterr()
    before, data = _rows(path), path.read_bytes()
    assert main(["plan", str(path), "--set", "baseline_payment_days=400"]) == 2
    err = capsys.readouterr().err
    assert "Your usual payment terms: Input should be less than or equal to 365" in err
    assert main(["plan", str(path), "--set", "deadline=2026-12-01"]) == 2  # before the demo's start
    assert "'Finish by' must be after 'Earliest start'" in capsys.readouterr().err
    assert main(["plan", str(path), "--set", "colour=blue"]) == 2
    assert "colour: not a plan input of this evaluation" in capsys.readouterr().err
    assert main(["plan", str(path), "--set", "no-equals-sign"]) == 2
    assert _rows(path) == before and path.read_bytes() == data


def test_an_empty_value_clears_the_input_to_its_default_and_a_serving_evaluation_has_two():
    training = read_evaluation(EXAMPLES / "demo-evaluation.json")
    set_once = with_plan_inputs(training, {"commitment_ceiling": "2,500,000"}).evaluation
    assert set_once.workload.plan.commitment_ceiling == 2_500_000
    cleared = with_plan_inputs(set_once, {"commitment_ceiling": " "})
    assert cleared.evaluation.workload.plan.commitment_ceiling is None
    assert cleared.changed == ("Largest commitment you may sign",)
    serving = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    edited = with_plan_inputs(serving, {"baseline_payment_days": "60"}).evaluation
    assert edited.workload.baseline_payment_days == 60
    with pytest.raises(PlanInputError) as refused:
        with_plan_inputs(serving, {"cost_of_capital_percent_per_year": "-1"})
    assert refused.value.by_field == {
        "cost_of_capital_percent_per_year": "Input should be greater than or equal to 0"
    }
    with pytest.raises(Exception, match="not a plan input of this evaluation"):
        with_plan_inputs(serving, {"deadline": "2027-01-01"})  # a serving workload has no deadline


def test_the_listing_shows_a_choice_in_the_forms_words_and_lists_every_choice(tmp_path, capsys):
    # The dialog shows "vLLM 0.6, default deployment"; the listing printed the short name
    # "vllm-0.6" instead, so an officer reading it could not tell which words --set takes.
    path = tmp_path / "serving.clusterbid"
    assert main(["new", str(path), "--from", str(EXAMPLES / "demo-serving-evaluation.json")]) == 0
    assert main(["plan", str(path), "--set", "serving_engine=vllm-0.6"]) == 0
    capsys.readouterr()
    assert main(["plan", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    engine_row = next(line for line in lines if line.split()[0] == "serving_engine")
    assert engine_row.split()[1:5] == ["vLLM", "0.6,", "default", "deployment"]
    choices = next(line for line in lines if "serving_engine is one of" in line)
    for words, short in [
        ("Not stated", "not-stated"),
        ("TensorRT-LLM, tuned", "tensorrt-llm"),
        ("vLLM 0.6, default deployment", "vllm-0.6"),
    ]:
        assert f"'{words}' ({short})" in choices
    # Every label starts in the same column, the long choice's row included.
    columns = {line.index("Requests per second") for line in lines if "Requests per second" in line}
    assert len(columns) == 1
    assert engine_row.index("Serving engine you will run") in columns
