"""The failure rate and the node replacement time as the serving bands draw them (issue 37).

Drawn exactly as training's Monte Carlo draws them (spreads.failure_rate_input and
replacement_hours_input): each a log-normal multiplier on the bid's figure, centred on it. The
failure rate's part for the GPU type (a generation's fleet-wide behaviour) is one draw shared by
every bid on that GPU, the rest the bid's own; each part comes from its own stream of common
random numbers (streams.py: seed, owner, input), so editing one bid never moves another's draws
and two bids on one GPU type see one fleet-wide shock.

In serving they move one figure: the SLA credit the buyer can expect to claim, a share of the
month's bill (serving_sla_credit, through training's sla_credits: P(a node's month breaches) from
the drawn rate and repair time). The fleet and the monthly bill do not depend on them: the spare
replicas carry a failed one. That a failure at the peak hour can take down more replicas than the
spares (a node holds several) is not modelled; the methodology says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.serving_sla_credit import sla_columns
from clusterbid.core.costmodel.sla_credit import sla_credits
from clusterbid.core.uncertainty.spreads import (
    Spreads,
    UncertainInput,
    failure_rate_input,
    replacement_hours_input,
)
from clusterbid.core.uncertainty.streams import stream


def reliability_factors(
    bids: Sequence[Bid], samples: int, seed: int, spreads: Spreads | None = None
) -> dict[str, np.ndarray]:
    """The multiplier on each bid's failure rate and replacement hours, each (bids, samples):
    median x exp(own sigma x z_bid + shared sigma x z_gpu), as training's _factors."""
    spreads = spreads or Spreads()
    shared: dict[tuple[str, str], np.ndarray] = {}
    factors: dict[str, list[np.ndarray]] = {"failure_rate": [], "replacement_hours": []}
    for bid in bids:
        drawn: tuple[UncertainInput, ...] = (
            failure_rate_input(bid, spreads),
            replacement_hours_input(bid, spreads),
        )
        for put in drawn:
            z = put.sigma * stream(seed, bid.id, put.name).standard_normal(samples)
            for owner, sigma in put.shared_streams:
                if (put.name, owner) not in shared:
                    shared[put.name, owner] = stream(seed, owner, put.name).standard_normal(samples)
                z = z + sigma * shared[put.name, owner]
            factors[put.name].append(put.median_factor * np.exp(z))
    return {
        name: np.asarray(rows, dtype=float).reshape(len(bids), samples)
        for name, rows in factors.items()
    }


def credit_share_draws(
    bids: Sequence[Bid], samples: int, seed: int, spreads: Spreads | None = None
) -> np.ndarray:
    """(bids, samples): each draw's expected claimable SLA credit as a share of the month's bill,
    the point estimate's share (serving_sla_credit.sla_credit_shares) with its failure rate and
    repair time drawn."""
    factors = reliability_factors(bids, samples, seed, spreads)
    shares = np.zeros((len(bids), samples))
    for i, bid in enumerate(bids):
        columns = sla_columns(bid)
        drawn = replace(
            columns,
            failures_per_gpu_hour=columns.failures_per_gpu_hour * factors["failure_rate"][i],
            node_replacement_hours=columns.node_replacement_hours * factors["replacement_hours"][i],
        )
        shares[i] = sla_credits(drawn, np.ones(samples))[0]
    return shares
