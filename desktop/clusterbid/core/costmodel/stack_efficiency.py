"""Per-stack efficiency factors and the spread an unstated stack leaves (issue 36 item 1).

A baseline MFU with no stack behind it could have come from any generation of software: the
published stacks in resources/catalog/stacks.toml reach 29% to 47% of the H100 BF16 peak, and
the published FP8 gains run from 1.25x to 1.75x (costmodel/fp8_published.py). An unstated stack
therefore keeps the buyer's figure as the point but widens the band to reach every published
figure (the lowest at P10, the highest at P90, a two-piece draw); a stated stack keeps only its
own published range, and its own FP8 gain replaces the published middle where it states one.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import get_args

from pydantic import BaseModel, ConfigDict, Field

from clusterbid.core.catalog import GpuSpec
from clusterbid.core.costmodel.fp8_published import (
    borrowed_fp8_gain,
    borrowed_fp8_words,
    published_fp8_range,
)
from clusterbid.core.costmodel.published_catalog import published_entries
from clusterbid.core.errors import InputError
from clusterbid.core.stack_names import NOT_STATED, SoftwareStack, stack_words
from clusterbid.core.workload import Workload

P90_Z = 1.2816  # a range's ends at P10 and P90 of a log-normal


class StackSpec(BaseModel):
    """One software stack's published efficiency, with its source."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    id: str
    name: str = Field(min_length=3)
    h100_bf16_mfu: tuple[float, float] = Field(
        description="Published MFU of the BF16 dense peak on H100 SXM, low and high"
    )
    fp8_speedup_over_bf16: float | None = Field(None, gt=0.5, le=2.5)
    runs_fp8: bool = Field(True, description="False: the stack cannot train in FP8")
    fp8_source: str | None = Field(None, min_length=10)
    source: str = Field(min_length=10)

    @property
    def own_sigma(self) -> float:
        """Log-space sigma that puts the stack's published low and high at P10 and P90."""
        low, high = self.h100_bf16_mfu
        return math.log(high / low) / (2 * P90_Z)


def _check_stack(spec: StackSpec, file_name: str) -> None:
    low, high = spec.h100_bf16_mfu
    if not 0 < low <= high <= 0.85:
        raise InputError(
            f"{file_name} [[stack]] {spec.id}: h100_bf16_mfu must be 0 < low <= high <= 0.85"
        )
    if not spec.runs_fp8 and (spec.fp8_source is None or spec.fp8_speedup_over_bf16):
        raise InputError(
            f"{file_name} [[stack]] {spec.id}: runs_fp8 = false needs an fp8_source and no "
            "fp8_speedup_over_bf16"
        )


@lru_cache(maxsize=1)
def stack_catalog() -> dict[str, StackSpec]:
    """Every published stack by id; refuses a file whose ids differ from the workload's choices."""
    choices = set(get_args(SoftwareStack)) - {NOT_STATED}
    return published_entries("stacks.toml", "stack", StackSpec, choices, _check_stack)


def fp8_gain(stack: str, gpu: GpuSpec) -> tuple[float, str]:
    """FP8 throughput over BF16 for this stack on this GPU, and whose figure it is."""
    spec = stack_catalog().get(stack)
    if spec is not None and spec.fp8_speedup_over_bf16 is not None:
        return spec.fp8_speedup_over_bf16, f"the stack's own ({spec.source})"
    if spec is not None and not spec.runs_fp8:  # stated, yet it has no FP8 path: never silent
        return borrowed_fp8_gain(), (
            f"{borrowed_fp8_words()}; but the stack stated cannot train in FP8 ({spec.fp8_source}): "
            "the job would run in BF16 on it, so state the stack or the precision it will use"
        )
    # Not the GPU's catalog figure: that is one stack's small-model gain (llm-foundry's 1.31x on
    # a 3B model), the lowest end of what is published, not a known figure for this job.
    return borrowed_fp8_gain(), borrowed_fp8_words()


def mfu_factor(stack: str, gpu: GpuSpec, precision: str) -> float:
    """Multiplier from the workload's baseline MFU (BF16 on H100) to this GPU and precision:
    the catalog's GPU factor, with the stated stack's own FP8 gain where it publishes one and the
    middle of the published gains where it does not."""
    if precision == "bf16" or gpu.dense_fp8_tflops is None:
        return gpu.mfu_factor(precision)
    peak_ratio = gpu.dense_fp8_tflops / gpu.dense_bf16_tflops
    return gpu.bf16_mfu_vs_h100 * fp8_gain(stack, gpu)[0] / peak_ratio


def _spread(values: list[float]) -> float:
    """Log-space sigma that puts a published range's ends at P10 and P90."""
    return math.log(max(values) / min(values)) / (2 * P90_Z)


def _reach(values: list[float], point: float) -> tuple[float, float]:
    """(down, up) log-space sigmas that put the lowest published value at P10 and the highest at
    P90 of a band whose median is `point`: a two-piece draw that reaches every published figure
    on its own side and no further (a point outside the range has nothing to reach beyond it)."""
    low, high = min(values), max(values)
    return max(math.log(point / low), 0.0) / P90_Z, max(math.log(high / point), 0.0) / P90_Z


def baseline_sigma(stack: str) -> float:
    """The spread of a stack's published range, ends at P10 and P90: its own when stated, every
    published stack's when not (documented, not fitted)."""
    stacks = stack_catalog()
    if stack in stacks:
        return stacks[stack].own_sigma
    return _spread([value for spec in stacks.values() for value in spec.h100_bf16_mfu])


def candidate_stacks(precision: str = "bf16") -> list[StackSpec]:
    """The published stacks an unstated stack could be: for an FP8 job, only those that can train
    in FP8 (a 2021 Megatron could not: no Transformer Engine yet, stacks.toml runs_fp8)."""
    return [s for s in stack_catalog().values() if precision != "fp8" or s.runs_fp8]


def baseline_reach(stack: str, buyer_mfu: float, precision: str = "bf16") -> tuple[float, float]:
    """The doubt a stack adds to the baseline MFU, shared by every bid, as (down, up) sigmas: a
    stated stack's own range, symmetric; an unstated one reaches from the buyer's figure
    (`buyer_mfu`, MFU of the H100 BF16 peak) down to the lowest published stack at P10 and up to
    the highest at P90 (for FP8, among the stacks that can run it). A symmetric spread of the
    range's width, centred on a buyer's figure near its top, put BLOOM's 28.8% at P2 of a 42.6%
    baseline and drew stacks faster than any published one."""
    stacks = stack_catalog()
    if stack in stacks:
        return stacks[stack].own_sigma, stacks[stack].own_sigma
    published = [value for spec in candidate_stacks(precision) for value in spec.h100_bf16_mfu]
    return _reach(published, buyer_mfu)


def gain_follows_stack() -> bool:
    """Whether the published stacks rank the same on BF16 reach and FP8 gain (llm-foundry 42.6%
    and 1.31x below NeMo's 41-47% and 1.75x, stacks.toml): then an unstated stack's gain is drawn
    with its reach, one draw for both, rather than as an independent piece. Read from the catalog,
    so a stack published against that order turns the coupling off instead of being forced in."""
    both = sorted(
        (sum(s.h100_bf16_mfu), s.fp8_speedup_over_bf16)
        for s in stack_catalog().values()
        if s.fp8_speedup_over_bf16 is not None
    )
    gains = [gain for _, gain in both]
    return len(both) >= 2 and gains == sorted(gains)


def fp8_gain_reach(stack: str, gpu: GpuSpec, precision: str) -> tuple[float, float]:
    """The doubt about the FP8 gain on this GPU, (down, up): none when the stated stack publishes
    its own gain; when the stack is not stated or publishes none, from the gain the point uses
    (the middle of the published range) to the lowest published gain at P10 and the highest at
    P90 (resources/catalog/stacks.toml [[fp8_gain]])."""
    if precision != "fp8" or gpu.dense_fp8_tflops is None:
        return 0.0, 0.0
    spec = stack_catalog().get(stack)
    if spec is not None and spec.fp8_speedup_over_bf16 is not None:
        return 0.0, 0.0
    return _reach(list(published_fp8_range()), borrowed_fp8_gain())


def stated_model_mfu(workload: Workload, hardware_flops_ratio: float) -> float:
    """The buyer's baseline as MFU (a hardware-FLOPs figure divided by the workload's
    recomputation ratio, WorkloadScalars.hardware_flops_ratio), at the width it was measured on:
    the figure the published stacks are compared with."""
    hardware = workload.baseline_flops_basis == "hardware"
    return workload.baseline_mfu / (hardware_flops_ratio if hardware else 1.0)


def stack_assumption(workload: Workload) -> tuple[str, str]:
    """The memo's Software stack line: the stack in words, whose statement it is, and what it
    does to the band (labelled the buyer's statement or the default, never the provider's)."""
    stack = workload.software_stack
    source = workload.provenance["software_stack"]
    said = "the buyer's statement" if source.kind == "assumption" else "ClusterBid's default"
    if stack == NOT_STATED:
        candidates = candidate_stacks(workload.precision)
        published = [v for spec in candidates for v in spec.h100_bf16_mfu]
        fp8 = " that can train in FP8" if len(candidates) < len(stack_catalog()) else ""
        return (
            f"{stack_words(stack)} ({said})",
            f"the baseline MFU could come from any published stack{fp8}, "
            f"{min(published):.0%}-{max(published):.0%} of the H100 BF16 peak "
            "(methodology sections 2 and 7): the bands are widened by that spread; state the "
            "stack to narrow them",
        )
    spec = stack_catalog()[stack]
    low, high = spec.h100_bf16_mfu
    reach = f"{low:.0%}" if low == high else f"{low:.0%}-{high:.0%}"
    return (
        f"{stack_words(stack)} ({said})",
        f"published at {reach} of the H100 BF16 peak, the band kept to that range: {spec.source}",
    )


def baseline_mfu_words(workload: Workload) -> str:
    """The memo's Baseline MFU line: the buyer's figure (one NVLink domain, said in the
    methodology) and the stack behind it, stated or not (not stated: the band carries the spread
    of the published stacks instead of a guess). Short: it shares page 1 with the decision."""
    if workload.software_stack == NOT_STATED:
        return f"{workload.baseline_mfu:.1%} (buyer's; stack not stated: band widened)"
    return f"{workload.baseline_mfu:.1%} (buyer's, on {stack_words(workload.software_stack)})"
