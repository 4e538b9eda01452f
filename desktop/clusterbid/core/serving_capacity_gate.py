"""A serving bid judged on its draws (issue 37, as training's deadline on its draws in
deadline_gate.py): a bid that can carry the workload within its targets with the GPUs it offers
in fewer of the Monte Carlo draws than the share the fleet for approval is sized at (the
workload's fleet_percentile, P80 by default) fails a gate. The share is counted over the first
pass of draws, which every run makes (serving_montecarlo.draw_serving's `judge`): over all the
draws it moved with the default run's stop, which the other bids decide.

Without it such a bid ranked on its mean over the draws it can serve, which are its fast ones:
one serving 52% of the draws ranked first on the cheaper half of its own distribution, while in
the other half the buyer would have had no fleet at all. One that serves in most draws but not
all stays ranked, its share said beside its band ("meets the targets in 90%").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.costmodel.serving_estimate import ServingEstimate

CAPACITY_GATE = "capacity_unlikely"


def judged_on_capacity(
    estimates: Sequence[ServingEstimate], servable: Mapping[str, float], fleet_percentile: int
) -> tuple[ServingEstimate, ...]:
    """`estimates` with a gate on each passing bid whose share of draws it can serve
    (`servable`, bid id -> share) is below `fleet_percentile` percent."""
    required = fleet_percentile / 100
    judged = []
    for estimate in estimates:
        share = servable.get(estimate.bid.id)
        if estimate.passes_gates and share is not None and share < required:
            gpus = estimate.bid.capacity.gpus_offered
            finding = Finding(
                CAPACITY_GATE,
                f"the {gpus:,} GPUs offered carry the workload within its targets in only "
                f"{share:.0%} of the Monte Carlo draws, below the {required:.0%} the fleet for "
                "approval is sized at (the workload's fleet_percentile): ask the provider for "
                "more GPUs, or for a benchmark that narrows its throughput",
            )
            estimate = dataclasses.replace(estimate, gates=(*estimate.gates, finding))
        judged.append(estimate)
    return tuple(judged)
