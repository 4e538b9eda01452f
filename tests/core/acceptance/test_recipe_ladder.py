"""Issue 39 item 5: the recipe carries the model's heads, vocabulary and a pinned container into
the runnable Megatron-LM command, refuses a shape Megatron-LM would refuse, and the runs
returned on the scale ladder are fitted and carried to the job's size beside the figure scored."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError
from tests.core.acceptance.test_recipe import ISSUED, _option
from tests.core.acceptance.test_results import HEADER, _demo

from clusterbid.cli import main
from clusterbid.core.acceptance.build import build_plan
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence_request.recipe import recipe_arguments, training_runs

DIGEST = "ab" * 32
IMAGE = f"nvcr.io/nvidia/pytorch:24.09-py3@sha256:{DIGEST}"


def _workload(**changes):
    w = demo_evaluation().workload
    return type(w).model_validate({**w.model_dump(), **changes})


def test_stated_heads_vocabulary_and_image_replace_the_recipes_assumptions():
    w = _workload(num_attention_heads=32, vocab_size=128_256, container_image=IMAGE)
    args, assumed = recipe_arguments(w)
    assert _option(args, "--num-attention-heads") == "32"  # not the assumed 8,192 / 128 = 64
    assert _option(args, "--vocab-size") == "128256"
    assert assumed == []  # nothing left to assume
    run = training_runs(w, 8, 512, "x.csv")[0]
    line = run.command_line()
    # the pinned image starts the launcher on each node
    assert line.startswith(f"docker run --rm --gpus all --network host --ipc host {IMAGE} torchrun")
    assert "pretrain_gpt.py" in line.split(IMAGE, 1)[1]


def test_heads_not_stated_are_named_as_the_recipes_assumption():
    w = _workload(num_attention_heads=None, hidden_size=5120, num_layers=40)
    args, assumed = recipe_arguments(w)
    assert _option(args, "--num-attention-heads") == str(5120 // 128)  # 40
    assert any("attention heads = hidden size / 128" in a for a in assumed)
    assert any("vocabulary 32,000" in a for a in assumed)
    assert any("pins no image" in a for a in assumed)
    assert "docker" not in training_runs(w, 8, 512, "x.csv")[0].command_line()


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"num_attention_heads": 60}, "must divide hidden_size (8,192) into whole heads"),
        ({"num_attention_heads": 4}, "must be a multiple of tensor_parallel (8)"),
        (
            {"num_attention_heads": 64, "num_layers": None, "hidden_size": None},
            "num_attention_heads needs hidden_size",
        ),
        ({"container_image": "nvcr.io/nvidia/pytorch:24.09-py3"}, "has no digest"),
        ({"container_image": "img@sha256:abc"}, "must be 64 lower-case hex digits, not 3"),
        ({"container_image": f"Bad Name@sha256:{DIGEST}"}, "may hold only lower-case"),
        ({"vocab_size": 0}, "vocab_size"),
    ],
)
def test_a_shape_or_image_megatron_would_refuse_is_refused_with_the_field_named(changes, words):
    with pytest.raises(ValidationError) as caught:
        _workload(**changes)
    assert words in str(caught.value)


def test_the_ladders_runs_are_fitted_and_carried_to_the_jobs_size(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    scored = build_plan(demo_evaluation(), "northwind-ib", ISSUED).test("ACC-step-time").scored
    # Two rungs at the workload's layout (TP 8, PP 4, sequence 4,096): 32 and 64 GPUs.
    returned = tmp_path / "ACC-step-time_throughput.csv"
    returned.write_text(
        HEADER + "llama-70b,70,bf16,4096,8,4,1,32,30000,,4194304,H100-SXM,provider,2026-11-20\n"
        "llama-70b,70,bf16,4096,8,4,2,64,58800,,4194304,H100-SXM,provider,2026-11-20\n",
        encoding="utf-8",
    )
    assert main(["acceptance-status", str(document), "--attach", str(returned)]) == 0
    out = capsys.readouterr().out
    # By hand: two points fix the power law; b = log2(58,800 / 30,000); at 512 = 64 x 8 GPUs
    # the throughput is 58,800 x 8^b, and the step 4,194,304 tokens over it.
    b = math.log2(58_800 / 30_000)
    at_job = 58_800 * 8**b
    step = 4_194_304 / at_job
    assert f"grows as N^{b:.3f}" in out
    assert f"predicts {at_job:,.0f} tokens/s, a step of {step:.3f} s" in out
    assert f"against {scored:.3f} s scored" in out
    assert f"{scored / step:.0%} of the throughput the evaluation counted on" in out
    assert "two sizes only" in out and "8x the largest measured size" in out
    line = next(x for x in out.splitlines() if x.startswith("ACC-step-time"))
    assert "missing" in line  # the fit is shown, never judged: the test asks the job's size
