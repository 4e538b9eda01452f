"""Which inputs move the winner's and the runner-up's cost to finish most, each moved +/-15%."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.uncertainty.model_inputs import ModelInputs, cost_and_hours, select

SWING = 0.15
# Input label -> the BidArrays column moved. Uptime is moved through its complement (the
# downtime the SLA allows): 99.9% +15% would be above 100%.
INPUTS = {
    "price per GPU-hour": "price_per_gpu_hour",
    "scale-out busbw": "node_busbw_gb_s",
    "baseline MFU": "baseline_mfu",
    "failure rate": "failures_per_gpu_hour",
    "node replacement hours": "node_replacement_hours",
    "checkpoint write throughput": "storage_write_gb_s",
    "SLA downtime": "uptime",
    "ring step latency": "step_latency_s",
    "burn-in hours": "burn_in_hours",
    "committed GPU-hours": "committed_gpu_hours",
    "one-off fees": "one_off_fees",
    "recurring fees": "recurring_fees_per_month",
}


@dataclass(frozen=True, slots=True)
class TornadoBar:
    label: str
    bid_id: str
    low_cost: float  # cost to finish with the input at -15%
    high_cost: float  # cost to finish with the input at +15%

    @property
    def swing(self) -> float:
        return abs(self.high_cost - self.low_cost)


def _moved(values: np.ndarray, column: str, factor: float) -> np.ndarray:
    if column == "uptime":
        return 1.0 - (1.0 - values) * factor
    return values * factor


def tornado(inputs: ModelInputs, bid_ids: list[str]) -> list[TornadoBar]:
    """Bars for the given bids (winner and runner-up), largest swing first; inputs that do not
    move the cost at all (e.g. no fees, no commitment) are left out."""
    bars = []
    for bid_id in bid_ids:
        one = select(inputs.arrays, [inputs.ids.index(bid_id)])
        for label, column in INPUTS.items():
            values = getattr(one, column)
            # Both directions in one run of the model: a column of two "bids".
            pair = select(one, [0, 0]).replace(
                **{
                    column: np.concatenate(
                        [_moved(values, column, 1.0 - SWING), _moved(values, column, 1.0 + SWING)]
                    )
                }
            )
            cost, _ = cost_and_hours(inputs.workload, pair)
            low, high = (float(v) for v in np.broadcast_to(cost, (2,)))
            if low != high:
                bars.append(TornadoBar(label, bid_id, low, high))
    return sorted(bars, key=lambda bar: -bar.swing)
