"""The fleet on each bid: every (degree, batch) within the targets sized for the peak, billed, and
the cheapest per million output tokens chosen.

The replica's timing is serving_replica's (re-exported here for the callers that import it from
this module); every formula is in resources/methodology.md, section "Serving".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.payment_terms import cash_cost_share
from clusterbid.core.costmodel.serving_burst import ChosenReplica, bill_over_profile
from clusterbid.core.costmodel.serving_growth import TermBill, bill_over_term, flat_term, grows
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.costmodel.serving_queue import EXACT_SERVER_LIMIT, wait_at_percentile_s
from clusterbid.core.costmodel.serving_replica import (
    BATCHES,
    MAX_BATCH,
    NVLINK_ALLREDUCE_LATENCY_S,
    DecodeStep,
    ReplicaGrid,
    decode_step,
    kv_tokens_held,
    replica_grid,
    tp_communication_s,
)
from clusterbid.core.costmodel.serving_sizing import replicas_near_cheapest

SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600.0
__all__ = [
    "BATCHES",
    "MAX_BATCH",
    "NVLINK_ALLREDUCE_LATENCY_S",
    "SECONDS_PER_MONTH",
    "DecodeStep",
    "Fleet",
    "ReplicaGrid",
    "decode_step",
    "fleet",
    "kv_tokens_held",
    "replica_grid",
    "tp_communication_s",
]


@dataclass(frozen=True, slots=True)
class Fleet:
    """The cheapest way to carry the peak on each bid, shape (bids,); nan/-1 where none exists."""

    tp_index: np.ndarray  # int, -1: no feasible TP degree
    batch_index: np.ndarray  # int, -1: none
    replica_tokens_per_s: np.ndarray
    replicas: np.ndarray
    replicas_for_mean: (
        np.ndarray
    )  # enough for the stated peak's mean rate: no headroom, margin or spare
    queue_wait_s: (
        np.ndarray
    )  # queueing wait at the TTFT percentile, at the margined peak, spares down
    slot_utilisation: np.ndarray  # busy share of all the batch slots at the stated peak
    gpus_needed: np.ndarray
    gpus_billed: np.ndarray  # whole nodes
    servable: np.ndarray  # bool: some TP degree meets the targets within the GPUs offered
    fewest_gpus_billed: (
        np.ndarray
    )  # at any TP degree meeting the targets, offer size aside (inf: none)
    monthly_cost: np.ndarray  # contract money: what the provider bills
    cost_per_million_tokens: np.ndarray  # the bill and the cost of cash of its payment terms
    fabric_cost_per_month: np.ndarray  # itemised fabric share of the GPU bill (nan: not itemised)
    cash_cost_per_month: np.ndarray  # cost of cash of the payment terms, in the cost per token only
    reserved_gpus: np.ndarray  # the reserved base (issue 37; the whole peak fleet without burst)
    burst_gpu_hours: np.ndarray  # on-demand GPU-hours a month above the base (0 without burst)
    # Issue 37: the SLA credit a month the buyer can expect to claim, off the cost per token only
    # (serving_sla_credit.py), and the headline credit, shown and never counted.
    sla_credit_per_month: np.ndarray
    sla_headline_credit_per_month: np.ndarray
    # Issue 37: month by month over the term when the traffic grows (one column when it does not).
    term: TermBill
    monthly_bills: np.ndarray  # (bids, months): what the provider bills each month


def fleet(
    w: ServingScalars, b: ServingArrays, grid: ReplicaGrid, exact_slots: int = EXACT_SERVER_LIMIT
) -> Fleet:
    """Every (TP, batch) within the targets is sized for the peak with queueing headroom
    (serving_queue) and billed at peak provisioning in whole nodes all month; per bid the one
    with the lowest cost per million output tokens at the average load wins (ties: the most
    tokens/s per GPU, then the smaller TP). The largest batch is not always the cheapest: its
    longer step leaves less of the first-token target for queueing, which can cost replicas."""
    shape = grid.tokens_per_s.shape
    # Only the candidates within the targets are sized (a small share of bids x TP x 1,024).
    flat = np.flatnonzero(grid.feasible & (grid.tokens_per_s > 0))
    at = np.unravel_index(flat, shape)
    bid_of = at[0]

    def cand(
        values: np.ndarray,
    ) -> np.ndarray:  # indexing only the axes an array has (no broadcast copy)
        values = np.asarray(values)
        if values.shape == shape:  # one flat index reads a full grid array fastest
            return np.asarray(values.reshape(-1)[flat])
        picked = values[tuple(a if n > 1 else 0 for a, n in zip(at, values.shape, strict=True))]
        return np.broadcast_to(picked, bid_of.shape)

    throughput, tp, batch = cand(grid.tokens_per_s), cand(grid.tp), cand(grid.batch)
    # Issue 31: sized for the stated peak plus the buyer's forecast margin, with the queueing
    # headroom at that rate, then N+1: spare replicas beyond it, so the margined peak still meets
    # the targets with one replica down.
    sized_peak = w.peak_output_tokens_s * (1.0 + w.forecast_margin)
    for_mean = np.ceil(w.peak_output_tokens_s / throughput)  # the stated peak's mean rate alone
    service = cand(grid.prefill_s) + w.output_tokens * cand(
        grid.tpot_s
    )  # slot held from prefill to last token
    arrivals = sized_peak / w.output_tokens
    per_node = b.gpus_per_node[bid_of]

    def monthly_of(billed: np.ndarray, at: np.ndarray) -> np.ndarray:
        r = bid_of[at]
        gpu_hours = np.maximum(
            billed * HOURS_PER_MONTH, b.committed_gpu_hours[r] / w.service_months
        )
        return np.asarray(
            gpu_hours * b.price_per_gpu_hour[r] * (1.0 + b.fee_share[r])  # unstated fees (issue 31)
            + b.recurring_fees_per_month[r]
            + b.one_off_fees[r] / w.service_months
        )

    # Issue 37: only the candidates that could be the cheapest are sized (serving_sizing), exactly.
    replicas = replicas_near_cheapest(
        np.ceil(sized_peak / throughput),
        batch,
        arrivals,
        service,
        w.ttft_target_s - cand(grid.ttft_s),
        w.ttft_percentile,
        exact_slots,
        spares=w.spare_replicas,
        tp=tp,
        per_node=per_node,
        row_of=bid_of,
        rows=shape[0],
        monthly_of=monthly_of,
    )
    gpus = replicas * tp
    billed = np.ceil(gpus / per_node) * per_node
    monthly = monthly_of(billed, np.arange(bid_of.size))
    per_million = monthly / (w.average_output_tokens_s * SECONDS_PER_MONTH) * 1e6
    sized = np.isfinite(replicas)
    ranked = np.where(sized & (billed <= b.gpus_offered[bid_of]), per_million, np.inf)
    # Cheapest first; among equal costs (whole-node billing ties often) the most tokens/s per
    # GPU, then the smaller TP degree (candidates are in TP-major order).
    cheapest = np.full(shape[0], np.inf)
    np.minimum.at(cheapest, bid_of, ranked)
    tied = np.isfinite(ranked) & (ranked <= cheapest[bid_of] * (1 + 1e-12))
    best_rate = np.full(shape[0], -1.0)
    np.maximum.at(best_rate, bid_of, np.where(tied, throughput / tp, -1.0))
    winners = np.flatnonzero(tied & (throughput / tp >= best_rate[bid_of]))
    chosen = np.full(shape[0], np.iinfo(np.int64).max)
    np.minimum.at(chosen, bid_of[winners], winners)  # the first winner of each bid
    ok = chosen < np.iinfo(np.int64).max
    safe = np.where(ok, chosen, 0)

    def pick(values: np.ndarray) -> np.ndarray:
        return np.where(ok, values[safe], np.nan) if values.size else np.full(shape[0], np.nan)

    fewest = np.full(shape[0], np.inf)
    np.minimum.at(fewest, bid_of, np.where(sized, billed, np.inf))
    billed_chosen = pick(billed)
    chosen_replicas = pick(replicas)
    queue_wait = wait_at_percentile_s(  # at the margined peak with the spare replicas down
        (chosen_replicas - w.spare_replicas) * pick(batch),
        arrivals * pick(service),
        pick(service),
        w.ttft_percentile,
        exact_slots,
    )
    # Issue 37: the bill over the day's traffic, a reserved base plus burst where the bid offers it.
    chosen_replica = ChosenReplica(
        pick(throughput),
        pick(batch),
        pick(tp),
        pick(service),
        pick(cand(grid.ttft_s)),
        billed_chosen,
    )
    priced = bill_chosen(w, b, chosen_replica, chosen_replicas, exact_slots)
    term, monthly_bills, monthly_chosen = priced.term, priced.monthly_bills, priced.monthly
    cash_chosen, credit = priced.cash, priced.credit
    t_index = np.where(ok, pick(np.asarray(at[1], dtype=float)), -1).astype(int)
    b_index = np.where(ok, pick(np.asarray(at[2], dtype=float)), -1).astype(int)
    return Fleet(
        tp_index=t_index,
        batch_index=b_index,
        replica_tokens_per_s=pick(throughput),
        replicas=chosen_replicas,
        replicas_for_mean=pick(for_mean),
        queue_wait_s=np.where(ok, queue_wait, np.nan),
        slot_utilisation=pick(
            w.peak_output_tokens_s / w.output_tokens * service / (replicas * batch)
        ),
        gpus_needed=pick(gpus),
        gpus_billed=billed_chosen,
        servable=ok,
        fewest_gpus_billed=fewest,
        monthly_cost=np.where(ok, monthly_chosen, np.nan),
        cost_per_million_tokens=np.where(
            ok,
            priced.cost_per_million,
            np.nan,
        ),
        fabric_cost_per_month=(term.reserved_gpus * HOURS_PER_MONTH + term.burst_gpu_hours).mean(
            axis=1
        )
        * b.fabric_price_per_gpu_hour,
        cash_cost_per_month=np.where(ok, cash_chosen, np.nan),
        reserved_gpus=term.reserved_gpus[:, 0],
        burst_gpu_hours=term.burst_gpu_hours.mean(axis=1),
        term=term,
        monthly_bills=np.where(ok[:, None], monthly_bills, np.nan),
        sla_credit_per_month=np.where(ok, credit, np.nan),
        sla_headline_credit_per_month=np.where(ok, monthly_chosen * b.sla_headline_share, np.nan),
    )


@dataclass(frozen=True, slots=True)
class ChosenBill:
    """The bill of the replica each row chose, (rows,): its term month by month, the bills with
    fees, the average month, and the cost of cash and SLA credit a month (in the cost per token
    only); nan where the row chose none."""

    term: TermBill
    monthly_bills: np.ndarray  # (rows, months)
    monthly: np.ndarray
    cash: np.ndarray
    credit: np.ndarray
    cost_per_million: np.ndarray


def bill_chosen(
    w: ServingScalars,
    b: ServingArrays,
    chosen_replica: ChosenReplica,
    chosen_replicas: np.ndarray,
    exact_slots: int,
) -> ChosenBill:
    """What fleet bills for the replica each row chose (the serving Monte Carlo chooses its own
    and bills it here, so both bill alike). Issue 37: the bill over the day's traffic, a reserved
    base plus burst where the bid offers it."""
    billed_chosen = chosen_replica.gpus_billed
    bill = bill_over_profile(w, b, chosen_replica, exact_slots)
    # Issue 37: a growing service is sized and billed month by month (serving_growth); the bill
    # shown is the term's average month, the cost per token the term's bills over its tokens.
    term = (
        bill_over_term(w, b, chosen_replica, exact_slots)
        if grows(b)
        else flat_term(
            billed_chosen, chosen_replicas, bill.reserved_gpus, bill.burst_gpu_hours, bill.gpu_bill
        )
    )
    monthly_bills = (
        term.gpu_bills * (1.0 + b.fee_share)[:, None]
        + b.recurring_fees_per_month[:, None]
        + (b.one_off_fees / w.service_months)[:, None]
    )
    monthly_chosen = monthly_bills.mean(axis=1)
    tokens_per_s = w.average_output_tokens_s * term.traffic.mean(axis=1)
    # Issue 31: each month's invoices paid sooner than the buyer's usual terms cost its cost of
    # capital on them (payment_terms.py). Not money paid to the provider: in the cost per token,
    # never in the monthly bill or the approval. A share per bid, so it never changes which
    # candidate of a bid is cheapest.
    cash_chosen = monthly_chosen * cash_cost_share(
        b.payment_days, w.baseline_payment_days, w.capital_rate
    )
    credit = monthly_chosen * b.sla_credit_share
    per_million = (monthly_chosen + cash_chosen - credit) / (tokens_per_s * SECONDS_PER_MONTH) * 1e6
    return ChosenBill(term, monthly_bills, monthly_chosen, cash_chosen, credit, per_million)
