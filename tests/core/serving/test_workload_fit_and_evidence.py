"""Workload-fit warnings both ways, and serving evidence setting the engine's efficiencies."""

from __future__ import annotations

import pytest
from serving_builders import serving_bid, serving_workload
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.workload import Workload

IB_TRAINING_CLUSTER = {
    "technology": "IB-NDR400",
    "nics_per_node": 8,
    "nic_line_rate_gbit_s": 400,
    "gpudirect_rdma": True,
}


def _ib_bid(**terms) -> Bid:
    # The shared test bid: 512 H100 on 8x NDR400 per node, one 512-GPU non-blocking block.
    return Bid.model_validate(bid_dict("ib", terms={"price_per_gpu_hour": "2.90", **terms}))


def test_a_serving_fleet_on_an_itemised_training_fabric_is_told_what_the_fabric_costs():
    # 0.55 of 2.90 per GPU-hour = 18.97% -> "19%".
    e = estimate_serving(serving_workload(), [_ib_bid(fabric_price_per_gpu_hour="0.55")]).bids[0]
    [fit] = e.warnings
    assert fit.code == "unused_training_fabric"
    assert "0.55 of the 2.90 USD per GPU-hour (19%)" in fit.message
    # The itemised share of the bill: GPUs billed x 730 h x 0.55.
    assert e.fabric_cost_per_month == pytest.approx(e.gpus_billed * 730 * 0.55)


def test_a_serving_fleet_on_an_unitemised_training_fabric_is_flagged():
    [fit] = estimate_serving(serving_workload(), [_ib_bid()]).bids[0].warnings
    assert fit.code == "unused_training_fabric" and "does not itemise" in fit.message


def test_serving_grade_nodes_raise_no_fabric_flag_for_a_service():
    assert estimate_serving(serving_workload(), [serving_bid()]).bids[0].warnings == ()


def test_a_training_run_on_serving_grade_nodes_is_flagged():
    workload = Workload.model_validate(workload_dict())  # 512 GPUs across 64 nodes
    serving_grade = serving_bid(
        capacity={"largest_contiguous_block_gpus": 512, "gpus_offered": 512}
    )
    [estimate] = estimate_training(workload, [serving_grade]).bids
    fit = [w for w in estimate.warnings if w.code == "serving_grade_bid"]
    assert fit and "no RDMA fabric" in fit[0].message
    # Seed 003: serving-grade nodes cannot carry a 64-node synchronous run, so the bid is gated
    # (not merely warned), and the as-offered one-node block is gated too, each in words.
    assert [g.code for g in estimate.gates] == ["tcp_only_multi_node"]
    assert "has no RDMA" in estimate.gates[0].message
    [as_offered] = estimate_training(workload, [serving_bid()]).bids
    assert {g.code for g in as_offered.gates} == {
        "contiguous_block_too_small",
        "tcp_only_multi_node",
    }
    assert any("smaller than the planned job of 512 GPUs" in g.message for g in as_offered.gates)
    small_block = Bid.model_validate(
        bid_dict("small", capacity={"largest_contiguous_block_gpus": 16})
    )
    [estimate] = estimate_training(workload, [small_block]).bids
    assert any(
        "contiguous block of only 16 GPUs (2 node(s))" in w.message for w in estimate.warnings
    )
    [estimate] = estimate_training(workload, [_ib_bid()]).bids
    assert not any(w.code == "serving_grade_bid" for w in estimate.warnings)


def test_measured_decode_throughput_sets_the_engine_factor_of_both_efficiencies():
    # One H200 (TP1), 32 sequences, 1,200 output tokens/s -> a step of 32/1,200 = 26.667 ms.
    # Bytes read per step: 70e9 weights + 32 x 327,680 x (1,000 + 600/2) = 70e9 + 13.631e9; at
    # the assumed 70% of 4.8 TB/s that is 24.890 ms. The matmuls (32 x (1 + 1,000/600) = 85.3
    # tokens, 2 x 70e9 x 85.3 / (1,979e12 x 0.5) = 12.1 ms) hide behind the weight read, so the
    # engine runs k = 24.890 / 26.667 = 0.93339 times as fast as assumed: HBM 0.65337, compute
    # 0.46669.
    evidence = {
        "kind": "serving_decode_throughput",
        "scale_gpus": 1,
        "value": 1200,
        "unit": "tokens/s",
        "grade": "provider_claim",
        "batch_size": 32,
    }
    bid = serving_bid(gpu="H200-SXM", evidence=[evidence])
    e = estimate_serving(serving_workload(), [bid]).bids[0]
    expected = (70e9 + 32 * 327_680 * 1300) / (4.8e12 * 32 / 1200)
    assert e.hbm_efficiency == pytest.approx(expected, rel=1e-9)
    assert e.hbm_efficiency == pytest.approx(0.65337, abs=1e-5)
    assert e.compute_efficiency == pytest.approx(0.5 * expected / 0.7, rel=1e-9)
    assert e.compute_efficiency == pytest.approx(0.46669, abs=1e-5)
    assert e.throughput_evidence is not None


def test_a_claim_faster_than_the_hbm_peak_is_refused_with_a_note():
    # 32 / 0.01 s = 3,200 tokens/s would need 83.6e9 B in 10 ms = 8.4 TB/s on a 4.8 TB/s H200.
    evidence = {
        "kind": "serving_decode_throughput",
        "scale_gpus": 1,
        "value": 3200,
        "unit": "tokens/s",
        "grade": "provider_claim",
        "batch_size": 32,
    }
    e = estimate_serving(
        serving_workload(), [serving_bid(gpu="H200-SXM", evidence=[evidence])]
    ).bids[0]
    assert e.hbm_efficiency == 0.7 and e.throughput_evidence is None
    assert "peak HBM bandwidth" in e.calibration_notes[0]


def test_a_measurement_where_the_matmuls_bind_scales_both_efficiencies_alike():
    # 8B in BF16 (16e9 B) on one H100, 256 sequences, prompts of 1,000 and outputs of 200 tokens
    # of 16,384-byte KV. With chunked prefill each step carries 256 decode tokens and 256 x
    # 1,000/200 = 1,280 prompt tokens: 2 x 8e9 x 1,536 / (989e12 x 0.5) = 49.699 ms of matmuls,
    # which hide the 16e9 / (3.35e12 x 0.7) = 6.823 ms weight read; the KV cache, 256 x 16,384 x
    # (1,000 + 100) = 4.6137e9 B, adds 4.6137e9 / (3.35e12 x 0.7) = 1.967 ms: 51.666 ms.
    # Measured 4,500 tokens/s -> a 256 / 4,500 = 56.889 ms step: k = 51.666 / 56.889 = 0.90819.
    evidence = {
        "kind": "serving_decode_throughput",
        "scale_gpus": 1,
        "value": 4_500,
        "unit": "tokens/s",
        "grade": "provider_claim",
        "batch_size": 256,
    }
    workload = serving_workload(
        total_params_billions=8,
        precision="bf16",
        tensor_parallel=1,
        kv_heads=None,
        head_dim=None,
        kv_cache_bytes_per_token=16_384,
        prompt_tokens=1000,
        output_tokens=200,
    )
    e = estimate_serving(workload, [serving_bid(evidence=[evidence])]).bids[0]
    model_step = 2 * 8e9 * 1536 / (989e12 * 0.5) + 256 * 16_384 * 1_100 / (3.35e12 * 0.7)
    k = model_step / (256 / 4_500)
    assert k == pytest.approx(0.90819, abs=1e-5)
    assert (e.hbm_efficiency, e.compute_efficiency) == (
        pytest.approx(0.7 * k, rel=1e-9),
        pytest.approx(0.5 * k, rel=1e-9),
    )
    assert e.throughput_evidence is not None
    assert e.calibration_notes[0] == (
        "Costed with its serving benchmark (provider's claim, no raw data): 4,500 tokens/s at "
        "batch 256 on 1 GPU puts the "
        "engine at 0.91x the assumed efficiencies (HBM 64%, compute 45%)"
    )
    # Issue 37: a figure that states none of its run's shape says so; a measured one's draw is
    # widened by 0.12, 0.09, 0.05, 0.05 and 0.03 in quadrature: sqrt(0.0284) = 0.1685, "17%" (a
    # claim's is not: it is drawn like a bid without evidence).
    assert e.calibration_notes[1].startswith(
        "The run does not state its prompt length, output length, GPU model, "
        "weight precision, KV-cache precision: solved with the workload's"
    )
    assert "widened" not in e.calibration_notes[1]
    measured = {**evidence, "grade": "measured_provider", "artefact_sha256": "0" * 64}
    e = estimate_serving(workload, [serving_bid(evidence=[measured])]).bids[0]
    assert "widened by 17% in the bands" in e.calibration_notes[1]
    # 25,600 output tokens/s would carry 25,600 x 6 = 153,600 tokens/s through the matmuls:
    # 2.46 PFLOP/s on a 989 TFLOP/s GPU. Refused, with the reason, and the assumptions stay.
    evidence["value"] = 25_600
    e = estimate_serving(workload, [serving_bid(evidence=[evidence])]).bids[0]
    assert (e.hbm_efficiency, e.compute_efficiency, e.throughput_evidence) == (0.7, 0.5, None)
    assert "more than the peak HBM bandwidth or compute" in e.calibration_notes[0]
