"""Builders for inference workloads and serving bids as plain dicts (tests of the serving model)."""

from __future__ import annotations

from tests.conftest import bid_dict

from clusterbid.core.bid import Bid
from clusterbid.core.serving_workload import InferenceWorkload

# Llama-3-70B shape: 80 layers, 8 KV heads of dimension 128; bf16 KV cache ->
# 2 (K and V) x 80 x 8 x 128 x 2 bytes = 327,680 bytes per token.
LLAMA70_KV_BYTES = 2 * 80 * 8 * 128 * 2


# A provider's serving benchmark with its whole shape stated (model GPU, lengths, batch,
# precisions, engine): nothing widens its draw.
MEASURED_H200_RUN = {
    "kind": "serving_decode_throughput",
    "engine": "TensorRT-LLM",  # the engine the tests' workloads state, where they state one
    "scale_gpus": 1,
    "value": 1200,
    "unit": "tokens/s",
    "grade": "measured_provider",
    "batch_size": 32,
    "measured_by": "provider",
    "artefact_sha256": "ab" * 32,
    "prompt_tokens": 1000,
    "output_tokens": 600,
    "gpu_model": "H200-SXM",
    "precision": "fp8",
    "kv_cache_precision": "bf16",
}


def serving_dict(**overrides) -> dict:
    """A 70B dense model in FP8 (70 GB of weights), 1,000-token prompts and 600-token answers."""
    data = {
        "kind": "inference",
        "name": "test service",
        "total_params_billions": 70,
        "precision": "fp8",
        "num_layers": 80,
        "kv_heads": 8,
        "head_dim": 128,
        "kv_cache_precision": "bf16",
        "prompt_tokens": 1000,
        "output_tokens": 600,
        "ttft_target_ms": 1000,
        "tpot_target_ms": 30,
        "peak_requests_per_s": 10,
        "average_requests_per_s": 4,
    }
    data.update(overrides)
    return data


def serving_workload(**overrides) -> InferenceWorkload:
    return InferenceWorkload.model_validate(serving_dict(**overrides))


def serving_bid_dict(
    bid_id: str = "s1", gpu: str = "H100-SXM", price: str = "3.00", **sections
) -> dict:
    """Serving-grade nodes: one 100G TCP NIC per 8-GPU node, a one-node contiguous block."""
    data = bid_dict(
        bid_id,
        capacity={
            "gpu_model": gpu,
            "gpus_offered": 512,
            "gpus_per_node": 8,
            "largest_contiguous_block_gpus": 8,
        },
        fabric={
            "technology": "TCP-Ethernet",
            "nics_per_node": 1,
            "nic_line_rate_gbit_s": 100,
            "gpudirect_rdma": False,
        },
        topology={
            "kind": "fat-tree",
            "oversubscription_ratio": 1,
            "leaf_domain_gpus": 8,
            "nvlink_domain_gpus": 8,
        },
        terms={"price_per_gpu_hour": price, "currency": "USD"},
    )
    for section, changes in sections.items():
        data[section] = (
            {**data.get(section, {}), **changes} if isinstance(changes, dict) else changes
        )
    return data


def serving_bid(bid_id: str = "s1", gpu: str = "H100-SXM", price: str = "3.00", **sections) -> Bid:
    return Bid.model_validate(serving_bid_dict(bid_id, gpu, price, **sections))
