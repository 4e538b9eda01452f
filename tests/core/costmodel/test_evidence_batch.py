"""An MFU is solved at the global batch its run recorded, not the workload's (issue 36 item 3's
finding: the calibration used the workload's batch, so a run at the same GPU count but another
batch came back unchanged). A step time at another batch is refused in words instead
(tests/core/evidence/test_training_log.py).

GPT-3 XL shape (1.3B, 24 layers, width 2,048; Brown et al. 2020) on 2 H100 as PP 2: the run's
measured MFU counts its pipeline bubble, (pp-1)/(m+pp-1) with m micro-batches. At 8 sequences
(m = 8) the bubble is 1/9; at the workload's 256 (m = 256) it is 1/257. The stack's own
efficiency is then MFU / (1 - bubble of the run), and the workload's MFU that times
(1 - 1/257), by hand (the point-to-point transfers over NVLink are well under 1% of the step).
"""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

MEASURED = 0.40


def _estimate(run_sequences: int):
    evidence = {
        "kind": "training_mfu",
        "value": MEASURED,
        "unit": "fraction",
        "scale_gpus": 2,
        "grade": "provider_claim",  # the point takes a claim as stated
        "description": "two-GPU pipelined run",
        "gpu_model": "H100-SXM",
        "precision": "bf16",
        "model_active_params_billions": 1.3,
        "sequence_length": 2048,
        "tensor_parallel": 1,
        "pipeline_parallel": 2,
        "global_batch_sequences": run_sequences,
        "mfu_flops_basis": "model",
    }
    workload = Workload.model_validate(
        workload_dict(
            total_params_billions=1.3,
            active_params_billions=1.3,
            num_layers=24,
            hidden_size=2048,
            job_gpus=2,
            tensor_parallel=1,
            pipeline_parallel=2,
            sequence_length=2048,
            global_batch_tokens=256 * 2048,
        )
    )
    bid = Bid.model_validate(bid_dict(evidence=[evidence]))
    return estimate_training(workload, [bid]).bids[0]


def test_a_small_batch_run_s_bubble_is_taken_out_before_the_workload_s_is_put_in():
    at_8 = _estimate(8)
    stack = MEASURED / (1 - 1 / 9)
    assert at_8.effective_mfu == pytest.approx(stack * (1 - 1 / 257), rel=1e-2)
    # Solved at the workload's own batch (the old reading) it would come back as measured.
    at_256 = _estimate(256)
    assert at_256.effective_mfu == pytest.approx(MEASURED, rel=1e-3)
    assert at_8.effective_mfu > 1.08 * at_256.effective_mfu
