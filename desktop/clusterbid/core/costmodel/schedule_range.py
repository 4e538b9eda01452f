"""What an unstated pipeline schedule could change (issue 36 item 4, in part).

The interleave depth v (virtual pipeline stages) is rarely published, yet it moves a pipelined
job's step time: the bubble (pp-1)/(v m + pp-1) shrinks with v while the point-to-point
transfers, 2 per micro-batch and virtual stage, grow with it. When the workload does not state
v, the model keeps its default (1, no interleaving) and says so, with how far the step time
moves over every schedule the layout allows (Megatron-LM needs the layers to divide into pp x v
stages), so the officer sees the doubt instead of a silent choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.inputs import WorkloadScalars, build_bid_arrays
from clusterbid.core.costmodel.training import step_breakdown
from clusterbid.core.workload import Workload

MAX_INTERLEAVE = 64  # the workload's own bound on virtual_pipeline_stages


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
    return [v for v in range(1, min(per_stage, MAX_INTERLEAVE) + 1) if per_stage % v == 0]


def schedule_range(workload: Workload, bid: Bid) -> ScheduleRange:
    """The bid's step time at every feasible interleave depth, from the spec figures."""
    catalog = default_catalog()
    steps = {}
    for v in feasible_interleaves(workload):
        at_v = workload.model_copy(update={"virtual_pipeline_stages": v})
        arrays = build_bid_arrays(at_v, [bid], catalog, [1.0])
        w = WorkloadScalars.from_workload(at_v)
        steps[v] = float(step_breakdown(w, arrays, w.job_gpus).step_s[0])
    return ScheduleRange(interleave_stated(workload), workload.virtual_pipeline_stages, steps)


def schedule_words(workload: Workload, bid: Bid) -> tuple[str, str] | None:
    """The Pipeline schedule assumption's value and source, or None when v is stated or no
    other depth is feasible."""
    found = schedule_range(workload, bid)
    if found.stated or len(found.step_s_by_interleave) < 2:
        return None
    changes = {v: found.change_against_assumed(v) for v in found.step_s_by_interleave}
    depths = ", ".join(str(v) for v in found.step_s_by_interleave)
    return (
        f"interleave {found.assumed} (assumed: the workload does not state it)",
        f"the layout allows {depths}; over them this bid's step time moves "
        f"{min(changes.values()):+.1%} to "
        f"{max(changes.values()):+.1%} (fastest: {found.fastest}); state the framework's "
        "interleave to remove "
        "the doubt",
    )
