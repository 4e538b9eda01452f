"""Issue 39 item 5: a returned run carries the recipe's heads, vocabulary and container, and the
evidence fit holds them to the workload's: another shape is another model (an MFU down-graded
to a claim, a step time not used); another container than the request pinned is another
software stack (down-graded, named in words). Figures by hand: the workload is Llama-2-70B's
shape (64 heads, hidden 8,192, 80 layers; vocabulary 32,000 per its model card) on 512 H100."""

from __future__ import annotations

from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

PINNED = "registry.example/megatron@sha256:" + "a" * 64
OTHER = "registry.example/megatron@sha256:" + "b" * 64
SHAPE = {"num_layers": 80, "hidden_size": 8192, "num_attention_heads": 64, "vocab_size": 32_000}
# Every context item recorded, so no grade is lost to missing context: only the recipe decides.
RUN = {
    "scale_gpus": 512,
    "grade": "measured_provider",
    "artefact_sha256": "1" * 64,
    "artefact_name": "run.csv",
    "gpu_model": "H100-SXM",
    "precision": "bf16",
    "model_active_params_billions": 70,
    "sequence_length": 4096,
    "tensor_parallel": 8,
    "pipeline_parallel": 4,
    "global_batch_sequences": 1024,
    "num_attention_heads": 64,
    "vocab_size": 32_000,
    "container_image": PINNED,
}
MFU = {**RUN, "kind": "training_mfu", "value": 0.40, "unit": "fraction", "mfu_flops_basis": "6n"}
# 6 x 70e9 x 4,194,304 tokens / (512 x 989e12 x 0.42) = 8.28 s at the workload's 42%: 9.5 s is
# a slower, plausible run (about 37%).
STEP = {**RUN, "kind": "training_step_time", "value": 9.5, "unit": "s"}


def _estimate(evidence: dict):
    w = Workload.model_validate(workload_dict(**SHAPE, container_image=PINNED))
    return estimate_training(w, [Bid.model_validate(bid_dict(evidence=[evidence]))]).bids[0]


def _notes(e) -> str:
    return " | ".join(e.calibration_notes)


def test_a_run_of_the_workloads_own_recipe_keeps_its_grade():
    for evidence in (MFU, STEP):
        e = _estimate(evidence)
        assert e.efficiency_evidence is not None
        assert e.efficiency_evidence.grade.value == "measured_provider", _notes(e)
        assert "another run" not in _notes(e)


def test_other_heads_down_grade_an_mfu_and_refuse_a_step_time():
    e = _estimate({**MFU, "num_attention_heads": 32})
    assert e.efficiency_evidence is not None
    assert e.efficiency_evidence.grade.value == "provider_claim"
    assert "32 attention heads against the workload's 64" in _notes(e)
    assert "from measured by the provider to a provider's claim" in _notes(e)
    e = _estimate({**STEP, "vocab_size": 128_256})
    assert e.efficiency_evidence is None
    assert "128,256 vocabulary against the workload's 32,000" in _notes(e)
    assert "not used" in _notes(e)


def test_another_container_than_pinned_is_named_and_down_graded():
    for evidence in (MFU, STEP):  # a step time in it still measures this model: kept as a claim
        e = _estimate({**evidence, "container_image": OTHER})
        assert e.efficiency_evidence is not None
        assert e.efficiency_evidence.grade.value == "provider_claim"
        assert "ran in another container than the request pinned" in _notes(e)
        assert "sha256:bbbbbbbbbbbb..." in _notes(e) and "sha256:aaaaaaaaaaaa..." in _notes(e)


def test_the_same_digest_under_another_name_is_the_same_container():
    mirror = "mirror.example/team/megatron:24.05@sha256:" + "a" * 64
    e = _estimate({**MFU, "container_image": mirror})
    assert e.efficiency_evidence is not None
    assert e.efficiency_evidence.grade.value == "measured_provider"
    assert "container" not in _notes(e)


def test_a_run_silent_on_the_recipe_reads_as_before():
    silent = {k: v for k, v in MFU.items() if k not in SHAPE and k != "container_image"}
    e = _estimate(silent)
    assert e.efficiency_evidence is not None
    assert e.efficiency_evidence.grade.value == "measured_provider"
