"""The frontier, not a point (issue 37): for each bid, at the tensor-parallel degree it was
costed at, throughput per GPU against interactivity (output tokens per second each user sees,
1 / time per output token) and time to first token, over every batch that fits HBM. The cost
the ranking uses is read where the curve meets the buyer's targets (the point estimate); the
curve shows what a looser or tighter target would buy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.catalog import Catalog, default_catalog
from clusterbid.core.costmodel.serving import replica_grid
from clusterbid.core.costmodel.serving_calibration import calibrate_serving
from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays


@dataclass(frozen=True, slots=True)
class Frontier:
    """One bid's curve at its costed degree, batch sizes ascending (empty: it cannot serve)."""

    bid_id: str
    tensor_parallel: int | None
    batches: np.ndarray
    tokens_per_s_per_gpu: np.ndarray
    tokens_per_s_per_user: np.ndarray  # 1 / time per output token
    ttft_ms: np.ndarray
    within_targets: np.ndarray  # bool: time per output token and first token both met
    chosen_batch: int | None  # the batch the fleet was sized at


def serving_frontiers(
    estimates: ServingEstimates, catalog: Catalog | None = None
) -> tuple[Frontier, ...]:
    """Each bid's frontier on the efficiencies it was costed with (its evidence included)."""
    catalog = catalog or default_catalog()
    workload = estimates.workload
    bids = [e.bid for e in estimates.bids]
    rates = [e.exchange_rate for e in estimates.bids]
    w = ServingScalars.from_workload(workload)
    arrays, _, _ = calibrate_serving(
        w, build_serving_arrays(workload, bids, catalog, rates), bids, catalog=catalog
    )
    grid = replica_grid(w, arrays)
    frontiers = []
    for i, e in enumerate(estimates.bids):
        if e.tensor_parallel is None:
            empty = np.zeros(0)
            frontiers.append(
                Frontier(e.bid.id, None, empty, empty, empty, empty, empty.astype(bool), None)
            )
            continue
        t = w.tp_choices.index(e.tensor_parallel)
        fits = grid.fits_hbm[i, t] & grid.placeable[i, t]
        batches = np.flatnonzero(fits) + 1
        tpot = grid.tpot_s[i, t][fits]
        frontiers.append(
            Frontier(
                bid_id=e.bid.id,
                tensor_parallel=e.tensor_parallel,
                batches=batches,
                tokens_per_s_per_gpu=grid.tokens_per_s[i, t][fits] / e.tensor_parallel,
                tokens_per_s_per_user=1.0 / tpot,
                ttft_ms=np.broadcast_to(grid.ttft_s[i, t], fits.shape)[fits] * 1000.0,
                within_targets=grid.feasible[i, t][fits],
                chosen_batch=e.batch,
            )
        )
    return tuple(frontiers)
