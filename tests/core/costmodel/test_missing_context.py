"""Evidence missing its context is graded lower and drawn wider, never taken as matching in
silence (issue 36 item 3); a stated MFU says which FLOPs it counts (the flops-basis column).

Figures by hand. Spreads: a buyer's measurement is drawn at 0.05, a provider's at 0.08, each
missing item of context adds 0.10 in quadrature. FLOPs basis: Narayanan et al., "Efficient
Large-Scale Language Model Training on GPU Clusters Using Megatron-LM" (SC21), appendix: with
activation recomputation a step executes 96 B s l h^2 (1 + s/6h + V/16lh) FLOPs where the model
needs 72, and their 1T run's 163 TFLOP/s per A100 (52% of peak) counts the 96: as model FLOPs,
52% x 72/96 = 39%.
"""

from __future__ import annotations

import math

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.evidence.throughput_as_evidence import throughput_evidence
from clusterbid.core.evidence.throughput_readers import parse_throughput_csv
from clusterbid.core.uncertainty.spreads import Spreads, bid_inputs
from clusterbid.core.workload import Workload

# The workload's own run at its own scale (512 GPUs, TP 8 x PP 4, 1,024 sequences of 4,096), so
# neither a mismatch nor the scale term widens it: only what it leaves out can.
FULL = {
    "kind": "training_mfu",
    "value": 0.40,
    "unit": "fraction",
    "scale_gpus": 512,
    "grade": "measured_independent",
    "measured_by": "buyer",
    "artefact_sha256": "2" * 64,
    "description": "the buyer's own run",
    "gpu_model": "H100-SXM",
    "precision": "bf16",
    "model_active_params_billions": 70.0,
    "sequence_length": 4096,
    "tensor_parallel": 8,
    "pipeline_parallel": 4,
    "global_batch_sequences": 1024,
    "mfu_flops_basis": "model",
}


def _estimate(evidence: list[dict], **workload):
    w = Workload.model_validate(workload_dict(**workload))
    return w, estimate_training(w, [Bid.model_validate(bid_dict(evidence=evidence))]).bids[0]


def _mfu_input(estimate):
    return bid_inputs(estimate, 512, Spreads())[1]


def test_a_run_that_records_its_whole_context_keeps_its_grade_and_spread():
    _, e = _estimate([FULL])
    assert e.efficiency_evidence.grade.value == "measured_independent"
    assert e.efficiency_evidence.missing_context == ()
    assert _mfu_input(e).sigma == pytest.approx(0.05)


@pytest.mark.parametrize(
    ("left_out", "named"),
    [
        (("tensor_parallel",), ("layout (TP and PP)",)),
        (("global_batch_sequences", "sequence_length"), ("sequence length", "global batch")),
        (("mfu_flops_basis",), ("FLOPs basis (6N, with attention, or hardware)",)),
    ],
)
def test_each_missing_item_lowers_the_grade_once_and_widens_the_band(left_out, named):
    _, full = _estimate([FULL])
    _, e = _estimate([{k: v for k, v in FULL.items() if k not in left_out}])
    assert e.efficiency_evidence.missing_context == named
    assert e.efficiency_evidence.grade.value == "measured_provider"  # one grade lower, not matched
    assert _mfu_input(e).sigma == pytest.approx(math.hypot(0.08, 0.10 * math.sqrt(len(named))))
    # The point figure still reproduces the run (its own layout where recorded), and the line the
    # officer reads beside it says what the run left out.
    if left_out == ("mfu_flops_basis",):
        assert e.baseline_mfu == pytest.approx(full.baseline_mfu, rel=1e-12)


def test_the_figure_s_source_line_says_what_the_run_left_out():
    w, e = _estimate([{k: v for k, v in FULL.items() if k != "pipeline_parallel"}])
    mfu = next(a for a in bid_assumptions(e, w) if "the run does not record" in a.source)
    assert (
        "the run does not record its layout (TP and PP): graded lower and drawn wider" in mfu.source
    )
    assert any("ask for them" in note for note in e.calibration_notes)


def test_a_claim_missing_context_stays_a_claim_drawn_as_silence_not_wider():
    """A claim is already drawn with silence's spread, the widest (issue 31); widening it further
    would make a claim worse than saying nothing, so the down-grade is all it gets."""
    claim = {**FULL, "grade": "provider_claim", "measured_by": "provider", "artefact_sha256": None}
    _, full = _estimate([claim])
    _, bare = _estimate(
        [{k: v for k, v in claim.items() if k not in ("tensor_parallel", "gpu_model")}]
    )
    assert bare.efficiency_evidence.grade.value == "provider_claim"
    assert bare.efficiency_evidence.missing_context == ("GPU", "layout (TP and PP)")
    assert _mfu_input(bare).sigma == _mfu_input(full).sigma
    assert _mfu_input(bare).shared_sigma == _mfu_input(full).shared_sigma


def test_a_provider_measurement_missing_context_falls_to_a_claim():
    provider = {**FULL, "grade": "measured_provider", "measured_by": "provider"}
    _, e = _estimate([{k: v for k, v in provider.items() if k != "global_batch_sequences"}])
    assert e.efficiency_evidence.grade.value == "provider_claim"
    assert any(
        "down-graded from measured by the provider to a provider's claim" in n
        for n in e.calibration_notes
    )


HEADER = (
    "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,mfu,mfu_denominator,mfu_flops_basis,"
    "gpu_model,measured_by\n"
)


def _row_evidence(mfu: float, basis: str, gpu: str = "A100-80GB-SXM"):
    text = HEADER + f"gpt-1t,70,bf16,4096,8,4,16,512,{mfu},dense_peak,{basis},{gpu},third_party\n"
    result = parse_throughput_csv(text, "rows.csv").results[0]
    return result, throughput_evidence(result, artefact_sha256=None, artefact_name=None)


def test_a_hardware_flops_mfu_is_converted_not_read_as_model_flops():
    """Megatron-LM's 52% counts the recomputed forward pass: with full recomputation it is 39% of
    model FLOPs, and calibrates exactly as a 39% model-FLOPs figure does."""
    _, hardware = _row_evidence(0.52, "hardware")
    _, model = _row_evidence(0.52 * 72 / 96, "model")
    assert hardware.mfu_flops_basis == "hardware" and "hardware FLOPs" in hardware.description
    a100 = {"capacity": {"gpu_model": "A100-80GB-SXM"}}
    bids = {
        name: Bid.model_validate(bid_dict(name, evidence=[item.model_dump(mode="json")], **a100))
        for name, item in (("hardware", hardware), ("model", model))
    }
    w = Workload.model_validate(workload_dict(activation_recomputation="full"))
    got = {b.bid.id: b for b in estimate_training(w, list(bids.values())).bids}
    assert got["hardware"].baseline_mfu == pytest.approx(got["model"].baseline_mfu, rel=1e-9)
    # Read as model FLOPs (no column) the same 52% would have made the bid a third faster.
    unstated = Bid.model_validate(
        bid_dict(
            "unstated",
            evidence=[_row_evidence(0.52, "unstated")[1].model_dump(mode="json")],
            **a100,
        )
    )
    read_as_model = estimate_training(w, [unstated]).bids[0]
    assert read_as_model.baseline_mfu / got["hardware"].baseline_mfu == pytest.approx(
        96 / 72, rel=0.02
    )


def test_a_stated_mfu_without_its_basis_is_flagged_and_counted_as_missing_context():
    result, item = _row_evidence(0.45, "unstated", "H100-SXM")
    assert result.flag_codes() == ("mfu_flops_basis_unstated",)
    assert item.mfu_flops_basis is None
    _, e = _estimate([item.model_dump(mode="json")])
    assert "FLOPs basis (6N, with attention, or hardware)" in e.efficiency_evidence.missing_context
