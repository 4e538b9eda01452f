"""Tensor-parallel, pipeline, ZeRO-3/FSDP and expert-parallel communication, each worked by hand
from a public configuration named in the test."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

NVLINK_H100 = 900 / 2 * 0.8  # GB/s: 450 one way x 0.8 ring efficiency (communication.py)
NIC_SHARE_NDR400 = 8 * 400 / 8 * 0.94 / 8  # GB/s per GPU: 8 x 400 Gb/s x 0.94 over 8 GPUs = 47


def _estimate(workload: dict, bid: dict | None = None):
    return estimate_training(
        Workload.model_validate(workload), [Bid.model_validate(bid or bid_dict())]
    ).bids[0]


# Llama 2 70B (Touvron et al. 2023): 80 layers, hidden 8,192; trained at 4,096 tokens.
LLAMA2_70B = {"num_layers": 80, "hidden_size": 8192, "sequence_length": 4096}


def test_tensor_parallel_all_reduces_by_hand():
    e = _estimate(workload_dict(**LLAMA2_70B))
    # TP 8, PP 4, DP 16, 64 micro-batches of one 4,096-token sequence per pipeline. Per layer two
    # all-reduces forward and two backward of 4096 x 8192 x 2 bytes = 67.1 MB; each 2 x 7/8 x
    # 67.1 MB / 360 GB/s + 20 us. The GPU holds 80/4 = 20 layers.
    per_call = 2 * 7 / 8 * 4096 * 8192 * 2 / (NVLINK_H100 * 1e9) + 20e-6
    assert e.tp_comm_s == pytest.approx(64 * 20 * 4 * per_call, rel=1e-9)
    # 1.75 x 67,108,864 B / 360e9 B/s = 326.2 us + 20 us = 346.2 us, x 5,120 calls = 1.7727 s:
    # about a fifth of the 8.9 s of compute.
    assert e.tp_comm_s == pytest.approx(1.7727, abs=1e-4)


def test_full_recomputation_repeats_the_forward_all_reduces_and_overlap_hides_them():
    full = _estimate(workload_dict(**LLAMA2_70B, activation_recomputation="full"))
    none = _estimate(workload_dict(**LLAMA2_70B))
    assert full.tp_comm_s == pytest.approx(none.tp_comm_s * 6 / 4, rel=1e-9)
    hidden = _estimate(workload_dict(**LLAMA2_70B, tp_comm_overlap=1.0))
    assert hidden.step_s == pytest.approx(none.step_s - none.tp_comm_s, rel=1e-9)


def test_pipeline_transfers_cross_nodes_on_the_nic_share():
    e = _estimate(workload_dict(**LLAMA2_70B))
    # 512 GPUs outgrow an 8-GPU NVLink domain: adjacent stages are on different nodes. Each of the
    # 2 x 64 transfers a step moves 4096 x 8192 x 2 / 8 bytes (split over the TP ranks) at
    # 47 GB/s plus the fabric's 10 us.
    per = 4096 * 8192 * 2 / 8 / (NIC_SHARE_NDR400 * 1e9) + 10e-6
    assert e.pp_comm_s == pytest.approx(2 * 64 * per, rel=1e-9)
    interleaved = _estimate(workload_dict(**LLAMA2_70B, virtual_pipeline_stages=5))
    assert interleaved.pp_comm_s == pytest.approx(
        5 * e.pp_comm_s, rel=1e-9
    )  # one per virtual stage


def test_zero3_moves_one_and_a_half_times_the_data_parallel_volume():
    # Rajbhandari et al., "ZeRO" (SC20), section 7.2.2: with parameters partitioned (stage 3) the
    # volume is 3 x the model (all-gather forward, all-gather backward, reduce-scatter) against
    # the 2 x of a plain all-reduce: 1.5x. With bf16 gradients, one micro-batch a step (global
    # batch 16 sequences over DP 16) and no overlap, the bytes and the latency steps both add up
    # to 1.5 x the all-reduce.
    common = {"grad_bytes_per_param": 2, "global_batch_tokens": 16 * 4096, "dp_comm_overlap": 0.0}
    plain = _estimate(workload_dict(**common))
    zero3 = _estimate(workload_dict(**common, shard_parameters=True))
    assert zero3.dp_comm_s + zero3.gather_comm_s == pytest.approx(1.5 * plain.dp_comm_s, rel=1e-9)
    # Weights and gradients are sharded too: 70e9/32 x (2 + 2 + 12) / 16 bytes = 2.19 GB.
    w = Workload.model_validate(workload_dict(**common, shard_parameters=True))
    assert w.model_state_gb_per_gpu() == pytest.approx(70e9 / 32 * 16 / 16 / 1e9)


# Mixtral 8x7B (Jiang et al. 2024, "Mixtral of Experts"): 32 layers, hidden 4,096, 8 experts,
# top-2 routing, 46.7B parameters of which 12.9B active per token.
MIXTRAL = {
    "total_params_billions": 46.7,
    "active_params_billions": 12.9,
    "num_layers": 32,
    "hidden_size": 4096,
    "sequence_length": 4096,
    "tensor_parallel": 1,
    "pipeline_parallel": 1,
    "job_gpus": 512,
    "global_batch_tokens": 1024 * 4096,
    "experts_per_token": 2,
}


def test_expert_all_to_all_inside_the_nvlink_domain_and_across_it():
    inside = _estimate(workload_dict(**MIXTRAL, expert_parallel=8))
    # DP 512, 2 micro-batches of one sequence each. A GPU sends 7/8 of its 4,096 tokens' two
    # copies, 4096 x 4096 x 2 bytes x 2 x 7/8, four times per layer (dispatch and combine, forward
    # and backward) on 32 layers: over NVLink at 360 GB/s + 20 us per call.
    size = 4096 * 4096 * 2 * 2 * 7 / 8
    assert inside.moe_comm_s == pytest.approx(
        2 * 32 * 4 * (size / (NVLINK_H100 * 1e9) + 20e-6), rel=1e-9
    )
    across = _estimate(workload_dict(**MIXTRAL, expert_parallel=16))
    size16 = 4096 * 4096 * 2 * 2 * 15 / 16
    assert across.moe_comm_s == pytest.approx(
        2 * 32 * 4 * (size16 / (NIC_SHARE_NDR400 * 1e9) + 10e-6), rel=1e-9
    )
    assert across.step_s > inside.step_s


def test_expert_parallelism_is_refused_for_a_dense_model_or_an_uneven_split():
    with pytest.raises(ValidationError, match="mixture-of-experts"):
        Workload.model_validate(workload_dict(expert_parallel=8))
    with pytest.raises(
        ValidationError, match=r"expert_parallel \(3\) must divide the data-parallel degree \(512\)"
    ):
        Workload.model_validate(workload_dict(**{**MIXTRAL, "expert_parallel": 3}))


def test_calibration_solves_through_the_communication_terms():
    # A measured step time at the job's scale is reproduced exactly, whatever the new terms add.
    probe = _estimate(workload_dict(**LLAMA2_70B, baseline_mfu=0.5))
    evidence = [
        {
            "kind": "training_step_time",
            "value": probe.step_s,
            "unit": "s",
            "scale_gpus": 512,
            "grade": "provider_claim",
            "description": "step time of the same job",
        }
    ]
    calibrated = _estimate(
        workload_dict(**LLAMA2_70B, baseline_mfu=0.3), bid_dict(evidence=evidence)
    )
    assert calibrated.baseline_mfu == pytest.approx(0.5, rel=1e-9)
    assert calibrated.step_s == pytest.approx(probe.step_s, rel=1e-9)
