"""What the serving Monte Carlo searches in each draw (issue 37): the point estimate searches every
tensor-parallel degree and all 1,024 batch sizes for each bid; 20,000 draws of that grid (7 x
1,024 cells per bid) would take about 80 CPU seconds on the demo, against 1.6 for the 400 draws
it used to run. Each draw searches instead, for each bid, the degree it chose at the point
estimate with its half and double (every degree for a bid that could not serve) (a draw of lower
efficiency can make the next wider replica cheaper: on the demo, leaving the doubles out moved a
P90 by 10%) and 48 batch sizes spread evenly in log-space from 1 to 1,024, plus the bid's chosen
batch. Because each bid's own choice is in the search, a draw at the point's efficiencies costs
exactly the point estimate; a draw can only miss a fleet that a degree or a batch outside the
search would make cheaper, so the bands lean, if anything, to the dear side.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from clusterbid.core.costmodel.serving import MAX_BATCH, replica_grid
from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars

SEARCHED_BATCHES = 48


def search(
    w: ServingScalars, estimates: ServingEstimates
) -> tuple[ServingScalars, np.ndarray, np.ndarray]:
    """(the workload's scalars with the degrees searched, the batch sizes searched, and per bid
    which (degree, batch) cells are its own to search, shape (bids, degrees, batches)). Each bid
    searches only around its own choice, so adding or editing a bid never moves another's band."""
    spread = np.unique(np.round(np.geomspace(1, MAX_BATCH, SEARCHED_BATCHES)))
    own_degrees = [
        {
            t
            for t in w.tp_choices
            if e.tensor_parallel is not None and e.tensor_parallel in (t, 2 * t, t // 2)
        }
        or set(w.tp_choices)
        for e in estimates.bids
    ]
    degrees = tuple(t for t in w.tp_choices if any(t in own for own in own_degrees))
    chosen_batches = [float(e.batch) for e in estimates.bids if e.batch is not None]
    batches = np.unique(np.concatenate([spread, np.asarray(chosen_batches, dtype=float)]))
    allowed = np.zeros((len(estimates.bids), len(degrees), len(batches)), dtype=bool)
    for i, e in enumerate(estimates.bids):
        on_spread = np.isin(batches, spread) | (batches == (e.batch or 0))
        allowed[i] = (
            np.isin(np.asarray(degrees), list(own_degrees[i]))[:, None] & on_spread[None, :]
        )
    return replace(w, tp_choices=degrees), batches, allowed


def reachable(
    w: ServingScalars, base: ServingArrays, batches: np.ndarray, allowed: np.ndarray
) -> tuple[np.ndarray, ServingScalars, np.ndarray, np.ndarray]:
    """What some draw can reach: (which bids, shape (bids,); the scalars with the degrees kept; the
    batches kept; `allowed` for the kept bids, degrees and batches). A draw's efficiencies are
    capped at max(point figure, 1) and a replica's step only shortens as they rise, while its fit
    in HBM and on the offer do not depend on them; so a cell outside the targets at the caps is
    outside them in every draw and is left out (a bid with no such cell cannot serve in any
    draw). Exact: the bands are what the whole search gives. A batch is kept while any kept bid
    reaches it at any degree (the chance of meeting the targets at peak retunes the batch)."""
    capped = base.replace(
        hbm_efficiency=np.maximum(base.hbm_efficiency, 1.0),
        compute_efficiency=np.maximum(base.compute_efficiency, 1.0),
    )
    feasible = replica_grid(w, capped, batches).feasible
    live = (feasible & allowed).any(axis=(1, 2))
    degrees = (feasible & allowed)[live].any(axis=(0, 2))
    kept_batches = feasible[live].any(axis=(0, 1))
    kept = replace(
        w, tp_choices=tuple(t for t, on in zip(w.tp_choices, degrees, strict=True) if on)
    )
    return live, kept, batches[kept_batches], allowed[live][:, degrees][:, :, kept_batches]
