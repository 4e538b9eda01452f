"""The serving model against figures worked out by hand (arithmetic in each test)."""

from __future__ import annotations

import numpy as np
import pytest
from serving_builders import LLAMA70_KV_BYTES, serving_bid, serving_workload

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import replica_grid
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays

# NVIDIA datasheets: H100 SXM 3.35 TB/s and 80 GB; H200 SXM 4.8 TB/s and 141 GB; dense FP8
# 1,979 TFLOP/s on both. The workload's default HBM efficiency is 0.7, compute efficiency 0.5,
# usable HBM 0.9.
H100_EFFECTIVE_BW = 3.35e12 * 0.7  # 2.345e12 bytes/s


def _grid(workload, *bids):
    w = ServingScalars.from_workload(workload)
    arrays = build_serving_arrays(workload, list(bids), default_catalog(), [1.0] * len(bids))
    return w, replica_grid(w, arrays)


def test_the_kv_cache_per_token_follows_the_architecture():
    # 2 x 80 layers x 8 KV heads x 128 x 2 bytes (bf16) = 327,680; fp8 halves it.
    assert serving_workload().kv_bytes_per_token == 327_680 == LLAMA70_KV_BYTES
    assert serving_workload(kv_cache_precision="fp8").kv_bytes_per_token == 163_840


def test_batch_one_decode_is_effective_hbm_bandwidth_over_weight_bytes():
    # 70e9 params x 1 byte (FP8) read once per token; a 1-byte-per-token KV cache is negligible.
    # tokens/s = 3.35e12 x 0.7 / 70e9 = 33.5; compute at batch 1 needs only
    # 2 x 70e9 / (1,979e12 x 0.5) = 0.14 ms, so the step is memory-bound.
    workload = serving_workload(
        tensor_parallel=1, kv_heads=None, head_dim=None, kv_cache_bytes_per_token=1
    )
    _, grid = _grid(workload, serving_bid())
    decode_step = grid.step_s[0, 0, 0]
    assert 1.0 / decode_step == pytest.approx(H100_EFFECTIVE_BW / 70e9, rel=1e-6)
    assert 1.0 / decode_step == pytest.approx(33.5, rel=1e-6)
    assert grid.memory_s[0, 0, 0] > grid.compute_s[0, 0, 0]


def test_larger_batches_raise_throughput_until_compute_binds():
    # 8B bf16 (16 GB) with 16,384 KV bytes per token and 1,100 tokens of mean decode context
    # (1,000 + 200/2). Chunked prefill puts B x 1,000/200 = 5B prompt tokens in every step
    # beside the B decode tokens, 6B tokens in all.
    # weight read = 16e9 / 2.345e12 = 6.8230 ms; KV read = B x 16,384 x 1,100 / 2.345e12 =
    # B x 7.6855 us; matmul compute = 2 x 8e9 x 6B / (989e12 x 0.5) = B x 194.135 us.
    # The matmuls hide the weight read up to B = 6.8230e-3 / 194.135e-6 = 35.15; the attention
    # kernel's KV read adds after them, so from batch 36 the step is B x (194.135 + 7.6855) us
    # and the rate the ceiling 1 / 201.82 us = 4,954.9 output tokens/s (not the 5,151 of
    # compute alone).
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
    _, grid = _grid(workload, serving_bid())
    decode_rate = grid.batch[0, 0, :] / grid.step_s[0, 0, :]
    weight_read_bound = grid.weights_read_s[0, 0, :] >= grid.compute_s[0, 0, :]
    assert (
        weight_read_bound[:35].all() and not weight_read_bound[35:].any()
    )  # batches 1..35, then 36..
    assert np.all(np.diff(decode_rate[:35]) > 0)
    kv_read = 16_384 * 1_100 / H100_EFFECTIVE_BW
    ceiling = 1 / (2 * 8e9 * 6 / (989e12 * 0.5) + kv_read)
    assert decode_rate[35:] == pytest.approx(ceiling, rel=1e-9)
    assert ceiling == pytest.approx(4_954.9, rel=1e-4)


def test_hbm_capacity_binds_the_batch_of_a_model_that_nearly_fills_the_gpu():
    # 70 GB of FP8 weights on an H100: 80 GB x 0.9 = 72 GB usable leaves 2 GB = 6,103.5 tokens
    # of 327,680-byte KV. A batch holds B x 1,300 tokens on average (1,000 + 600/2) plus the
    # 99th-percentile margin 2.326 x sqrt(B) x 0.5 x 1,300:
    # B = 2: 2,600 + 2,138 = 4,738 fits; B = 3: 3,900 + 2,619 = 6,519 does not.
    workload = serving_workload(tensor_parallel=1, tpot_target_ms=1000, ttft_target_ms=60_000)
    _, grid = _grid(workload, serving_bid())
    assert grid.fits_hbm[0, 0, :2].all() and not grid.fits_hbm[0, 0, 2:].any()
    estimate = estimate_serving(workload, [serving_bid()]).bids[0]
    assert (estimate.batch, estimate.batch_limit) == (2, "HBM capacity")


def test_cost_per_million_tokens_worked_by_hand_on_an_h200():
    # H200, TP1: effective bandwidth 4.8e12 x 0.7 = 3.36e12 B/s.
    # weights: 70e9 / 3.36e12 = 20.8333 ms per step.
    # KV read per sequence per step: 327,680 x (1,000 + 600/2) = 425.98 MB -> 0.126781 ms.
    # compute per sequence per step, decode + co-scheduled prefill of 1,000/600 prompt tokens:
    # 2 x 70e9 x 2.6667 / (1,979e12 x 0.5) = 0.377294 ms. The matmuls hide the weight read up
    # to B = 20.8333 / 0.377294 = 55.2; from B = 56 they bind and the attention kernel's KV read
    # adds after them: step = B x (0.377294 + 0.126781) = B x 0.504075 ms, a flat
    # 1 / 0.504075 ms = 1,983.8 tokens/s per replica for B = 56..59 (B = 60 breaks 30 ms).
    # Those batches cost the same, so the smallest, 56, stands: 28.2282 ms per output token.
    # peak 10 req/s x 600 = 6,000 tokens/s -> ceil(3.0245) = 4 replicas for the mean. Sized for
    # the default 20% forecast margin (12 req/s, 7,200 tokens/s: ceil(3.629) = 4) with queueing
    # headroom, then N+1: 5 replicas. With the spare down, 224 slots each held for 141.49 ms of
    # prefill + 600 x 28.2282 ms = 17.078 s: load 12 x 17.078 = 204.9 Erlangs, exact Erlang C
    # 12.8%, so 10% of first tokens wait over S / (c - a) x ln(0.128 / 0.1) = 222 ms (the model's
    # Halfin-Whitt approximation: 161 ms); 170 ms + that is within 1,000 ms, so 4 + 1 stand.
    # 5 GPUs are billed as one 8-GPU node:
    # month: 8 GPUs x 730 h x $3.00 = $17,520; average 4 x 600 = 2,400 tokens/s
    # -> 2,400 x 730 x 3,600 = 6.3072e9 tokens -> $17,520 / 6,307.2 = $2.7778 per million.
    workload = serving_workload(tensor_parallel=1)
    e = estimate_serving(workload, [serving_bid(gpu="H200-SXM")]).bids[0]
    assert e.passes_gates
    assert (e.tensor_parallel, e.batch) == (1, 56) and e.batch_limit.startswith("cost")
    assert e.tpot_ms == pytest.approx(28.2282, abs=0.001)
    assert e.replica_tokens_per_s == pytest.approx(1983.8, rel=1e-4)
    assert (e.replicas_for_mean, e.replicas, e.gpus_needed, e.gpus_billed) == (4, 5, 5, 8)
    assert 0 < e.queue_wait_ms <= 222.6 and e.ttft_ms + 222.6 < 1000
    assert e.monthly_cost == pytest.approx(17_520)
    assert e.cost_per_million_tokens == pytest.approx(17_520 / 6_307.2, rel=1e-9)


def test_a_model_that_does_not_fit_one_gpu_forces_tensor_parallelism_and_the_cost_shows_it():
    # 70B in BF16 = 140 GB of weights; an H100 holds 72 GB usable, so TP1 cannot serve it:
    # TP2 puts 70 GB on each GPU and leaves 2 GB for KV, TP4 35 GB.
    workload = serving_workload(precision="bf16")
    e = estimate_serving(workload, [serving_bid()]).bids[0]
    assert e.passes_gates and e.tensor_parallel >= 2
    assert e.gpus_needed == e.replicas * e.tensor_parallel
    forced = estimate_serving(
        serving_workload(precision="bf16", tensor_parallel=1), [serving_bid()]
    ).bids[0]
    assert not forced.passes_gates and forced.cost_per_million_tokens is None
    [gate] = forced.gates
    assert gate.code == "weights_exceed_hbm"
    assert "140.0 GB per GPU" in gate.message and "72.0 GB usable" in gate.message


def test_tensor_parallelism_inside_nvlink_costs_latency_and_bandwidth_per_layer():
    # TP8 on an H100 HGX node, batch 1: a step carries 1 + 1,000/600 = 2.6667 tokens; hidden
    # size sqrt(70e9 / (12 x 80)) = 8,539.1; message 2.6667 x 8,539.1 x 2 = 45,542 bytes.
    # NVLink bus bandwidth 900/2 GB/s x 0.8 = 360e9; per all-reduce 20 us + 2 x 7/8 x 45,542 /
    # 360e9 = 20.221 us; 2 all-reduces x 80 layers = 3.2354 ms per step.
    workload = serving_workload(tensor_parallel=8)
    _, grid = _grid(workload, serving_bid())
    message = (1 + 1000 / 600) * (70e9 / 960) ** 0.5 * 2
    assert grid.comm_s[0, 0, 0] == pytest.approx(
        160 * (20e-6 + 2 * 7 / 8 * message / 360e9), rel=1e-9
    )
    assert grid.comm_s[0, 0, 0] == pytest.approx(3.2354e-3, rel=1e-4)
    assert grid.fabric_comm_s[0, 0, 0] == 0.0


def test_tensor_parallelism_across_nodes_pays_fabric_latency_per_pass():
    # TP16 on 8-GPU HGX nodes spans 2 NVLink domains: each of the 2 all-reduces per layer adds
    # a ring of 2 x (2 - 1) fabric steps at 10 us (InfiniBand, catalog) and each GPU sends
    # 2 x 1/2 of its 1/8 slice of the 45,542-byte batch-1 message over its share of the NICs,
    # 8 x 400 Gbit/s x 0.94 / 8 GPUs = 47e9 B/s: 20 us + 0.121 us, x 160 = 3.219 ms per pass.
    workload = serving_workload(tensor_parallel=16, tpot_target_ms=100)
    ib = serving_bid(
        capacity={"largest_contiguous_block_gpus": 512},
        fabric={
            "technology": "IB-NDR400",
            "nics_per_node": 8,
            "nic_line_rate_gbit_s": 400,
            "gpudirect_rdma": True,
        },
        topology={"leaf_domain_gpus": 512},
    )
    _, grid = _grid(workload, ib)
    message = (1 + 1000 / 600) * (70e9 / 960) ** 0.5 * 2
    assert grid.fabric_comm_s[0, 0, 0] == pytest.approx(
        160 * (20e-6 + message / 8 / 47e9), rel=1e-9
    )
    assert grid.fabric_comm_s[0, 0, 0] == pytest.approx(3.219e-3, rel=1e-3)
    assert estimate_serving(workload, [ib]).bids[0].tp_fabric_latency_ms > 3.2
    # The serving-grade bid has a one-node block: a 16-GPU replica cannot be placed.
    [gate] = estimate_serving(workload, [serving_bid()]).bids[0].gates
    assert gate.code == "replica_does_not_fit_offer"
