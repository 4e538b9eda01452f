"""The job being bought: a synchronous training run and the parallelism it will use."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from clusterbid.core.base import FrozenModel
from clusterbid.core.flops import attention_factor
from clusterbid.core.plan import ComputePlan
from clusterbid.core.provenance import (
    WORKLOAD_TRACKED_FIELDS,
    Source,
    completed_workload_provenance,
)
from clusterbid.core.recipe_fields import check_container_image
from clusterbid.core.stack_names import SoftwareStack
from clusterbid.core.workload_rules import MeasuredFit, check_layout

# Mixed-precision Adam keeps fp32 master weights (4 bytes) and two fp32 moments (8 bytes)
# per parameter beside the bf16 weights (2 bytes); that is what a checkpoint holds.
CHECKPOINT_BYTES_PER_PARAM = 14
OPTIMIZER_BYTES_PER_PARAM = 12
WEIGHT_BYTES_PER_PARAM = 2


class Workload(FrozenModel):
    """A training run: model size, tokens, planned job size and parallelism (shared by all bids)."""

    kind: Literal["training"] = "training"
    name: str = Field(min_length=1, max_length=200, description="What is being trained")
    total_params_billions: float = Field(gt=0, le=100_000, description="Total parameters, billions")
    active_params_billions: float = Field(
        gt=0,
        le=100_000,
        description="Parameters active per token, billions (= total for dense models)",
    )
    training_tokens_billions: float | None = Field(
        None, gt=0, le=1_000_000, description="Training tokens, billions (or give total_flops)"
    )
    total_flops: float | None = Field(
        None,
        gt=0,
        le=1e30,
        description="Total training FLOPs, counted as 6 x active params x tokens (the default); attention is added "
        "when the architecture is given",
    )
    job_gpus: int = Field(
        ge=1, le=1_000_000, description="Planned job size: GPUs in one synchronous job"
    )
    precision: Literal["bf16", "fp8"] = Field("bf16", description="Tensor precision of the matmuls")
    tensor_parallel: int = Field(
        1, ge=1, le=1024, description="TP degree (kept inside an NVLink domain)"
    )
    pipeline_parallel: int = Field(1, ge=1, le=1024, description="PP degree (pipeline stages)")
    context_parallel: int = Field(1, ge=1, le=1024, description="CP degree (sequence split)")
    virtual_pipeline_stages: int = Field(
        1, ge=1, le=64, description="Interleaved stages per GPU (1 = none)"
    )
    micro_batch_size: int = Field(1, ge=1, le=4096, description="Sequences per micro-batch")
    global_batch_tokens: int = Field(ge=1, le=10**10, description="Tokens per optimizer step")
    sequence_length: int = Field(ge=1, le=10**7, description="Tokens per sequence")
    baseline_mfu: float = Field(
        gt=0,
        le=0.85,
        description=(
            "MFU of the buyer's stack on compute alone (communication is modelled), fraction of "
            "dense peak"
        ),
    )
    baseline_flops_basis: Literal["model", "hardware"] = Field(
        "model",
        description=(
            "What baseline_mfu counts: model FLOPs (MFU) or hardware FLOPs with recomputation (HFU)"
        ),
    )
    baseline_hidden_size: int | None = Field(
        None,
        ge=64,
        le=1_000_000,
        description=(
            "Hidden size of the model baseline_mfu was measured on (empty: this workload's own)"
        ),
    )
    software_stack: SoftwareStack = Field(
        "not-stated",
        description=(
            "The training software that will run the job (issue 36): a stated stack keeps its "
            "published efficiency range; not stated widens the band by the spread across "
            "published stacks (resources/catalog/stacks.toml)"
        ),
    )
    num_layers: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="Transformer layers (with hidden_size: counts attention FLOPs and activations)",
    )
    hidden_size: int | None = Field(
        None, ge=64, le=1_000_000, description="Hidden size (model width)"
    )
    # Issue 39 item 5: the recipe's exact shape and software (checked in recipe_fields.py).
    num_attention_heads: int | None = Field(
        None, ge=1, le=4096, description="Attention heads (empty: hidden size / 128 is assumed)"
    )
    vocab_size: int | None = Field(
        None, ge=2, le=10_000_000, description="Tokenizer vocabulary (empty: 32,000 is assumed)"
    )
    container_image: str | None = Field(
        None,
        max_length=400,
        description="Container the benchmark runs in, pinned: name@sha256:<64 hex digits>",
    )
    activation_recomputation: Literal["none", "selective", "full"] = Field(
        "none",
        description=(
            "Activation recomputation: none, selective (attention only) or full (every layer)"
        ),
    )
    dp_comm_overlap: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Share of data-parallel communication hidden behind backward compute",
    )
    grad_bytes_per_param: Literal[2, 4] = Field(
        4,
        description=(
            "Bytes per gradient in the data-parallel reduction (4 = fp32, Megatron's bf16 default)"
        ),
    )
    distributed_optimizer: bool = Field(
        True, description="Optimizer state sharded across data-parallel ranks"
    )
    shard_parameters: bool = Field(
        False,
        description=(
            "ZeRO-3 / FSDP full shard: weights and gradients sharded too, weights gathered per "
            "micro-batch"
        ),
    )
    tp_comm_overlap: float = Field(
        0.0,
        ge=0,
        le=1,
        description=(
            "Share of tensor-parallel communication hidden behind matmuls (0 = Megatron default)"
        ),
    )
    expert_parallel: int = Field(
        1, ge=1, le=4096, description="Expert-parallel degree (mixture of experts; 1 = none)"
    )
    experts_per_token: int = Field(
        2, ge=1, le=64, description="Experts each token is routed to (top-k)"
    )
    num_experts: int | None = Field(
        None,
        ge=1,
        le=100_000,
        description="Routed experts per layer (mixture of experts; empty: not stated, "
        "the memory gate then splits over expert parallelism only the parameters no token uses, "
        "the cautious "
        "reading)",
    )
    memory_measured_to_fit: MeasuredFit | None = Field(
        None,
        description="This layout was measured to fit (GPU memory and where it is recorded): the activation "
        "gate then warns instead of refusing a bid whose GPUs hold at least as much",
    )
    checkpoint_interval_minutes: float = Field(
        60, gt=0, le=100_000, description="Minutes between checkpoints"
    )
    checkpoint_blocking_share: float = Field(
        1.0,
        ge=0,
        le=1,
        description="Share of the checkpoint write that stalls training (0 = fully async)",
    )
    restart_minutes: float = Field(
        15, ge=0, le=100_000, description="Minutes to restart after a failure"
    )
    plan: ComputePlan = Field(
        ComputePlan(), description="Start, deadline and the use of idle reserved time"
    )
    provenance: dict[str, Source] = Field(
        default_factory=dict,
        description="Where each input came from: the buyer's assumption or a default",
    )

    @model_validator(mode="after")
    def _check_consistency(self) -> Workload:
        check_layout(self)  # core/workload_rules.py: sizes and parallelism that fit together
        object.__setattr__(self, "container_image", check_container_image(self.container_image))
        unknown = sorted(set(self.provenance) - set(WORKLOAD_TRACKED_FIELDS))
        if unknown:
            raise ValueError(
                f"provenance names inputs that carry none: {', '.join(unknown)}; "
                f"known: {', '.join(WORKLOAD_TRACKED_FIELDS)}"
            )
        # Issue 14: the buyer's assumption or ClusterBid's default (migrates older documents).
        object.__setattr__(self, "provenance", completed_workload_provenance(self))
        return self

    def __hash__(self) -> int:
        # As Bid: the provenance dict is hashed as sorted pairs so workloads stay hashable.
        others = tuple(
            getattr(self, name) for name in type(self).model_fields if name != "provenance"
        )
        return hash((others, tuple(sorted(self.provenance.items()))))

    @property
    def data_parallel(self) -> int:
        """Data-parallel degree: job_gpus / (TP x PP x CP), checked to divide."""
        return self.job_gpus // (
            self.tensor_parallel * self.pipeline_parallel * self.context_parallel
        )

    @property
    def global_batch_sequences(self) -> int:
        return self.global_batch_tokens // self.sequence_length

    @property
    def micro_batches_per_step(self) -> int:
        """Micro-batches each pipeline runs per optimizer step (m in the bubble formula)."""
        return self.global_batch_sequences // (self.data_parallel * self.micro_batch_size)

    @property
    def attention_factor(self) -> float:
        """Model FLOPs over 6N: 1 + 12 l s h / 6N when the architecture is given (core/flops.py)."""
        active = self.active_params_billions * 1e9
        return attention_factor(active, self.num_layers, self.hidden_size, self.sequence_length)

    @property
    def total_training_flops(self) -> float:
        """Model FLOPs of the whole run: 6 x active params x tokens (or total_flops, counted the same
        way) x the attention factor."""
        if self.total_flops is not None:
            return self.total_flops * self.attention_factor
        return (
            6.0
            * self.active_params_billions
            * 1e9
            * self.training_tokens_billions
            * 1e9
            * self.attention_factor
        )

    def expert_params_billions(self) -> float:
        """Parameters in the routed experts, which expert parallelism splits across GPUs. With E
        experts of e parameters, top-k: total - active = (E - k) e, so the experts hold
        (total - active) x E / (E - k). Without E only the inactive share is certain to be
        experts (total - active): the smallest share, so memory is never understated."""
        inactive = self.total_params_billions - self.active_params_billions
        experts, k = self.num_experts, self.experts_per_token
        if experts is None or experts <= k:
            return inactive
        return min(inactive * experts / (experts - k), self.total_params_billions)

    def model_state_gb_per_gpu(self) -> float:
        """Weights, gradients and optimizer state per GPU, GB (activations not included). The
        experts are split over EP as well as TP and PP (Megatron-Core's expert parallelism, with
        the experts' tensor parallelism equal to the dense layers'); their data-parallel group,
        which shards their optimizer, is DP / EP."""
        model_parallel = self.tensor_parallel * self.pipeline_parallel
        experts = self.expert_params_billions()
        dense_shard = (self.total_params_billions - experts) * 1e9 / model_parallel
        expert_shard = experts * 1e9 / model_parallel / self.expert_parallel
        expert_dp = max(self.data_parallel // self.expert_parallel, 1)
        return (
            _state_bytes(self, dense_shard, self.data_parallel)
            + _state_bytes(self, expert_shard, expert_dp)
        ) / 1e9


def _state_bytes(workload: Workload, params_per_gpu: float, data_parallel: int) -> float:
    """Bytes of weights, gradients and optimizer state for `params_per_gpu` whose copies are
    sharded over `data_parallel` ranks as the workload's optimizer and FSDP settings say."""
    optimizer_share = (
        1 / data_parallel if workload.distributed_optimizer or workload.shard_parameters else 1
    )
    weights_share = 1 / data_parallel if workload.shard_parameters else 1
    per_param = (
        WEIGHT_BYTES_PER_PARAM + workload.grad_bytes_per_param
    ) * weights_share + OPTIMIZER_BYTES_PER_PARAM * optimizer_share
    return params_per_gpu * per_param
