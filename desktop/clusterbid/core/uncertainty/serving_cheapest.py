"""Each draw's cheapest fleet on one bid, over that bid's cells (issue 37 item 5).

serving.fleet chooses, for every row of a grid, the (degree, batch) whose fleet costs least per
million output tokens: the candidates within the targets are sized for the peak with queueing
headroom (only those that could be the cheapest: serving_sizing), billed in whole nodes, ranked,
and ties broken by tokens/s per GPU, then the earlier cell. Here the arrays run over one bid's
cells and a pass's draws (serving_cells), so the bid's prices are plain figures and each draw's
best is a reduction along the cells, not a gather per candidate; the few cells sized are read
by flat index. Only the rows of the bid's cells a draw can need are worked out for it
(serving_rows), in the order of the least bound each can have. The rule and its arithmetic are
fleet's and serving_sizing's, operation for operation: the choice, its replicas and its GPUs are
the same to the last bit (tests compare them with fleet, draw by draw).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.serving import SECONDS_PER_MONTH
from clusterbid.core.costmodel.serving_burst import ChosenReplica
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.costmodel.serving_queue import replicas_with_headroom
from clusterbid.core.costmodel.serving_sizing import TIE_SLACK
from clusterbid.core.uncertainty.serving_cells import Cells, Scratch
from clusterbid.core.uncertainty.serving_rows import Drawn, Rows, bill_of

_NONE = np.iinfo(np.int64).max


@dataclass(frozen=True, slots=True)
class Choice:
    """Each draw's chosen cell on one bid, (draws,); nan where no cell serves."""

    servable: np.ndarray
    replica: ChosenReplica
    replicas: np.ndarray  # spares included


def _lowest(s: Rows) -> np.ndarray:
    """Each draw's lowest bound among its candidates worked out (inf: none)."""
    lowest = np.full(s.bound.shape[1], np.inf)
    for rows, start in s.blocks():
        np.minimum(lowest[start:], s.bound[rows, start:].min(axis=0), out=lowest[start:])
    return lowest


def _scouts(s: Rows, lowest: np.ndarray) -> np.ndarray:
    """The flat index of each draw's earliest candidate (in the grid's order) at its lowest
    bound, for the draws with a candidate."""
    draws = s.bound.shape[1]
    earliest = np.full(draws, np.inf)  # grid places, exact as floats
    places = np.asarray(s.cells.position, dtype=float)[:, None]
    for rows, start in s.blocks():
        at = _at_or_below(s, rows, start, lowest)
        place = s.scratch.get("place", at.shape)
        place.fill(np.inf)
        np.copyto(place, places[rows], where=at)  # quicker than np.where over int64
        np.minimum(earliest[start:], place.min(axis=0), out=earliest[start:])
    some = np.flatnonzero(np.isfinite(earliest))
    row_of = np.argsort(s.cells.position)
    return np.asarray(row_of[earliest[some].astype(np.int64)] * draws + some, dtype=np.int64)


def _at_or_below(s: Rows, rows: slice, start: int, threshold: np.ndarray) -> np.ndarray:
    """(rows, draws from `start`) bool: the candidates whose bound is at or below each draw's
    `threshold`. A cell that is no candidate has an infinite bound, so below a finite threshold
    the bound alone says it."""
    at = s.bound[rows, start:] <= threshold[start:]
    if not np.isfinite(threshold[start:]).all():
        at &= s.candidate[rows, start:]
    return at


def _within(s: Rows, limit: np.ndarray, scouts: np.ndarray) -> np.ndarray:
    """The flat indices of the candidates, scouts aside, whose bound is within each draw's
    `limit`."""
    draws = s.bound.shape[1]
    scout_of = np.full(draws, -1, dtype=np.int64)
    scout_of[scouts % draws] = scouts
    found = [np.zeros(0, dtype=np.int64)]
    for rows, start in s.blocks():
        # One flat search over the block (a 2-D np.nonzero costs about five times as much).
        at = np.flatnonzero(_at_or_below(s, rows, start, limit))
        width = draws - start
        found.append((at // width + rows.start) * draws + at % width + start)
    within = np.concatenate(found)
    return np.asarray(within[within != scout_of[within % draws]], dtype=np.int64)


def _size_near_cheapest(
    w: ServingScalars, s: Rows, exact_slots: int, offered: float
) -> tuple[np.ndarray, np.ndarray]:
    """serving_sizing.replicas_near_cheapest over (cells, draws): (the flat indices of every
    candidate that could be its draw's cheapest, their replicas; inf: none serves). Of the cells
    whose bound is at or above the scout's bill, those that could not be chosen are not sized
    (_could_win); the choice is the same."""
    draws = s.bound.shape[1]

    def size(at: np.ndarray) -> np.ndarray:
        service, ttft = s.hold(at)
        return (
            replicas_with_headroom(
                s.minimum.take(at),
                s.cells.batch.take(at // draws),
                w.peak_output_tokens_s * (1.0 + w.forecast_margin) / w.output_tokens,
                service,
                w.ttft_target_s - ttft,
                w.ttft_percentile,
                exact_slots,
            )
            + w.spare_replicas
        )

    s.extend(_lowest(s))  # every row that could be at or below the draw's lowest bound
    scouts = _scouts(s, _lowest(s))
    sized = size(scouts)
    best = np.full(draws, np.inf)
    found = np.isfinite(sized)
    best[scouts[found] % draws] = s.bill.monthly(
        s.bill.billed(sized[found], s.cells.tp.take(scouts[found] // draws))
    )
    limit = best * (1.0 + TIE_SLACK)
    s.extend(limit)
    rest = _within(s, limit, scouts)
    if not rest.size:
        return scouts, sized
    below = s.bound.take(rest) < best.take(rest % draws)
    sized, replicas = (
        np.concatenate([scouts, rest[below]]),
        np.concatenate([sized, size(rest[below])]),
    )
    upper = rest[~below]
    upper = upper[_could_win(w, s, offered, _ranks(w, s, offered, sized, replicas), best, upper)]
    return np.concatenate([sized, upper]), np.concatenate([replicas, size(upper)])


def _could_win(
    w: ServingScalars, s: Rows, offered: float, r: Ranks, best: np.ndarray, upper: np.ndarray
) -> np.ndarray:
    """Which of the cells `upper` (flat), each with its bound at or above its draw's `best` (the
    scout's bill), could still be chosen beside the cells ranked in `r`. Their bills are never
    below `best` (the bill rises with the replicas): where the cheapest ranked is at or below
    `best` per million tokens, no such cell lowers it, so one with fewer tokens/s per GPU than
    the ranked ties' best, or as many and later in the grid's order, is never chosen, nor moves
    the choice. A bill that could fall as GPUs rise: every cell could."""
    if not (s.bill.price >= 0 and 1.0 + s.bill.fee_share >= 0):
        return np.ones(upper.size, dtype=bool)
    draws = s.bound.shape[1]
    draw, cell = upper % draws, upper // draws
    per_million = best / (w.average_output_tokens_s * SECONDS_PER_MONTH) * 1e6
    settled = np.isfinite(r.least) & (r.least <= per_million)
    rate = s.throughput.take(upper) / s.cells.tp.take(cell)
    best_rate, first = r.best_rate.take(draw), r.first.take(draw)
    beaten = (rate < best_rate) | ((rate == best_rate) & (s.cells.position.take(cell) > first))
    return np.asarray(~(settled.take(draw) & beaten))


def cheapest(
    w: ServingScalars,
    b: ServingArrays,
    i: int,
    cells: Cells,
    drawn: Drawn,
    exact_slots: int,
    scratch: Scratch | None = None,
) -> Choice:
    """Bid i's cheapest cell in each draw of the pass (serving.fleet's rule); `cells` in bound
    order (serving_rows.by_least_bound); `scratch`: where the pass's arrays are worked."""
    bill = bill_of(w, b, i)
    s = Rows(w, bill, cells, drawn, Scratch(0) if scratch is None else scratch)
    offered = float(b.gpus_offered[i])
    sized, replicas = _size_near_cheapest(w, s, exact_slots, offered)
    draws = drawn.hbm.size
    ok, at, chosen, billed = _ranked_first(_ranks(w, s, offered, sized, replicas))
    servable = np.zeros(draws, dtype=bool)
    servable[s.order[ok]] = True

    def pick(values: np.ndarray) -> np.ndarray:
        picked = np.full(draws, np.nan)
        picked[s.order[ok]] = values
        return picked

    service, ttft = s.hold(at)
    replica = ChosenReplica(
        pick(s.throughput.take(at)),
        pick(cells.batch.take(at // draws)),
        pick(cells.tp.take(at // draws)),
        pick(service),
        pick(ttft),
        pick(billed),
    )
    return Choice(servable, replica, pick(chosen))


@dataclass(frozen=True, slots=True)
class Ranks:
    """The sized cells ranked as serving.fleet ranks them: the finite ones (flat), their replicas,
    GPUs billed and draws; and per draw (draws,), the cheapest per million tokens (inf: none), the
    most tokens/s per GPU among its ties (-1: none), the earliest grid place among the ties at
    that rate (_NONE: none), with the flat places of those winners."""

    sized: np.ndarray
    replicas: np.ndarray
    billed: np.ndarray
    draw: np.ndarray
    least: np.ndarray
    best_rate: np.ndarray
    first: np.ndarray
    winners: np.ndarray
    place: np.ndarray


def _ranks(
    w: ServingScalars, s: Rows, offered: float, sized: np.ndarray, replicas: np.ndarray
) -> Ranks:
    """The cheapest per million tokens among the sized cells (`sized`, flat, with their
    `replicas`), ties to the most tokens/s per GPU, then the earliest cell in the grid's order.
    Only the cells sized (a few a draw) can be chosen, so they alone are billed and ranked."""
    draws, cells, bill = s.bound.shape[1], s.cells, s.bill
    finite = np.isfinite(replicas)
    sized, replicas = sized[finite], replicas[finite]
    draw, cell = sized % draws, sized // draws
    billed = bill.billed(replicas, cells.tp.take(cell))
    per_million = bill.monthly(billed) / (w.average_output_tokens_s * SECONDS_PER_MONTH) * 1e6
    ranked = np.where(billed <= offered, per_million, np.inf)
    least = np.full(draws, np.inf)
    np.minimum.at(least, draw, ranked)
    tied = np.isfinite(ranked) & (ranked <= least[draw] * (1 + 1e-12))
    rate = s.throughput.take(sized) / cells.tp.take(cell)
    best_rate = np.full(draws, -1.0)
    np.maximum.at(best_rate, draw, np.where(tied, rate, -1.0))
    winners = np.flatnonzero(tied & (rate >= best_rate[draw]))
    place = cells.position.take(cell[winners])
    first = np.full(draws, _NONE)
    np.minimum.at(first, draw[winners], place)  # the earliest cell in the grid's order
    return Ranks(sized, replicas, billed, draw, least, best_rate, first, winners, place)


def _ranked_first(r: Ranks) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(whether each draw serves, (draws,); the flat index of each serving draw's choice, its
    replicas and its GPUs billed)."""
    chosen = r.winners[r.place == r.first[r.draw[r.winners]]]
    ok = r.first != _NONE
    at = np.zeros(r.first.size, dtype=np.int64)
    at[r.draw[chosen]] = chosen
    return ok, r.sized[at[ok]], r.replicas[at[ok]], r.billed[at[ok]]
