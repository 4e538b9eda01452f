"""Issue 39 item 5, "the returned file's columns carry that context": the request pack and the
acceptance plan ask for the heads, vocabulary and container in the throughput file, and at
acceptance a run of another shape or in another container than pinned is named and not counted
(nor fitted as a rung of the scale ladder)."""

from __future__ import annotations

import datetime as dt

from tests.core.acceptance.test_results import HEADER as BASE_HEADER
from tests.core.acceptance.test_results import _demo

from clusterbid.cli import main
from clusterbid.core.acceptance.build import build_plan
from clusterbid.core.acceptance.export import kept_plan
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence_request.build import build_pack
from clusterbid.core.store import EvaluationDocument
from clusterbid.core.uncertainty.value_of_information import value_of_information

ISSUED = dt.date(2026, 11, 20)
PINNED = "registry.example/megatron@sha256:" + "a" * 64
OTHER = "registry.example/megatron@sha256:" + "b" * 64
COLUMNS = ("num_attention_heads", "vocab_size", "container_image")
HEADER = BASE_HEADER.rstrip("\n") + "," + ",".join(COLUMNS) + "\n"


def test_the_pack_and_the_plan_ask_for_the_recipe_columns():
    evaluation = demo_evaluation()
    pack = build_pack(
        evaluation,
        "northwind-ib",
        value_of_information(evaluation, 500),
        ISSUED,
        ISSUED + dt.timedelta(days=14),
    )
    training = next(r for r in pack.requests if r.input == "baseline_mfu")
    asked = next(t for t in training.instructions if "Return one CSV row per run" in t)
    assert all(column in asked for column in COLUMNS)
    step = build_plan(evaluation, "northwind-ib", ISSUED).test("ACC-step-time")
    assert step is not None
    returned = next(s for s in step.steps if "ACC-step-time_throughput.csv" in s)
    assert all(column in returned for column in COLUMNS)


def _pin(document) -> float:
    """The demo's workload with Llama-2-70B's 64 heads and 32,000-token vocabulary (its model
    card) and a pinned image; returns the step-time threshold the plan signed."""
    with EvaluationDocument.open(document) as doc:
        w = doc.evaluation.workload
        doc.set_workload(
            w.model_copy(
                update={"num_attention_heads": 64, "vocab_size": 32_000, "container_image": PINNED}
            )
        )
        threshold = kept_plan(doc, "northwind-ib").test("ACC-step-time").threshold
    return threshold


def _row(gpus: int, dp: int, step: float, heads: int = 64, image: str = PINNED) -> str:
    return (
        f"llama-70b,70,bf16,4096,8,4,{dp},{gpus},,{step:.3f},4194304,H100-SXM,buyer,2026-11-20,"
        f"{heads},32000,{image}\n"
    )


def test_a_run_in_another_container_or_shape_is_named_and_not_counted(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    threshold = _pin(document)
    path = tmp_path / "ACC-step-time_throughput.csv"
    # Two fast rows that would pass but ran another recipe, and one slow row of the pinned one.
    path.write_text(
        HEADER
        + _row(512, 16, threshold - 0.5, image=OTHER)
        + _row(512, 16, threshold - 0.4, heads=32)
        + _row(512, 16, threshold + 0.5),
        encoding="utf-8",
    )
    assert main(["acceptance-status", str(document), "--attach", str(path)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("ACC-step-time"))
    assert f"failed, measured {float(f'{threshold + 0.5:.3f}'):.6g} s" in line
    assert "line 2: ran in another container than the request pinned" in out
    assert "sha256:bbbbbbbbbbbb..., the request pinned registry.example/megatron@sha256:aaaa" in out
    assert "line 3: 32 attention heads against the workload's 64: not counted" in out


def test_ladder_rungs_of_another_container_are_not_fitted(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    _pin(document)
    # TP 8 x PP 4 = 32 GPUs a replica: 64 GPUs is DP 2, 128 GPUs DP 4; 1,024 sequences divide.
    rungs = _row(64, 2, 40.0) + _row(128, 4, 20.5)
    path = tmp_path / "ACC-step-time_throughput.csv"
    path.write_text(HEADER + rungs, encoding="utf-8")
    assert main(["acceptance-status", str(document), "--attach", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Scaling fit over the runs on 64, 128 GPUs" in out
    assert "line 2: a rung of the scale ladder on 64 GPUs: carried to the job's size" in out
    other = tmp_path / "other"
    other.mkdir()
    path = other / "ACC-step-time_throughput.csv"
    path.write_text(HEADER + _row(64, 2, 40.0) + _row(128, 4, 20.5, image=OTHER), "utf-8")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    document = _demo(fresh, capsys)
    _pin(document)
    assert main(["acceptance-status", str(document), "--attach", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Scaling fit" not in out
    assert "ran in another container than the request pinned" in out


def test_the_what_if_states_the_measured_mfu_as_a_percentage(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    _pin(document)
    path = tmp_path / "ACC-step-time_throughput.csv"
    path.write_text(HEADER + _row(512, 16, 11.4), encoding="utf-8")
    assert main(["acceptance-status", str(document), "--attach", str(path), "--what-if"]) == 0
    out = capsys.readouterr().out
    # 6 x 70e9 x 4,194,304 tokens / 11.4 s over 512 x 989 TFLOP/s (H100 dense BF16) = 30.5%.
    mfu = 6 * 70e9 * 4_194_304 / 11.4 / (512 * 989e12)
    assert f"training MFU {mfu:.1%} on 512 GPUs" in out and f"{mfu:.1%}" == "30.5%"
