"""A reserved base plus on-demand burst, priced over the day's traffic (issue 37).

A fleet sized for the peak sits partly idle the rest of the day. When a bid offers GPUs above a
reserved base at an on-demand rate and the buyer states the traffic's shape (serving_traffic),
the bill is

    reserved GPUs x price x hours in the month  +  burst GPU-hours x burst price,

where each level of the profile needs the fleet the peak's configuration (tensor-parallel degree
and batch) needs at that level's rate: the same queueing headroom, forecast margin and spare
replicas as at the peak, in whole nodes; burst GPU-hours are that fleet's excess over the reserved
base, times the level's hours. The reserved base is chosen to make the bill smallest: it is 0 or
one of the levels' fleets (the bill is piecewise linear in the base, bending only there); ties go
to the larger base (reserved GPUs are there when wanted; burst capacity may not be). A commitment
of GPU-hours still sets a floor on the reserved hours. The configuration itself is chosen at peak
as before: the profile changes what is billed, not how a replica runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.costmodel.serving_queue import replicas_with_headroom


@dataclass(frozen=True, slots=True)
class ChosenReplica:
    """The configuration each bid (row) was sized at, shape (rows,); nan where none serves."""

    tokens_per_s: np.ndarray
    batch: np.ndarray
    tp: np.ndarray
    service_s: np.ndarray  # a request's whole life in a slot
    ttft_s: np.ndarray  # the replica's own first-token time, before queueing
    gpus_billed: np.ndarray  # at the peak, whole nodes


@dataclass(frozen=True, slots=True)
class ProfileBill:
    reserved_gpus: np.ndarray  # (rows,)
    burst_gpu_hours: np.ndarray  # per month
    gpu_bill: np.ndarray  # reserved and burst GPU charges per month, before fees


def bursts(w: ServingScalars, b: ServingArrays) -> bool:
    """Whether any bid's bill depends on the profile (a profile stated and some burst price)."""
    return bool(w.traffic_levels) and bool(np.isfinite(b.burst_price_per_gpu_hour).any())


def gpus_at_levels(
    w: ServingScalars,
    at: ChosenReplica,
    gpus_per_node: np.ndarray,
    exact_slots: int,
    growth: np.ndarray | None = None,
) -> np.ndarray:
    """GPUs billed at each level of the profile, (rows, levels): the peak's sizing rule at the
    level's rate (nan where the row does not serve). `growth`: each row's traffic as a multiple of
    the stated (a later month of a growing service, serving_growth); none: the stated."""
    return fleet_at_levels(w, at, gpus_per_node, exact_slots, growth)[1]


def fleet_at_levels(
    w: ServingScalars,
    at: ChosenReplica,
    gpus_per_node: np.ndarray,
    exact_slots: int,
    growth: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(replicas, GPUs billed) at each level of the profile, each (rows, levels), as
    gpus_at_levels: the replicas spares included, before whole nodes (issue 37: the chance of
    meeting the targets is judged on a later month's replicas)."""
    shares = np.asarray([share for share, _ in w.traffic_levels or ((1.0, 1.0),)])[None, :]
    factor = np.ones((at.tokens_per_s.shape[0], 1)) if growth is None else growth[:, None]
    sized = (
        w.peak_output_tokens_s * (1.0 + w.forecast_margin) * shares * factor
    )  # output tokens/s at each level
    rows, levels = at.tokens_per_s.shape[0], shares.shape[1]

    def column(values: np.ndarray) -> np.ndarray:
        return np.repeat(np.asarray(values, dtype=float)[:, None], levels, axis=1)

    throughput, batch, service = column(at.tokens_per_s), column(at.batch), column(at.service_s)
    live = np.isfinite(throughput) & (throughput > 0)
    tokens = np.asarray(np.broadcast_to(sized, (rows, levels)))
    replicas = np.full((rows, levels), np.nan)
    replicas[live] = (
        replicas_with_headroom(
            np.ceil(tokens[live] / throughput[live]),
            batch[live],
            tokens[live] / w.output_tokens,
            service[live],
            w.ttft_target_s - column(at.ttft_s)[live],
            w.ttft_percentile,
            exact_slots,
        )
        + w.spare_replicas
    )
    per_node = column(gpus_per_node)
    billed = np.ceil(replicas * column(at.tp) / per_node) * per_node
    # The peak level is sized exactly as the fleet was; never bill more than that (an hour at a
    # lower rate cannot need more GPUs than the peak's fleet). Traffic grown past the stated can.
    capped = np.minimum(billed, column(at.gpus_billed))
    grown = tokens > sized_peak(w) * (1 + 1e-12)
    return replicas, np.asarray(np.where(grown, billed, capped), dtype=float)


def sized_peak(w: ServingScalars) -> float:
    """Output tokens/s the peak's fleet is sized for: the stated peak and the forecast margin."""
    return w.peak_output_tokens_s * (1.0 + w.forecast_margin)


def cheapest_reserved(
    needs: np.ndarray,
    hours: np.ndarray,
    price: np.ndarray,
    burst_price: np.ndarray,
    floor_hours: np.ndarray,
) -> ProfileBill:
    """The reserved base that makes each row's monthly GPU bill smallest. `needs`: GPUs per level
    (rows, levels); `hours`: each level's hours in the month (levels,); `floor_hours`: GPU-hours a
    commitment bills whatever is used."""
    candidates = np.concatenate(
        [np.zeros((needs.shape[0], 1)), needs], axis=1
    )  # (rows, candidates)
    excess = np.maximum(
        needs[:, None, :] - candidates[:, :, None], 0.0
    )  # (rows, candidates, levels)
    burst_hours = excess @ hours
    reserved_hours = np.maximum(candidates * HOURS_PER_MONTH, floor_hours[:, None])
    bill = reserved_hours * price[:, None] + burst_hours * burst_price[:, None]
    # Ties to the larger base: among the cheapest (to a part in 10^12), the last largest candidate.
    cheapest = np.nanmin(bill, axis=1, keepdims=True)
    tied = bill <= cheapest * (1 + 1e-12)
    pick = np.argmax(np.where(tied, candidates, -1.0), axis=1)
    rows = np.arange(needs.shape[0])
    return ProfileBill(candidates[rows, pick], burst_hours[rows, pick], bill[rows, pick])


def bill_over_profile(
    w: ServingScalars, b: ServingArrays, at: ChosenReplica, exact_slots: int
) -> ProfileBill:
    """Each row's reserved base, burst GPU-hours and GPU bill: over the profile where the bid
    offers burst, else the whole peak fleet reserved all month."""
    floor = b.committed_gpu_hours / w.service_months
    flat = ProfileBill(
        at.gpus_billed,
        np.zeros_like(at.gpus_billed),
        np.maximum(at.gpus_billed * HOURS_PER_MONTH, floor) * b.price_per_gpu_hour,
    )
    rows = np.flatnonzero(np.isfinite(b.burst_price_per_gpu_hour) & np.isfinite(at.gpus_billed))
    if not w.traffic_levels or rows.size == 0:
        return flat
    subset = ChosenReplica(
        *(np.asarray(getattr(at, name))[rows] for name in ChosenReplica.__slots__)
    )
    needs = gpus_at_levels(w, subset, b.gpus_per_node[rows], exact_slots)
    hours = np.asarray([share for _, share in w.traffic_levels]) * HOURS_PER_MONTH
    priced = cheapest_reserved(
        needs, hours, b.price_per_gpu_hour[rows], b.burst_price_per_gpu_hour[rows], floor[rows]
    )
    reserved, burst_hours, bill = (
        np.array(x, dtype=float) for x in (flat.reserved_gpus, flat.burst_gpu_hours, flat.gpu_bill)
    )
    reserved[rows], burst_hours[rows], bill[rows] = (
        priced.reserved_gpus,
        priced.burst_gpu_hours,
        priced.gpu_bill,
    )
    return ProfileBill(reserved, burst_hours, bill)
