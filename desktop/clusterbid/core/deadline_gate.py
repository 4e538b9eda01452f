"""The deadline judged on the distribution (issue 31, item 6): a bid fails the deadline gate only
when the Monte Carlo puts its chance of finishing in time below the buyer's threshold
(plan.deadline_confidence). A point estimate that finishes late while enough draws finish in time
is a flagged risk, never an exclusion; without draws (a first paint, a memo without bands) the
point estimate's finish date is all there is, and it gates as before."""

from __future__ import annotations

import dataclasses
import math

from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.money import format_money
from clusterbid.core.plan import ComputePlan

POINT_GATE = "misses_deadline"
DRAWN_GATE = "deadline_unlikely"
RISK = "deadline_risk"


def judged_on_draws(
    estimate: BidEstimate, plan: ComputePlan, on_time: float | None, currency: str
) -> BidEstimate:
    """`estimate` with its deadline judged on `on_time`, the share of draws that finish in time
    (None: not drawn yet, so the point's gate is lifted to let the bid be drawn; nan: no deadline
    or no start date, nothing to judge)."""
    point_late = any(g.code == POINT_GATE for g in estimate.gates)
    gates = [g for g in estimate.gates if g.code != POINT_GATE]
    warnings = list(estimate.warnings)
    if on_time is not None and not math.isnan(on_time) and plan.deadline is not None:
        deadline, required = plan.deadline.isoformat(), plan.deadline_confidence
        finish = estimate.dates.finish.isoformat() if estimate.dates.finish else "an unknown date"
        delay = (
            f"; each day past it costs {format_money(float(plan.delay_cost_per_day), currency)}, "
            "counted in the net cost"
            if plan.delay_cost_per_day
            else ""
        )
        if on_time < required:
            gates.append(
                Finding(
                    DRAWN_GATE,
                    (
                        f"finishes by the deadline of {deadline} in only {on_time:.1%} of the "
                        "Monte Carlo draws, "
                        f"below the {required:.0%} the buyer requires (the plan's "
                        "deadline_confidence); the point "
                        f"estimate finishes on {finish}"
                    ),
                )
            )
        elif point_late:
            warnings.append(
                Finding(
                    RISK,
                    (
                        f"the point estimate finishes on {finish}, after the deadline of "
                        f"{deadline}, but "
                        f"{on_time:.1%} of the draws finish by it (the buyer requires "
                        f"{required:.0%}): ranked, "
                        f"a deadline risk{delay}"
                    ),
                )
            )
    return dataclasses.replace(estimate, gates=tuple(gates), warnings=tuple(warnings))
