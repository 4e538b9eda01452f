"""One pass of the serving Monte Carlo's draws (issue 37 item 5): each bid's cells (serving_cells)
timed at its drawn efficiencies, the cheapest fleet chosen over them (serving_cheapest), billed
as serving.fleet bills (serving.bill_chosen), and the costed fleet judged at peak (serving_slo).

The cells are set once per run: for each bid the (degree, batch) cells of its own search that
are within the targets at its capped efficiencies (a draw's efficiencies never exceed the caps
and a step only shortens as they rise, so no draw reaches another cell: serving_search.reachable),
and, for the check at peak, its costed degree at every searched batch so reached. A pass then
costs a few whole-array steps per bid over (cells x draws), where before it built the grid of
every live bid, degree and batch for every draw, gathered its candidates and reduced them per
row: about 2.5x the CPU for the same figures (resources/docs/benchmarks.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.serving import bill_chosen, replica_grid
from clusterbid.core.costmodel.serving_burst import ChosenReplica
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.costmodel.serving_replica import ReplicaComm
from clusterbid.core.uncertainty.serving_cells import Cells, Scratch, bid_cells, timing
from clusterbid.core.uncertainty.serving_cheapest import Choice, cheapest
from clusterbid.core.uncertainty.serving_rows import Drawn, by_least_bound
from clusterbid.core.uncertainty.serving_slo import CostedFleets, can_meet, meets_on_cells

# Cells of one bid times draws worked on at once (a pass also ends where the default run may
# stop, every 4,096 draws). Past a core's cache (2 MB an array), yet cheaper than more, smaller
# passes once the arrays are kept from pass to pass (serving_cells.Scratch): each step of a pass
# is one numpy call whatever its size (resources/docs/benchmarks.md).
CELLS_PER_PASS = 262_144


@dataclass(frozen=True, slots=True)
class Draws:
    """The draws of the live bids, (live bids, samples), and the growth, (samples,)."""

    mbu: np.ndarray
    compute: np.ndarray
    payment_days: np.ndarray
    credit: np.ndarray
    growth: np.ndarray


@dataclass(frozen=True, slots=True)
class PassResult:
    """A pass's figures for the live bids, (live bids, draws)."""

    per_million: np.ndarray  # inf: cannot serve
    monthly: np.ndarray  # nan: cannot serve
    gpus: np.ndarray  # (2, live bids, draws): needed, billed (0: cannot serve)
    slo: np.ndarray  # bool


@dataclass(frozen=True, slots=True)
class Search:
    """What every pass searches: the live bids' cells and their costed fleets."""

    w: ServingScalars
    base: ServingArrays  # the live bids
    cells: tuple[Cells, ...]
    judged: tuple[Cells | None, ...]  # the costed degree's cells (None: no costed fleet)
    fleets: CostedFleets  # the live bids'
    exact_slots: int
    scratch: Scratch  # where every pass works (one run's passes run one after another)


def search_cells(
    w: ServingScalars,
    base: ServingArrays,
    batches: np.ndarray,
    allowed: np.ndarray,
    comm: ReplicaComm,
    fleets: CostedFleets,
    exact_slots: int,
) -> Search:
    """Each live bid's cells, once per run (the module's rule)."""
    capped = base.replace(
        hbm_efficiency=np.maximum(base.hbm_efficiency, 1.0),
        compute_efficiency=np.maximum(base.compute_efficiency, 1.0),
    )
    reached = replica_grid(w, capped, batches, comm).feasible
    cells, judged = [], []
    for k in range(reached.shape[0]):
        own = bid_cells(w, base, batches, comm, k, reached[k] & allowed[k])
        cells.append(by_least_bound(w, base, k, own))
        degree = int(fleets.degree_index[k])
        costed = np.zeros_like(reached[k])
        if degree >= 0:
            costed[degree] = reached[k, degree]
        judged.append(_judged(w, base, k, bid_cells(w, base, batches, comm, k, costed), fleets))
    return Search(
        w, base, tuple(cells), tuple(judged), fleets, exact_slots, Scratch(CELLS_PER_PASS)
    )


def _judged(
    w: ServingScalars, base: ServingArrays, k: int, cells: Cells, fleets: CostedFleets
) -> Cells | None:
    """Bid k's costed degree's cells that can meet the targets at peak in some draw
    (serving_slo.can_meet; None: no costed fleet)."""
    if fleets.degree_index[k] < 0:
        return None
    caps = np.maximum(base.hbm_efficiency[k : k + 1], 1.0)
    flops = np.maximum(base.compute_efficiency[k : k + 1], 1.0)
    t = timing(w, cells, base.hbm_bandwidth_bytes_s[k], base.peak_flops[k], caps, flops)
    kept = cells.rows(can_meet(w, cells, t, fleets.replicas[k], fleets.months))
    # The costed batch first: _judge checks it alone first (it meets in about 40% of the demo's
    # draws; a smaller batch meets in more, and would be a better lead).
    costed = np.nan if fleets.batch is None else fleets.batch[k]
    return kept.rows(np.argsort(kept.batch[:, 0] != costed, kind="stable"))


def draws_per_pass(s: Search) -> int:
    """Draws per pass so that the widest bid's (draws x cells) stays near CELLS_PER_PASS."""
    return max(1, CELLS_PER_PASS // max([1] + [c.tp.size for c in s.cells]))


def _efficiencies(
    base: ServingArrays, k: int, mbu: np.ndarray, compute: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Bid k's drawn efficiencies, capped at the GPU's peak, or at the figure an officer chose to
    use above it (issue 37)."""
    hbm, flops = base.hbm_efficiency[k], base.compute_efficiency[k]
    return (
        np.minimum(hbm * mbu, np.maximum(hbm, 1.0)),
        np.minimum(flops * compute, np.maximum(flops, 1.0)),
    )


def _judge(s: Search, k: int, hbm: np.ndarray, flops: np.ndarray, growth: np.ndarray) -> np.ndarray:
    """Whether bid k's costed fleet meets both targets at the peak of every judged month."""
    cells = s.judged[k]
    met = np.zeros(growth.size, dtype=bool)
    if cells is None:
        return met
    open_ = np.arange(growth.size)  # the draws that met every month so far
    for j, month in enumerate(s.fleets.months):
        traffic = (1.0 + growth) ** (month - 1)
        drawn = (hbm, flops, traffic)
        # A draw meets when some cell does: the lead cell (the costed batch) for every open
        # draw, the others only for those it leaves short (each cell and draw worked out alike,
        # whichever others are worked out beside it).
        ok = _meets(s, k, cells.rows(slice(0, 1)), j, drawn, open_)
        short = np.flatnonzero(~ok)
        if short.size and cells.tp.size > 1:
            ok[short] = _meets(s, k, cells.rows(slice(1, None)), j, drawn, open_[short])
        open_ = open_[ok]
    met[open_] = True
    return met


def _meets(
    s: Search,
    k: int,
    cells: Cells,
    month: int,
    drawn: tuple[np.ndarray, np.ndarray, np.ndarray],
    at: np.ndarray,
) -> np.ndarray:
    """serving_slo.meets_on_cells for bid k's `cells` at the draws `at` in the judged month at
    index `month`; `drawn`: each draw's (HBM and compute efficiency, traffic)."""
    hbm, flops, traffic = drawn
    bandwidth, peak = s.base.hbm_bandwidth_bytes_s[k], s.base.peak_flops[k]
    t = timing(s.w, cells, bandwidth, peak, hbm[at], flops[at], s.scratch)
    replicas = s.fleets.replicas[k, month]
    return meets_on_cells(s.w, cells, t, replicas, traffic[at], s.exact_slots, s.scratch)


def _tile(arrays: ServingArrays, repeats: int) -> ServingArrays:
    """Every per-bid column repeated `repeats` times: rows are (bid, draw) pairs."""
    return arrays.replace(
        **{name: np.repeat(getattr(arrays, name), repeats) for name in arrays.__slots__}
    )


def run_pass(s: Search, d: Draws, start: int, stop: int) -> PassResult:
    """The live bids' figures over draws start..stop: each bid's cheapest cell per draw, billed
    over (bid, draw) rows as serving.fleet bills its choice."""
    n, live = stop - start, len(s.cells)
    choices: list[Choice] = []
    slo = np.zeros((live, n), dtype=bool)
    for k, cells in enumerate(s.cells):
        hbm, flops = _efficiencies(s.base, k, d.mbu[k, start:stop], d.compute[k, start:stop])
        bandwidth, peak = s.base.hbm_bandwidth_bytes_s[k], s.base.peak_flops[k]
        drawn = Drawn(bandwidth, peak, hbm, flops)
        choices.append(cheapest(s.w, s.base, k, cells, drawn, s.exact_slots, s.scratch))
        slo[k] = _judge(s, k, hbm, flops, d.growth[start:stop])
    arrays = _tile(s.base, n).replace(
        payment_days=d.payment_days[:, start:stop].ravel(),
        traffic_growth=np.tile(d.growth[start:stop], live),
        sla_credit_share=d.credit[:, start:stop].ravel(),
    )
    ok = np.concatenate([c.servable for c in choices])
    replica = ChosenReplica(
        *(
            np.concatenate([getattr(c.replica, name) for c in choices])
            for name in ChosenReplica.__slots__
        )
    )
    replicas = np.concatenate([c.replicas for c in choices])
    priced = bill_chosen(s.w, arrays, replica, replicas, s.exact_slots)
    needed = np.nanmax(priced.term.replicas_at_peak, axis=1, initial=-np.inf) * replica.tp
    billed = np.nanmax(priced.term.gpus_at_peak, axis=1, initial=-np.inf)
    gpus = np.stack([np.where(ok, needed, 0), np.where(ok, billed, 0)]).reshape(2, live, n)
    return PassResult(
        np.where(ok, priced.cost_per_million, np.inf).reshape(live, n),
        np.where(ok, priced.monthly, np.nan).reshape(live, n),
        gpus,
        slo,
    )
