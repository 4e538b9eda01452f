"""Issue 31, item 3: a raw training log (the run's own step times) is measured evidence, while the
same step time typed into a throughput table stays a claim. The log below is written in
Megatron-LM's own format: its arguments block, then one line per logged interval."""

from __future__ import annotations

import hashlib

import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import EvidenceGrade, EvidenceKind
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.scoring import score_evaluation

ARGUMENTS = {
    "world_size": 512,
    "tensor_model_parallel_size": 8,
    "pipeline_model_parallel_size": 4,
    "seq_length": 4096,
    "global_batch_size": 1024,
    "bf16": True,
    "fp8": None,
}
# The first interval holds start-up; the steady ones are 8.10, 8.00, 8.20 and 8.05 s.
STEPS_MS = (14000.0, 8100.0, 8000.0, 8200.0, 8050.0)
STEADY_MEDIAN_S = (8.05 + 8.10) / 2  # the median of four: the mean of the middle two, 8.075 s


def megatron_log(steps_ms=STEPS_MS, **changes) -> bytes:
    args = {**ARGUMENTS, **changes}
    lines = [
        "using world size: 512, data-parallel size: 16, tensor-model-parallel size: 8",
        "------------------------ arguments ------------------------",
    ]
    lines += [
        f"  {name} {'.' * (40 - len(name))} {value}"
        for name, value in args.items()
        if value != "drop"
    ]
    lines += [
        "-------------------- end of arguments ---------------------",
        "> building train dataset ...",
    ]
    for k, ms in enumerate(steps_ms, start=1):
        lines.append(
            f" [2026-11-20 10:{k:02d}:00] iteration {10 * k:8d}/  340000 | consumed samples: "
            f"{10240 * k:12d} | "
            f"elapsed time per iteration (ms): {ms:.1f} | learning rate: 1.500E-04 | global batch "
            "size:  1024 "
            "| lm loss: 2.345E+00 | loss scale: 1.0 | grad norm: 0.512 | number of skipped "
            "iterations:   0 | "
            "number of nan iterations:   0 |"
        )
    return ("\n".join(lines) + "\n").encode()


def test_a_raw_log_is_a_measured_step_time_of_the_run_it_describes():
    data = megatron_log()
    reading = read_evidence(data, "northwind-run.log")
    assert reading.format == "training-log"
    (item,) = reading.evidence
    assert item.kind is EvidenceKind.TRAINING_STEP_TIME
    assert item.value == pytest.approx(STEADY_MEDIAN_S, rel=1e-12)
    assert item.grade is EvidenceGrade.MEASURED_PROVIDER  # who ran it: the provider unless said
    assert item.artefact_sha256 == hashlib.sha256(data).hexdigest()
    assert (
        item.scale_gpus,
        item.tensor_parallel,
        item.pipeline_parallel,
        item.sequence_length,
        item.global_batch_sequences,
        item.precision,
    ) == (512, 8, 4, 4096, 1024, "bf16")
    witnessed = read_evidence(data, "northwind-run.log", measured_by="third_party").evidence[0]
    assert witnessed.grade is EvidenceGrade.MEASURED_INDEPENDENT
    assert not reading.flags()


def test_the_same_step_time_typed_into_a_table_stays_a_claim():
    typed = (
        "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,step_time_s,global_batch_tokens,"
        "gpu_model,measured_by\nllama-70b,70,bf16,4096,8,4,16,512,8.075,4194304,H100-SXM,provider\n"
    )
    (row,) = read_evidence(typed.encode(), "northwind-throughput.csv").evidence
    assert row.grade is EvidenceGrade.PROVIDER_CLAIM
    # By hand: 4,194,304 tokens / 8.075 s x 6 x 70e9 / (512 x 989e12) = 42.2% MFU (6N).
    assert row.value == pytest.approx(4_194_304 / 8.075 * 6 * 70e9 / (512 * 989e12), rel=1e-9)


def _scored(evidence) -> object:
    bid = bid_dict("logged", evidence=[evidence.model_dump(mode="json")])
    ev = Evaluation.model_validate(evaluation_dict([bid], workload=workload_dict()))
    return score_evaluation(ev).scores[0].estimate


def test_a_log_of_the_workloads_run_calibrates_the_bid_to_its_step_time():
    """At the job's 512 GPUs the calibrated model's step is the log's median, 8.075 s."""
    estimate = _scored(read_evidence(megatron_log(), "run.log").evidence[0])
    assert estimate.step_s == pytest.approx(STEADY_MEDIAN_S, rel=1e-6)
    # Issue 36: a Megatron-LM log does not name its GPU or the model's parameter count, so the
    # provider's run is graded one step lower, a claim, and drawn wider; the note says what to ask.
    assert estimate.efficiency_evidence.grade is EvidenceGrade.PROVIDER_CLAIM
    assert estimate.efficiency_evidence.missing_context == ("GPU", "model size")
    assert any("does not record its GPU, model size" in note for note in estimate.calibration_notes)


def test_a_log_at_another_global_batch_is_not_used_for_this_workload():
    estimate = _scored(read_evidence(megatron_log(global_batch_size=512), "run.log").evidence[0])
    assert estimate.efficiency_evidence is None
    assert any(
        "global batch 512 sequences against 1,024" in note for note in estimate.calibration_notes
    )


def test_a_log_without_its_arguments_or_enough_steps_is_refused_in_words():
    with pytest.raises(
        EvidenceParseError, match="does not give world_size: attach the log from its start"
    ):
        read_evidence(megatron_log(world_size="drop"), "cut.log")
    with pytest.raises(EvidenceParseError, match="3 logged iteration line"):
        read_evidence(megatron_log(STEPS_MS[:3]), "short.log")


def test_an_unsteady_run_is_flagged_and_its_median_kept():
    reading = read_evidence(megatron_log((14000.0, 8000.0, 8100.0, 13000.0, 8050.0)), "slow.log")
    assert [f.code for f in reading.flags()] == ["step_time_unsteady"]
    assert reading.evidence[0].value == pytest.approx((8.05 + 8.10) / 2)


def test_the_logs_heads_and_vocabulary_travel_with_its_step_time():
    # Issue 39 item 5: Megatron-LM prints both in its arguments block; a real tokenizer prints
    # vocab_size None (only the padded size, which is not the model's), so it stays unknown.
    (item,) = read_evidence(
        megatron_log(num_attention_heads=64, vocab_size=32000, padded_vocab_size=32768), "a.log"
    ).evidence
    assert (item.num_attention_heads, item.vocab_size) == (64, 32_000)
    (item,) = read_evidence(
        megatron_log(num_attention_heads=64, vocab_size=None, padded_vocab_size=128256), "b.log"
    ).evidence
    assert (item.num_attention_heads, item.vocab_size) == (64, None)
