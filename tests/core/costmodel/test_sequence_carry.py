"""A run measured at one sequence length carried to the workload's (issue 36 item 3): the
attention work per token grows with the sequence, 1 + 2 l s h / N (Narayanan et al. 2021's
1 + s / 6h when N = 12 l h^2), and a layout recorded without CP ran without it.

The model: GPT-3 XL (Brown et al. 2020, table 2.1: 1.3B parameters, 24 layers, width 2,048), one
H100 (989 TFLOP/s dense BF16), TP 1 x PP 1: no communication and no bubble, so the step is the
model's FLOPs over the peak times the MFU, by hand.
"""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

N, LAYERS, WIDTH, PEAK = 1.3e9, 24, 2048, 989e12
BATCH_TOKENS = 524_288
RUN = {
    "kind": "training_mfu",
    "value": 0.45,
    "unit": "fraction",
    "scale_gpus": 1,
    "grade": "provider_claim",
    "description": "GPT-3 XL at 2,048 tokens",
    "gpu_model": "H100-SXM",
    "precision": "bf16",
    "model_active_params_billions": 1.3,
    "sequence_length": 2048,
    "tensor_parallel": 1,
    "pipeline_parallel": 1,
    "global_batch_sequences": 256,
    "mfu_flops_basis": "model",
}


def _attention(seq: int) -> float:
    return 1 + 2 * LAYERS * seq * WIDTH / N


def _estimate(seq: int, evidence: dict = RUN, **workload):
    shape = {
        "total_params_billions": 1.3,
        "active_params_billions": 1.3,
        "job_gpus": 1,
        "tensor_parallel": 1,
        "pipeline_parallel": 1,
        "sequence_length": seq,
        "global_batch_tokens": BATCH_TOKENS,
        "activation_recomputation": "full",
    }
    w = Workload.model_validate(workload_dict(**{**shape, **workload}))
    return estimate_training(w, [Bid.model_validate(bid_dict(evidence=[evidence]))]).bids[0]


@pytest.mark.parametrize("seq", [2048, 8192, 32_768])
def test_the_measured_mfu_carries_and_the_attention_work_grows_with_the_sequence(seq):
    e = _estimate(seq, num_layers=LAYERS, hidden_size=WIDTH)
    # At 8,192 tokens a token costs 1.619 / 1.155 = 1.40 times what it did in the 2,048-token run.
    assert e.step_s == pytest.approx(
        BATCH_TOKENS * 6 * N * _attention(seq) / (PEAK * 0.45), rel=1e-9
    )
    assert e.baseline_mfu == pytest.approx(0.45, rel=1e-9)


def test_without_the_architecture_the_carry_is_flagged_and_drawn_wider_not_silent():
    e = _estimate(8192)
    assert e.efficiency_evidence.missing_context == (
        "attention growth from sequence 2,048 to 8,192 (the workload gives no layers and width)",
    )
    assert any(
        "does not record its attention growth from sequence 2,048 to 8,192" in n
        for n in e.calibration_notes
    )
    same = _estimate(2048)
    assert (
        same.efficiency_evidence.missing_context == ()
    )  # the run's own sequence: nothing to carry


def test_a_layout_recorded_as_tp_and_pp_is_solved_without_the_workloads_context_parallelism():
    """The run recorded TP 1 x PP 1 on 8 GPUs and no CP: it ran without context parallelism (DP 8),
    so the workload's own CP (8 for its 32k tokens, or 1) must not change what the run says: the
    solved baseline is the same either way (it was solved through CP 8 before)."""
    run = {**RUN, "scale_gpus": 8, "global_batch_sequences": 256 * 8}
    solved = {
        cp: _estimate(
            32_768,
            evidence=run,
            num_layers=LAYERS,
            hidden_size=WIDTH,
            context_parallel=cp,
            job_gpus=8,
            global_batch_tokens=BATCH_TOKENS * 8,
        ).baseline_mfu
        for cp in (1, 8)
    }
    assert solved[8] == pytest.approx(solved[1], rel=1e-12)
    # Recorded as CP 8 it is solved through CP 8, and comes back otherwise.
    as_cp8 = _estimate(
        32_768,
        evidence={**run, "context_parallel": 8},
        num_layers=LAYERS,
        hidden_size=WIDTH,
        context_parallel=8,
        job_gpus=8,
        global_batch_tokens=BATCH_TOKENS * 8,
    ).baseline_mfu
    assert as_cp8 != pytest.approx(solved[1], rel=1e-3)
