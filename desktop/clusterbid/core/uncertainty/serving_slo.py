"""The chance that the fleet as costed meets the service's targets at peak (issue 37).

The point estimate sizes each bid's fleet (replicas of a tensor-parallel degree) at the assumed
efficiencies. A Monte Carlo draw of lower efficiency slows every step; an operator would then
retune the batch, not buy GPUs overnight. So a draw counts as meeting the targets when, with the
fleet's replicas (spares included, all up) at the stated peak, some searched batch keeps the
time per output token within its target and the first token, queueing at the target's
percentile included (serving_queue), within its target. The share of draws that do is the chance
of meeting the service levels at peak; 1 - that share is the chance the approved fleet is short.

A service whose traffic grows is judged at the peak of month 1 and of the term's last month
(serving_growth_words.judged_months), each with that month's fleet as costed at the stated growth
and the month's traffic at the draw's growth: a draw meets the targets when it meets them in both.
Month 1 is where a draw growing slower than stated is tightest, the last month where one growing
faster is (the gap compounds); the months between lie between the two up to whole replicas.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_inputs import ServingScalars
from clusterbid.core.costmodel.serving_queue import wait_at_percentile_s
from clusterbid.core.uncertainty.serving_cells import Cells, Scratch, Timing


@dataclass(frozen=True, slots=True)
class CostedFleets:
    """Each bid's fleet at the point estimate: its degree's index in the searched degrees and its
    replicas at each judged month (-1 and 0 where the bid cannot serve)."""

    degree_index: np.ndarray  # (bids,) int
    replicas: np.ndarray  # (bids, judged months) float
    months: tuple[int, ...] = (1,)  # the judged months, 1-based
    # (bids,) each costed batch (nan: none): the cell checked first (serving_passes._judge).
    batch: np.ndarray | None = None


def costed_fleets(
    estimates: ServingEstimates, degrees: tuple[int, ...], months: tuple[int, ...] = (1,)
) -> CostedFleets:
    index = [
        degrees.index(e.tensor_parallel) if e.tensor_parallel in degrees and e.replicas else -1
        for e in estimates.bids
    ]
    replicas = [
        [
            float(e.replicas_by_month[m - 1] if e.replicas_by_month else e.replicas or 0)
            for m in months
        ]
        for e in estimates.bids
    ]
    return CostedFleets(
        np.asarray(index, dtype=int),
        np.asarray(replicas, dtype=float).reshape(-1, len(months)),
        months,
        np.asarray([np.nan if e.batch is None else e.batch for e in estimates.bids], dtype=float),
    )


def can_meet(
    w: ServingScalars, cells: Cells, t: Timing, replicas: np.ndarray, months: tuple[int, ...]
) -> np.ndarray:
    """(cells,) bool: whether a cell can meet the targets at peak in some draw, from `t`, its
    timing at the capped efficiencies (a draw's is never shorter). Judged on month 1 alone, whose
    traffic is the stated (growth to the power 0), the fleet needs load < slots there; a draw's
    load is never below the load at the caps (every operation rises with the service time), so
    a cell whose capped load fills every slot meets in no draw. Every cell can meet when other
    months are judged too (a cell short in month 1 may be the one that meets in another)."""
    if months != (1,) or not w.ttft_percentile > 0:
        return np.ones(cells.tp.size, dtype=bool)
    service = t.prefill_s + w.output_tokens * t.tpot_s
    load = w.peak_output_tokens_s / w.output_tokens * 1.0 * service
    return np.asarray((load < replicas[0] * cells.batch)[:, 0])


def meets_on_cells(
    w: ServingScalars,
    cells: Cells,
    t: Timing,
    replicas: np.ndarray,
    traffic: np.ndarray,
    exact_slots: int,
    scratch: Scratch | None = None,
) -> np.ndarray:
    """_meets_in_month for one bid over a pass of draws, (draws,) bool: `cells` are the bid's
    costed degree at every searched batch (serving_cells), `replicas` its costed fleet that month,
    `traffic` each draw's peak there as a multiple of the stated (the same arithmetic, worked in
    place in `scratch`'s arrays)."""
    scratch = Scratch(0) if scratch is None else scratch
    shape = t.tpot_s.shape
    service = np.multiply(w.output_tokens, t.tpot_s, out=scratch.get("service", shape))
    service = np.add(t.prefill_s, service, out=service)
    arrivals = w.peak_output_tokens_s / w.output_tokens * traffic
    load = np.multiply(arrivals, service, out=scratch.get("minimum", shape))
    servers = replicas * cells.batch
    candidate, other = scratch.get("candidate", shape, bool), scratch.get("other", shape, bool)
    np.less_equal(t.tpot_s, w.tpot_target_s, out=candidate)
    candidate &= np.less_equal(t.ttft_s, w.ttft_target_s, out=other)
    candidate &= cells.fits
    if w.ttft_percentile > 0:  # a queue that never drains waits forever: no need to work it out
        candidate &= np.less(load, servers, out=other)
    at = np.flatnonzero(candidate)
    draws = traffic.size
    cell, draw = at // draws, at % draws
    wait = wait_at_percentile_s(
        servers.take(cell), load.take(at), service.take(at), w.ttft_percentile, exact_slots
    )
    met = np.zeros(draws, dtype=bool)
    met[draw[t.ttft_s.take(at) + wait <= w.ttft_target_s]] = True
    return met
