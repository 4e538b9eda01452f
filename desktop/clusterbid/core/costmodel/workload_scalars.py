"""The workload as the scalars the cost model runs on (the same for every bid): its FLOPs, layout
and memory, the baseline MFU under the stated software stack, and the buyer's plan for idle time."""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.costmodel.contract import IDLE_CODES, IdlePlan
from clusterbid.core.costmodel.payment_terms import plan_baseline_days, plan_rate
from clusterbid.core.flops import (
    activation_gb_per_gpu,
    attention_factor,
    hardware_flops_ratio,
    width_factor,
)
from clusterbid.core.workload import CHECKPOINT_BYTES_PER_PARAM, Workload


@dataclass(frozen=True, slots=True)
class WorkloadScalars:
    """The workload as plain floats, shared by every bid."""

    active_params: float
    total_params: float
    total_flops: (
        float  # model FLOPs of the whole run, attention included when the architecture is given
    )
    model_flops_per_token: float  # 6N x the attention factor
    attention_factor: float  # model FLOPs / 6N
    hardware_flops_ratio: float  # executed FLOPs / model FLOPs (recomputation): HFU = MFU x this
    width_factor: (
        float  # efficiency at this model's width / at the width the baseline was measured on
    )
    job_gpus: int
    tp: int
    pp: int
    cp: int
    virtual_stages: int
    micro_batch_size: int
    sequence_length: int
    global_batch_sequences: int
    batch_tokens: float
    dp_comm_overlap: float
    grad_bytes_per_rank_at_mp: float  # gradient bytes each rank all-reduces
    checkpoint_bytes: float
    checkpoint_interval_s: float
    checkpoint_blocking_share: float
    restart_hours: float
    baseline_mfu: float
    model_state_gb_per_gpu: float
    activation_gb_per_gpu: float | None  # None: the architecture is not given
    recomputation: str
    num_layers: int | None
    hidden_size: int | None
    shard_parameters: bool
    tp_comm_overlap: float
    expert_parallel: int
    experts_per_token: int
    measured_fit_hbm_gb: float | None  # the layout was measured to fit on GPUs of this much HBM
    measured_fit_reference: str | None
    idle: IdlePlan  # what the buyer does with reserved time the job leaves idle (contract.py)

    @classmethod
    def from_workload(cls, workload: Workload) -> WorkloadScalars:
        tp, pp = workload.tensor_parallel, workload.pipeline_parallel
        total_params = workload.total_params_billions * 1e9
        active = workload.active_params_billions * 1e9
        layers, hidden, seq = workload.num_layers, workload.hidden_size, workload.sequence_length
        attention = attention_factor(active, layers, hidden, seq)
        hardware = hardware_flops_ratio(
            workload.activation_recomputation, active, layers, hidden, seq
        )
        return cls(
            active_params=active,
            total_params=total_params,
            total_flops=workload.total_training_flops,
            model_flops_per_token=6.0 * active * attention,
            attention_factor=attention,
            hardware_flops_ratio=hardware,
            width_factor=width_factor(hidden, workload.baseline_hidden_size),
            job_gpus=workload.job_gpus,
            tp=tp,
            pp=pp,
            cp=workload.context_parallel,
            virtual_stages=workload.virtual_pipeline_stages,
            micro_batch_size=workload.micro_batch_size,
            sequence_length=seq,
            global_batch_sequences=workload.global_batch_sequences,
            batch_tokens=float(workload.global_batch_tokens),
            dp_comm_overlap=workload.dp_comm_overlap,
            grad_bytes_per_rank_at_mp=total_params / (tp * pp) * workload.grad_bytes_per_param,
            checkpoint_bytes=total_params * CHECKPOINT_BYTES_PER_PARAM,
            checkpoint_interval_s=workload.checkpoint_interval_minutes * 60.0,
            checkpoint_blocking_share=workload.checkpoint_blocking_share,
            restart_hours=workload.restart_minutes / 60.0,
            baseline_mfu=baseline_model_mfu(workload),
            model_state_gb_per_gpu=workload.model_state_gb_per_gpu(),
            activation_gb_per_gpu=activation_gb_per_gpu(
                layers=layers,
                hidden=hidden,
                seq_len=seq,
                micro_batch=workload.micro_batch_size,
                tp=tp,
                cp=workload.context_parallel,
                pp=pp,
                virtual_stages=workload.virtual_pipeline_stages,
                micro_batches=workload.micro_batches_per_step,
                recomputation=workload.activation_recomputation,
            ),
            recomputation=workload.activation_recomputation,
            num_layers=layers,
            hidden_size=hidden,
            shard_parameters=workload.shard_parameters,
            tp_comm_overlap=workload.tp_comm_overlap,
            expert_parallel=workload.expert_parallel,
            experts_per_token=workload.experts_per_token,
            measured_fit_hbm_gb=None
            if workload.memory_measured_to_fit is None
            else workload.memory_measured_to_fit.hbm_gb,
            measured_fit_reference=None
            if workload.memory_measured_to_fit is None
            else workload.memory_measured_to_fit.reference,
            idle=idle_plan(workload),
        )


def idle_plan(workload: Workload) -> IdlePlan:
    """The plan's use of idle time as floats: no further runs stated is none (issue 31)."""
    plan = workload.plan
    alternative = plan.alternative_price_per_gpu_hour
    return IdlePlan(
        use=IDLE_CODES[plan.idle_use],
        value_per_gpu_hour=float(plan.idle_value_per_gpu_hour or 0),
        further_runs=float(plan.further_runs or 0),
        alternative_price=float("inf") if alternative is None else float(alternative),
        decline_per_year=plan.alternative_price_decline_percent_per_year / 100.0,
        delay_cost_per_hour=float(plan.delay_cost_per_day or 0) / 24.0,
        capital_rate=plan_rate(plan),
        baseline_payment_days=plan_baseline_days(plan),
    )


def baseline_model_mfu(workload: Workload) -> float:
    """The workload's baseline efficiency as MFU on its own model: a figure stated on hardware
    FLOPs (HFU, with the workload's recomputation) is divided by the recomputation ratio, and a
    figure measured on a model of another width is carried to this one's (flops.width_factor)."""
    active = workload.active_params_billions * 1e9
    layers, hidden, seq = workload.num_layers, workload.hidden_size, workload.sequence_length
    ratio = hardware_flops_ratio(workload.activation_recomputation, active, layers, hidden, seq)
    stated = workload.baseline_mfu / (ratio if workload.baseline_flops_basis == "hardware" else 1.0)
    return stated * width_factor(hidden, workload.baseline_hidden_size)
