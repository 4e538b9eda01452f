"""Per-GPU/precision baseline efficiency and the data-parallel overlap window, against public figures."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.communication import overlap_window_share
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

# llm-foundry, scripts/train/benchmarking/README.md (MosaicML), tables "H100 80GB BF16",
# "H100 80GB FP8" and "A100 80GB with 1600 Gbps node-node interconnect":
FOUNDRY_70B_64GPU_MFU = {"A100-80GB-SXM": 0.5333, "H100-SXM": 0.4257}  # MPT-70B, seq 2048, FSDP
FOUNDRY_3B_SEQ512_8GPU_MFU = {"bf16": 0.4632, "fp8": 0.3025}  # MPT-3B on 8 H100: % of each peak


def _estimate(workload: dict, bid: dict):
    return estimate_training(Workload.model_validate(workload), [Bid.model_validate(bid)]).bids[0]


def test_a100_reaches_a_higher_share_of_its_peak_than_h100_on_the_same_software():
    ratio = FOUNDRY_70B_64GPU_MFU["A100-80GB-SXM"] / FOUNDRY_70B_64GPU_MFU["H100-SXM"]
    a100 = _estimate(workload_dict(), bid_dict(capacity={"gpu_model": "A100-80GB-SXM"}))
    assert a100.baseline_mfu == pytest.approx(0.42 * ratio, rel=1e-3)


def test_fp8_gains_the_measured_speed_up_not_the_doubled_peak():
    # Throughput ratio FP8/BF16 = (MFU_fp8 x 1,979) / (MFU_bf16 x 989) = 1.307 on llm-foundry's table,
    # the gain of llm-foundry's stack (a stack not stated takes the published range's middle:
    # test_software_stack.py).
    gain = FOUNDRY_3B_SEQ512_8GPU_MFU["fp8"] * 1979 / (FOUNDRY_3B_SEQ512_8GPU_MFU["bf16"] * 989)
    stack = {"software_stack": "llm-foundry-2023"}
    bf16 = _estimate(workload_dict(**stack), bid_dict())
    fp8 = _estimate(workload_dict(precision="fp8", **stack), bid_dict())
    assert fp8.baseline_mfu == pytest.approx(0.42 * gain * 989 / 1979, rel=5e-3)
    # The compute term, which bears the precision, shrinks by the measured gain, not by 2.
    assert bf16.compute_s / fp8.compute_s == pytest.approx(gain, rel=5e-3)
    assert bf16.compute_s / fp8.compute_s < 1.5


def test_every_catalog_gpu_names_the_source_of_its_efficiency():
    for gpu in default_catalog().gpus.values():
        assert len(gpu.efficiency_source) >= 10, gpu.id
        assert (
            1.0 <= gpu.fp8_speedup_over_bf16 < 2.0
        )  # never the peak ratio: real runs gain 1.2-1.4x


def test_overlap_window_is_the_last_micro_batch_backward():
    # Backward ~ 2x forward, so 2/3 of a micro-batch's compute; with m micro-batches per step the
    # window is 2/3 / m of the step's compute (PyTorch DDP no_sync; Megatron-LM overlap_grad_reduce).
    assert overlap_window_share(1) == pytest.approx(2 / 3)
    assert overlap_window_share(16) == pytest.approx(2 / 3 / 16)


def test_more_micro_batches_expose_more_communication():
    # Same job and bid; 4x the global batch gives 4x the micro-batches, so the hidden share of the
    # (unchanged) gradient all-reduce can only shrink relative to the step's compute.
    few = _estimate(workload_dict(global_batch_tokens=1024 * 4096), bid_dict())
    many = _estimate(workload_dict(global_batch_tokens=4096 * 4096), bid_dict())
    assert many.dp_comm_s == pytest.approx(few.dp_comm_s)
    hidden_few = few.dp_comm_s - few.exposed_comm_s
    hidden_many = many.dp_comm_s - many.exposed_comm_s
    assert hidden_few == pytest.approx(min(0.5 * few.dp_comm_s, 2 / 3 * few.compute_s / 64))
    assert hidden_many == pytest.approx(min(0.5 * many.dp_comm_s, 2 / 3 * many.compute_s / 256))
