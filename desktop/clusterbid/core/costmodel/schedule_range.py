"""What an unstated pipeline schedule could change (issue 36 item 4).

The interleave depth v (virtual pipeline stages) is rarely published, yet it moves a pipelined
job's step time: the bubble (pp-1)/(v m + pp-1) shrinks with v while the point-to-point
transfers, 2 per micro-batch and virtual stage, grow with it. When the workload does not state
v, the model runs the best schedule the layout allows (Megatron-LM needs the layers to divide
into pp x v stages, and its interleaved schedule the micro-batches per step into multiples of
pp) and says so, flagged as assumed, with how far the step time moves over the others; the
Monte Carlo draws the distance to Megatron's default (no interleaving) as doubt about the bid's
compute time. An unstated micro-batch keeps 1: in this model the smallest is the fastest (the
most micro-batches, so the least bubble) and needs the least activation memory.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.inputs import WorkloadScalars, build_bid_arrays
from clusterbid.core.costmodel.training import step_breakdown
from clusterbid.core.workload import Workload

MAX_INTERLEAVE = 64  # the workload's own bound on virtual_pipeline_stages
P90_Z = 1.2816


@dataclass(frozen=True, slots=True)
class ScheduleRange:
    """Step time of one bid (spec figures, before evidence) at each feasible interleave depth."""

    stated: bool
    assumed: int
    step_s_by_interleave: dict[int, float]

    @property
    def fastest(self) -> int:
        return min(self.step_s_by_interleave, key=lambda v: self.step_s_by_interleave[v])

    def change_against_assumed(self, v: int) -> float:
        """The step time at v over the step time at the assumed depth, less one."""
        return self.step_s_by_interleave[v] / self.step_s_by_interleave[self.assumed] - 1.0


def interleave_stated(workload: Workload) -> bool:
    return workload.pipeline_parallel == 1 or "virtual_pipeline_stages" in workload.model_fields_set


def feasible_interleaves(workload: Workload) -> list[int]:
    """Depths the layout allows: each of the pp stages splits its layers into v equal chunks.
    Without the layer count only the depth the workload holds is known to fit."""
    layers, pp = workload.num_layers, workload.pipeline_parallel
    if pp == 1 or layers is None or layers % pp:
        return [workload.virtual_pipeline_stages]
    per_stage = layers // pp
    if workload.micro_batches_per_step % pp:
        return [1]  # Megatron-LM's interleaved schedule needs a multiple of pp micro-batches
    return [v for v in range(1, min(per_stage, MAX_INTERLEAVE) + 1) if per_stage % v == 0]


def _step_times(workload: Workload, bids: tuple[Bid, ...], v: int) -> list[float]:
    at_v = workload.model_copy(update={"virtual_pipeline_stages": v})
    arrays = build_bid_arrays(at_v, list(bids), default_catalog(), [1.0] * len(bids))
    w = WorkloadScalars.from_workload(at_v)
    return [float(x) for x in step_breakdown(w, arrays, w.job_gpus).step_s]


def best_interleave(workload: Workload, bids: tuple[Bid, ...]) -> int:
    """The depth the model runs when the workload does not state one: the feasible depth with
    the shortest step time over the bids (geometric mean, spec figures), the schedule a team
    would tune to; the stated depth when there is one."""
    # Whether v is stated is part of the key: equal workloads may differ only in that.
    return _best_interleave(workload, bids, interleave_stated(workload))


@lru_cache(maxsize=64)
def _best_interleave(workload: Workload, bids: tuple[Bid, ...], stated: bool) -> int:
    depths = feasible_interleaves(workload)
    if stated or len(depths) < 2 or not bids:
        return workload.virtual_pipeline_stages

    def mean_log_step(v: int) -> float:
        return sum(math.log(t) for t in _step_times(workload, bids, v)) / len(bids)

    return min(depths, key=mean_log_step)


def scheduled(workload: Workload, bids: list[Bid] | tuple[Bid, ...]) -> Workload:
    """The workload as the model runs it: an unstated interleave depth set to the best one."""
    v = best_interleave(workload, tuple(bids))
    if v == workload.virtual_pipeline_stages:
        return workload
    return workload.model_copy(update={"virtual_pipeline_stages": v})


def schedule_sigma(workload: Workload, bid: Bid, ran: int) -> float:
    """The Monte Carlo's doubt about an assumed schedule, log-space: the distance from the depth
    the estimate ran to Megatron's default (no interleaving) put at P90 of the bid's step time."""
    found = schedule_range(workload, bid)
    steps = found.step_s_by_interleave
    if found.stated or len(steps) < 2 or ran not in steps:
        return 0.0
    return abs(math.log(steps[1] / steps[ran])) / P90_Z


def schedule_range(workload: Workload, bid: Bid) -> ScheduleRange:
    """The bid's step time at every feasible interleave depth, from the spec figures."""
    steps = {v: _step_times(workload, (bid,), v)[0] for v in feasible_interleaves(workload)}
    stated = interleave_stated(workload)
    assumed = workload.virtual_pipeline_stages if stated else min(steps, key=steps.__getitem__)
    return ScheduleRange(stated, assumed, steps)


def schedule_words(workload: Workload, bid: Bid, ran: int | None = None) -> tuple[str, str] | None:
    """The Pipeline schedule assumption's value and source, or None when v is stated or no
    other depth is feasible; `ran`: the depth the estimate ran (the best over all the bids)."""
    found = schedule_range(workload, bid)
    if found.stated or len(found.step_s_by_interleave) < 2:
        return None
    if ran is not None and ran in found.step_s_by_interleave:
        found = ScheduleRange(False, ran, found.step_s_by_interleave)
    changes = {v: found.change_against_assumed(v) for v in found.step_s_by_interleave}
    depths = ", ".join(str(v) for v in found.step_s_by_interleave)
    return (
        f"interleave {found.assumed}, micro-batch {workload.micro_batch_size} (assumed: the "
        "best schedule the layout allows; the workload does not state it)",
        f"the layout allows {depths}; over them this bid's step time moves "
        f"{min(changes.values()):+.1%} to "
        f"{max(changes.values()):+.1%}, drawn in the bands up to no interleaving; state the "
        "framework's interleave and micro-batch to remove the doubt",
    )
