"""Evaluations for the uncertainty tests, built from tests/conftest.py's builders."""

from __future__ import annotations

import hashlib
import json

from tests.conftest import EXAMPLES, bid_dict, evaluation_dict, workload_dict

from clusterbid.core.evaluation import Evaluation

ARTEFACT = hashlib.sha256(b"raw nccl-tests output").hexdigest()


def one_node_workload() -> dict:
    """7B on one 8-GPU node, TP8 PP1: DP = 1, so no data-parallel communication, and PP = 1,
    so no bubble. The step is pure compute: cost to finish is proportional to 1 / baseline MFU."""
    return workload_dict(
        total_params_billions=7,
        active_params_billions=7,
        job_gpus=8,
        tensor_parallel=8,
        pipeline_parallel=1,
        # A stack named with one published figure adds no spread of its own (issue 36): the
        # band is the GPU type's 0.15 and the market's 0.10 these tests work out by hand.
        software_stack="llm-foundry-2023",
    )


def no_failure_bid(bid_id: str = "b1", **sections) -> dict:
    """conftest's bid without failures, so goodput is a constant (uptime x checkpoint factor)."""
    bid = bid_dict(bid_id, **sections)
    bid["reliability"]["failures_per_1000_gpu_days"] = 0
    return bid


def evidence(kind: str, value: float, scale: int, grade: str = "measured_independent") -> dict:
    unit = {"allreduce_busbw": "GB/s", "training_mfu": "fraction", "training_step_time": "s"}[kind]
    measured = grade != "provider_claim"
    return {
        "kind": kind,
        "scale_gpus": scale,
        "value": value,
        "unit": unit,
        "grade": grade,
        "measured_by": "third_party" if grade == "measured_independent" else "provider",
        "artefact_sha256": ARTEFACT if measured else None,
        # A training run records its context, here conftest's default workload's (70B, H100 BF16,
        # TP 8 x PP 4, 1,024 sequences of 4,096): missing context would down-grade it (issue 36).
        **(TRAINING_CONTEXT if kind == "training_mfu" else {}),
    }


TRAINING_CONTEXT = {
    "gpu_model": "H100-SXM",
    "precision": "bf16",
    "model_active_params_billions": 70.0,
    "sequence_length": 4096,
    "tensor_parallel": 8,
    "pipeline_parallel": 4,
    "global_batch_sequences": 1024,
    "mfu_flops_basis": "model",
}


def evaluation(bids: list[dict], workload: dict | None = None, **overrides) -> Evaluation:
    return Evaluation.model_validate(
        evaluation_dict(bids, workload=workload or workload_dict(), **overrides)
    )


def seed_on_buyers_terms() -> dict:
    """Seed 001's example (both bids) with invoices due net 30, the buyer's own terms by default,
    so its hand figures carry no cost of cash (methodology section 9)."""
    data = json.loads((EXAMPLES / "seed-network-example.json").read_text())
    for bid in data["bids"]:
        bid["terms"]["payment_terms_days"] = 30
    return data
