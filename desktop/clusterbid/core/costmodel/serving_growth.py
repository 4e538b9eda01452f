"""A service whose traffic grows over the term (issue 37): fleets sized month by month.

The buyer states the growth a month, g (`traffic_growth_percent_per_month`); month m (1, 2, ...)
runs at the stated peak, average and daily shape x (1 + g)^(m - 1). The replica's configuration
(tensor-parallel degree and batch) is the one chosen at the stated peak: growth changes how many
replicas run, not how one runs. Each month, each level of the day's profile (the whole day at the
peak when no profile is stated) needs the fleet the peak's sizing rule gives at that rate: the
same queueing headroom, forecast margin and spare replicas, in whole nodes (serving_burst).

The reserved base changes only on the dates the contract allows (`reserved_resize_months`; not
stated: fixed for the term). Within each such block of months the base is the one that makes the
block's bill smallest, as for one month (serving_burst.cheapest_reserved over every month and
level of the block): where the bid offers burst, on-demand GPU-hours absorb what the base does not
carry; where it does not, the base is the block's largest fleet, reserved from the block's first
month. A GPU-hour commitment still sets a floor on each month's reserved hours.

    month m's GPU bill = max(base x 730, floor) x price + burst GPU-hours in m x burst price

The monthly bill the rest of the model shows is the term's average month; the cost per million
tokens is the term's bills over the term's tokens (which grow with the traffic).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving_burst import ChosenReplica, fleet_at_levels
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars


@dataclass(frozen=True, slots=True)
class TermBill:
    """Each row's months, shape (rows, months); nan where the row does not serve."""

    traffic: np.ndarray  # each month's traffic as a multiple of the stated
    gpus_at_peak: np.ndarray  # the fleet the month's peak needs, whole nodes
    replicas_at_peak: np.ndarray  # its replicas, spares included (the SLO is judged on them)
    reserved_gpus: np.ndarray  # the reserved base that month
    burst_gpu_hours: np.ndarray  # on-demand GPU-hours that month above the base
    gpu_bills: np.ndarray  # reserved and burst GPU charges that month, before fees


def grows(b: ServingArrays) -> bool:
    """Whether any row's traffic changes over the term."""
    return bool(np.any(b.traffic_growth != 0.0))


def traffic_by_month(growth: np.ndarray, months: int) -> np.ndarray:
    """(rows, months): (1 + g)^(m - 1) for m = 1 .. months."""
    return np.asarray((1.0 + growth)[:, None] ** np.arange(months)[None, :], dtype=float)


def bill_over_term(
    w: ServingScalars, b: ServingArrays, at: ChosenReplica, exact_slots: int
) -> TermBill:
    """Every month's fleet, reserved base, burst and GPU bill (the module's rule)."""
    months, rows = int(w.service_months), at.tokens_per_s.shape[0]
    traffic = traffic_by_month(b.traffic_growth, months)
    level_hours = (
        np.asarray([hours for _, hours in w.traffic_levels or ((1.0, 1.0),)]) * HOURS_PER_MONTH
    )
    sized = [
        fleet_at_levels(w, at, b.gpus_per_node, exact_slots, growth=traffic[:, m])
        for m in range(months)
    ]
    needs = np.stack([gpus for _, gpus in sized], axis=1)  # (rows, months, levels)
    replicas = np.stack([count for count, _ in sized], axis=1)
    shape = (rows, months)
    reserved, burst_hours, bills = np.full(shape, np.nan), np.zeros(shape), np.full(shape, np.nan)
    live = np.isfinite(needs).all(axis=(1, 2))
    floor = b.committed_gpu_hours / w.service_months
    offers_burst = np.isfinite(b.burst_price_per_gpu_hour)
    block_of = np.minimum(b.reserved_resize_months, months).astype(int)
    for block in np.unique(block_of[live]):
        group = np.flatnonzero(live & (block_of == block))
        for start in range(0, months, int(block)):
            span = slice(start, min(start + int(block), months))
            cells = needs[group, span, :]  # (group, months in the block, levels)
            base = np.nanmax(cells, axis=(1, 2))
            bursting = offers_burst[group]
            if bursting.any():
                chosen = group[bursting]
                count = cells.shape[1]
                base[bursting] = cheapest_base(
                    cells[bursting].reshape(chosen.size, -1),
                    np.tile(level_hours, count) / count,  # the block's average month
                    b.price_per_gpu_hour[chosen],
                    b.burst_price_per_gpu_hour[chosen],
                    floor[chosen],
                )
            excess_hours = np.maximum(cells - base[:, None, None], 0.0) @ level_hours
            reserved[group, span] = base[:, None]
            burst_hours[group, span] = excess_hours
            reserved_bill = (
                np.maximum(base * HOURS_PER_MONTH, floor[group]) * (b.price_per_gpu_hour[group])
            )
            burst_price = np.where(bursting, b.burst_price_per_gpu_hour[group], 0.0)
            bills[group, span] = reserved_bill[:, None] + excess_hours * burst_price[:, None]
    return TermBill(
        traffic=traffic,
        gpus_at_peak=np.where(live[:, None], needs.max(axis=2), np.nan),
        replicas_at_peak=np.where(live[:, None], replicas.max(axis=2), np.nan),
        reserved_gpus=reserved,
        burst_gpu_hours=burst_hours,
        gpu_bills=bills,
    )


def cheapest_base(
    needs: np.ndarray,
    hours: np.ndarray,
    price: np.ndarray,
    burst_price: np.ndarray,
    floor_hours: np.ndarray,
) -> np.ndarray:
    """serving_burst.cheapest_reserved's base (the same bills, the same ties to the larger base)
    in memory linear in the cells: a block of 12 months x 24 hourly levels has 288 cells, and the
    direct form's (rows, cells, cells) excess would take gigabytes over a pass of draws. With the
    cells sorted by need, the burst GPU-hours above a base at cell k are
    sum over later cells of (need - need_k) x hours = suffix(need x hours) - need_k x suffix(hours)
    (cells with the same need add nothing either way)."""
    order = np.argsort(needs, axis=1, kind="stable")
    need = np.take_along_axis(needs, order, axis=1)
    weight = np.broadcast_to(hours, needs.shape)
    weight = np.take_along_axis(weight, order, axis=1)

    def suffix(values: np.ndarray) -> np.ndarray:  # sum over the cells after each one
        total = np.cumsum(values[:, ::-1], axis=1)[:, ::-1]
        return np.concatenate([total[:, 1:], np.zeros((values.shape[0], 1))], axis=1)

    above = suffix(need * weight) - need * suffix(weight)
    candidates = np.concatenate([np.zeros((needs.shape[0], 1)), need], axis=1)
    burst_hours = np.concatenate([(need * weight).sum(axis=1, keepdims=True), above], axis=1)
    reserved_hours = np.maximum(candidates * HOURS_PER_MONTH, floor_hours[:, None])
    bill = reserved_hours * price[:, None] + burst_hours * burst_price[:, None]
    cheapest = bill.min(axis=1, keepdims=True)
    tied = bill <= cheapest * (1 + 1e-12)
    return np.asarray(np.where(tied, candidates, -1.0).max(axis=1), dtype=float)


def flat_term(
    gpus_billed: np.ndarray,
    replicas: np.ndarray,
    reserved: np.ndarray,
    burst_hours: np.ndarray,
    gpu_bill: np.ndarray,
) -> TermBill:
    """The one-month TermBill of a service that does not grow (every month the same)."""
    return TermBill(
        traffic=np.ones((gpus_billed.shape[0], 1)),
        gpus_at_peak=np.asarray(gpus_billed, dtype=float)[:, None],
        replicas_at_peak=np.asarray(replicas, dtype=float)[:, None],
        reserved_gpus=np.asarray(reserved, dtype=float)[:, None],
        burst_gpu_hours=np.asarray(burst_hours, dtype=float)[:, None],
        gpu_bills=np.asarray(gpu_bill, dtype=float)[:, None],
    )
