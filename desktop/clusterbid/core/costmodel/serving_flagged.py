"""Serving evidence above the model's ceiling, shown both ways (issue 37): a real result that
reads as faster than the GPU's peak is never refused outright. It is kept and flagged with its
likely cause (serving_calibration), and the officer sees what the bid costs with it and without
it before deciding, as for suspect nccl-tests figures; the decision is recorded on the evidence
(`suspect_override`) by `serving-evidence attach --use-above-model REASON`."""

from __future__ import annotations

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import Catalog
from clusterbid.core.costmodel.serving import Fleet, fleet, replica_grid
from clusterbid.core.costmodel.serving_calibration import calibrate_serving
from clusterbid.core.costmodel.serving_inputs import (
    ServingArrays,
    ServingScalars,
    build_serving_arrays,
)
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.serving_workload import InferenceWorkload


def _costed(plan: Fleet, i: int, currency: str) -> str:
    if not plan.servable[i]:
        return "it cannot serve the workload"
    return (
        f"{currency} {plan.cost_per_million_tokens[i]:,.2f} per million output tokens on "
        f"{plan.gpus_billed[i]:,.0f} GPUs billed"
    )


def both_ways_notes(
    w: ServingScalars,
    spec: ServingArrays,
    costed: ServingArrays,
    plan: Fleet,
    bids: list[Bid],
    catalog: Catalog,
    currency: str,
) -> dict[int, str]:
    """For each bid whose serving figure is above the ceiling, a note with the cost the other way:
    with the figure when it is flagged and unused, without it when the officer chose to use it."""
    applied, used, _ = calibrate_serving(w, spec, bids, use_flagged=True, catalog=catalog)
    above = np.array(
        [
            used[i] is not None
            and max(applied.hbm_efficiency[i], applied.compute_efficiency[i]) > 1.0
            for i in range(len(bids))
        ],
        dtype=bool,
    )
    if not above.any():
        return {}
    accepted = np.array([e is not None and e.suspect_override is not None for e in used]) & above
    other = costed.replace(
        **{
            name: np.where(
                accepted,
                getattr(spec, name),
                np.where(above, getattr(applied, name), getattr(costed, name)),
            )
            for name in ("hbm_efficiency", "compute_efficiency")
        }
    )
    other_plan = fleet(w, other, replica_grid(w, other))
    notes = {}
    for i in map(int, np.flatnonzero(above)):
        if accepted[i]:
            notes[i] = (
                f"Both ways: with the figure {_costed(plan, i, currency)}; without it "
                f"{_costed(other_plan, i, currency)}"
            )
        else:
            notes[i] = (
                f"Both ways: as costed, without the figure, {_costed(plan, i, currency)}; with it "
                f"{_costed(other_plan, i, currency)}"
            )
    return notes


def ceiling_flag(
    workload: InferenceWorkload, bid: Bid, evidence: Evidence, catalog: Catalog
) -> str | None:
    """Why `evidence` on `bid` reads as more than the GPU's peak for this workload (the note the
    calibration prints, with its likely cause), or None when it does not."""
    alone = bid.model_copy(update={"evidence": (evidence,)})
    w = ServingScalars.from_workload(workload)
    spec = build_serving_arrays(workload, [alone], catalog, [1.0])
    _, used, notes = calibrate_serving(w, spec, [alone], catalog=catalog)
    return notes[0][0] if used[0] is None and notes[0] else None
