"""The request pack's training run is a command a provider can run as written, at a ladder of
scales up to the job's; the acceptance plan's step-time test runs the same command at the job's
size, so the evidence before award and the acceptance after it are the same run."""

from __future__ import annotations

import datetime as dt

from clusterbid.core.acceptance.build import build_plan
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence_request.build import build_pack
from clusterbid.core.uncertainty.value_of_information import value_of_information

ISSUED = dt.date(2026, 11, 20)


def _option(arguments: list[str], name: str) -> str:
    return arguments[arguments.index(name) + 1]


def test_the_training_request_is_a_runnable_recipe_on_a_scale_ladder():
    evaluation = demo_evaluation()
    w = evaluation.workload
    pack = build_pack(
        evaluation,
        "northwind-ib",
        value_of_information(evaluation, 500),
        ISSUED,
        ISSUED + dt.timedelta(days=14),
    )
    training = next(r for r in pack.requests if r.input == "baseline_mfu")
    # TP 8 x PP 4 = 32 GPUs a replica: the 8-GPU rung rises to 32, then 64, then the job's 512.
    assert [run.gpus for run in training.runs] == [32, 64, 512]
    assert [run.nodes for run in training.runs] == [4, 8, 64]
    args = training.runs[-1].arguments
    assert training.runs[-1].program == "pretrain_gpt.py" and "--mock-data" in args
    # 4,194,304 tokens / 4,096 per sequence = 1,024 sequences; 80 layers / (PP 4 x 5 stages) = 4.
    expected = {
        "--tensor-model-parallel-size": "8",
        "--pipeline-model-parallel-size": "4",
        "--global-batch-size": "1024",
        "--seq-length": "4096",
        "--num-layers": "80",
        "--hidden-size": "8192",
        "--num-layers-per-virtual-pipeline-stage": "4",
        "--micro-batch-size": "1",
    }
    assert {name: _option(args, name) for name in expected} == expected
    assert w.distributed_optimizer and "--use-distributed-optimizer" in args
    # One CSV answers the request: every rung is a row of it.
    assert {run.return_as for run in training.runs} == {f"{training.request_id}_throughput.csv"}
    text = " ".join(training.instructions)
    assert "Megatron-LM" in text and "attention heads = hidden size / 128" in text


def test_the_acceptance_step_time_test_runs_the_requests_command_at_the_jobs_size():
    evaluation = demo_evaluation()
    pack = build_pack(
        evaluation,
        "northwind-ib",
        value_of_information(evaluation, 500),
        ISSUED,
        ISSUED + dt.timedelta(days=14),
    )
    request_run = next(r for r in pack.requests if r.input == "baseline_mfu").runs[-1]
    plan = build_plan(evaluation, "northwind-ib", ISSUED)
    (acceptance_run,) = plan.test("ACC-step-time").runs
    assert acceptance_run.command_line() == request_run.command_line()
    assert acceptance_run.return_as == "ACC-step-time_throughput.csv"
