"""The rules a training workload's figures must keep together: parameters, tokens or FLOPs, and a
layout whose parallel degrees divide the GPUs and the batch into whole numbers (each refusal
names the fields and the numbers, so the officer sees what to change); and the buyer's answer to
the memory gate, a measurement that the layout fits."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from clusterbid.core.base import FrozenModel
from clusterbid.core.recipe_fields import check_heads


class MeasuredFit(FrozenModel):
    """The layout ran: a measurement that it fits in memory, which the model's estimate of
    activations (a formula, not the framework's allocator) does not overrule."""

    hbm_gb: float = Field(
        gt=0, le=10_000, description="HBM per GPU of the GPUs the layout was measured on, GB"
    )
    reference: str = Field(
        min_length=3,
        max_length=500,
        description=(
            "Where it was measured: the run's memory log or training log, or a published table"
        ),
    )


def check_layout(w: Any) -> None:
    """ValueError naming the fields when the workload `w` (core/workload.py) does not fit
    together."""
    if w.active_params_billions > w.total_params_billions:
        raise ValueError("active_params_billions cannot exceed total_params_billions")
    if w.training_tokens_billions is None and w.total_flops is None:
        raise ValueError("give training_tokens_billions or total_flops")
    model_parallel = w.tensor_parallel * w.pipeline_parallel * w.context_parallel
    if w.job_gpus % model_parallel:
        raise ValueError(
            f"job_gpus ({w.job_gpus}) must be a multiple of TP x PP x CP "
            f"({w.tensor_parallel} x {w.pipeline_parallel} x {w.context_parallel} = "
            f"{model_parallel}) "
            "so that the data-parallel degree is a whole number"
        )
    if w.global_batch_tokens % w.sequence_length:
        raise ValueError(
            f"global_batch_tokens ({w.global_batch_tokens}) must be a whole number of "
            "sequences "
            f"of sequence_length ({w.sequence_length})"
        )
    per_step = w.data_parallel * w.micro_batch_size
    if w.global_batch_sequences % per_step:
        raise ValueError(
            f"the global batch ({w.global_batch_sequences} sequences) must divide into "
            f"data-parallel degree ({w.data_parallel}) x micro_batch_size "
            f"({w.micro_batch_size}) "
            f"= {per_step} sequences per micro-batch round"
        )
    if (w.num_layers is None) != (w.hidden_size is None):
        raise ValueError("give num_layers and hidden_size together (or neither)")
    check_heads(w.num_attention_heads, w.hidden_size, w.tensor_parallel)
    if w.expert_parallel > 1:
        if w.active_params_billions >= w.total_params_billions:
            raise ValueError(
                "expert_parallel > 1 needs a mixture-of-experts model (active_params_billions "
                "below total)"
            )
        if w.data_parallel % w.expert_parallel:
            raise ValueError(
                f"expert_parallel ({w.expert_parallel}) must divide the data-parallel "
                "degree "
                f"({w.data_parallel})"
            )
    if w.virtual_pipeline_stages > 1 and w.pipeline_parallel == 1:
        raise ValueError("virtual_pipeline_stages > 1 needs pipeline_parallel > 1")
