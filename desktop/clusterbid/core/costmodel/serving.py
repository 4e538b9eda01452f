"""Decode and prefill time per replica, the largest batch within the targets, and the fleet's cost.

Arrays run over (bids, tensor-parallel degrees, batch sizes); every formula is in
resources/methodology.md, section "Serving".
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
from clusterbid.core.costmodel.serving_sizing import replicas_near_cheapest

# Continuous-batching engines rarely run more sequences per replica than this; the batch
# search stops here.
MAX_BATCH = 1024
# Activations travel in 16-bit even when weights are FP8.
ACTIVATION_BYTES = 2.0
# One small-message all-reduce inside an 8-GPU NVLink domain costs tens of microseconds of
# launch and synchronisation (nccl-tests all_reduce_perf at 8 bytes to 64 KiB on HGX H100:
# roughly 15-30 us); 20 us per call, 160 calls per pass for an 80-layer model = 3.2 ms.
NVLINK_ALLREDUCE_LATENCY_S = 20e-6
# The batch's KV cache must rarely overflow HBM (that preempts and recomputes sequences):
# sized at the 99th percentile of its total, z = 2.326.
KV_OVERFLOW_Z = 2.326
BATCHES = np.arange(1, MAX_BATCH + 1, dtype=float)
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600.0


def _per_bid(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=float)[:, None, None]


def _tp_parts_s(
    w: ServingScalars, b: ServingArrays, tp: np.ndarray, tokens: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray]:
    """(all, scale-out fabric part of) the time one forward pass of `tokens` tokens spends in
    tensor-parallel all-reduces: two per layer, each of tokens x hidden x 2 bytes (activations
    stay 16-bit under FP8 weights).

    Inside the NVLink domain of g GPUs: a fixed launch-and-sync latency plus the ring's
    2 (g-1)/g x message / NVLink bus bandwidth. A replica wider than the domain spans s
    segments and adds, per all-reduce, 2 (s-1) fabric steps and each GPU's 2 (s-1)/s share of
    its 1/g slice of the message over its share of the node's NICs (hierarchical all-reduce).
    """
    # Both parts are a fixed latency plus a cost per token: work them out per (bid, TP) and
    # spread over the batch axis once (the grid is bids x TP x 1,024 batches).
    domain = _per_bid(b.fast_domain_gpus)
    inside = np.minimum(tp, domain)
    segments = np.ceil(tp / domain)
    token_bytes = w.hidden_size * ACTIVATION_BYTES
    nvlink_fixed = np.where(tp > 1, NVLINK_ALLREDUCE_LATENCY_S, 0.0)
    nvlink_per_token = (
        2.0 * (inside - 1.0) / inside * token_bytes / _per_bid(b.nvlink_busbw_bytes_s)
    )
    fabric_fixed = 2.0 * (segments - 1.0) * _per_bid(b.fabric_step_latency_s)
    fabric_per_token = (
        2.0
        * (segments - 1.0)
        / segments
        * (token_bytes / inside)
        / _per_bid(b.fabric_busbw_per_gpu_bytes_s)
    )
    calls = 2.0 * w.num_layers
    fabric = calls * (fabric_fixed + fabric_per_token * tokens)
    return calls * (
        nvlink_fixed + fabric_fixed + (nvlink_per_token + fabric_per_token) * tokens
    ), fabric


def tp_communication_s(
    w: ServingScalars, b: ServingArrays, tp: np.ndarray, tokens: np.ndarray | float
) -> np.ndarray:
    """All tensor-parallel all-reduce time of one forward pass of `tokens` tokens."""
    return _tp_parts_s(w, b, tp, tokens)[0]


def kv_tokens_held(w: ServingScalars, batch: np.ndarray) -> np.ndarray:
    """KV-cache tokens a batch holds with the 99th-percentile margin: B sequences caught at
    uniform progress hold B x (prompt + output/2) on average, and with context lengths spread
    at `context_cv` their sum varies by sqrt(B) x cv x that mean (central limit)."""
    mean = w.mean_decode_context
    return np.asarray(
        batch * mean + KV_OVERFLOW_Z * np.sqrt(batch) * w.context_cv * mean, dtype=float
    )


@dataclass(frozen=True, slots=True)
class DecodeStep:
    """One forward pass of a batch in decode, by what it waits on (arrays broadcast like tp x
    batch x bids)."""

    weights_read_s: np.ndarray  # the weight shard read once; the matmuls' compute can hide it
    kv_read_s: np.ndarray  # the batch's KV cache, read by attention after the matmuls
    compute_s: np.ndarray  # the decode tokens and the prompts riding with them (chunked prefill)
    comm_s: np.ndarray  # tensor-parallel all-reduces
    fabric_comm_s: np.ndarray  # their part on the scale-out fabric (nil inside NVLink)

    @property
    def engine_s(self) -> np.ndarray:
        """The part the engine's kernels set (all but the all-reduces): what serving evidence
        scales."""
        return np.asarray(np.maximum(self.weights_read_s, self.compute_s) + self.kv_read_s)

    @property
    def step_s(self) -> np.ndarray:
        return np.asarray(self.engine_s + self.comm_s)


def decode_step(
    w: ServingScalars, b: ServingArrays, tp: np.ndarray, batch: np.ndarray
) -> DecodeStep:
    """At batch B, B/output requests finish (and arrive) per step, so with chunked prefill a
    step carries B decode tokens and B x prompt/output prefill tokens. The matmuls read the
    weights while they compute, so one hides the other; attention is a kernel of its own that
    reads the KV cache after them, so its time adds (paged-attention decode kernels are
    bandwidth-bound)."""
    kv_shards = np.minimum(tp, w.kv_heads)  # GQA: ranks beyond the KV heads hold copies
    bandwidth = _per_bid(b.hbm_bandwidth_bytes_s) * _per_bid(b.hbm_efficiency)
    step_tokens = batch * (1.0 + w.prompt_tokens / w.output_tokens)
    comm, fabric = _tp_parts_s(w, b, tp, step_tokens)
    return DecodeStep(
        weights_read_s=w.weight_bytes / tp / bandwidth,
        kv_read_s=batch * w.kv_bytes_per_token * w.mean_decode_context / kv_shards / bandwidth,
        compute_s=2.0
        * w.active_params
        * step_tokens
        / (tp * _per_bid(b.peak_flops) * _per_bid(b.compute_efficiency)),
        comm_s=comm,
        fabric_comm_s=fabric,
    )


@dataclass(frozen=True, slots=True)
class ReplicaGrid:
    """One replica (TP GPUs) at each batch size, shape (bids, TP degrees, batches)."""

    tp: np.ndarray  # (1, T, 1)
    batch: np.ndarray  # (1, 1, B)
    weights_per_gpu_bytes: np.ndarray  # (1, T, 1)
    kv_per_sequence_per_gpu_bytes: np.ndarray  # one full-length sequence, (1, T, 1)
    usable_hbm_bytes: np.ndarray  # (bids, 1, 1)
    fits_hbm: np.ndarray
    placeable: (
        np.ndarray
    )  # the replica fits the offer (GPUs, and one fabric block when it spans nodes)
    kv_read_s: np.ndarray  # the batch's KV cache read once
    weights_read_s: np.ndarray  # the weights read once, which the matmuls' compute can hide
    compute_s: np.ndarray
    comm_s: np.ndarray  # all-reduce time of one step
    fabric_comm_s: np.ndarray  # its part on the scale-out fabric (nil inside NVLink)
    step_s: np.ndarray  # one decode step of the whole batch
    prefill_s: np.ndarray  # one request's prompt
    tpot_s: np.ndarray  # time per output token, prefills of arriving requests included
    ttft_s: np.ndarray
    tokens_per_s: np.ndarray  # output tokens per second of the replica
    feasible: np.ndarray

    @property
    def memory_s(self) -> np.ndarray:
        """Weights and the batch's KV cache read once (worked out when asked: the Monte Carlo never does)."""
        return np.asarray(self.weights_read_s + self.kv_read_s)


def replica_grid(w: ServingScalars, b: ServingArrays, batches: np.ndarray = BATCHES) -> ReplicaGrid:
    """Every (TP, batch) a bid could run a replica at, with its latency and throughput.

    A step's time is max(weight shard / (HBM bandwidth x efficiency), 2 x active params x
    tokens / (TP x peak x compute efficiency)) + the batch's KV cache / (HBM bandwidth x
    efficiency) + TP all-reduce time for those tokens (decode_step). Time per output token is
    that step. A request's own first token needs its whole prompt computed plus one step.
    """
    tp = np.asarray(w.tp_choices, dtype=float)[None, :, None]
    batch = np.asarray(batches, dtype=float)[
        None, None, :
    ]  # the Monte Carlo searches fewer (issue 37)
    kv_shards = np.minimum(tp, w.kv_heads)  # GQA: ranks beyond the KV heads hold copies
    weights = w.weight_bytes / tp
    kv_full = w.kv_bytes_per_token * w.context_tokens / kv_shards
    usable = _per_bid(b.hbm_bytes) * w.usable_hbm_fraction
    kv_batch = w.kv_bytes_per_token * kv_tokens_held(w, batch) / kv_shards
    fits = (weights + kv_full <= usable) & (weights + kv_batch <= usable)
    spans_nodes = tp > _per_bid(b.gpus_per_node)
    placeable = (tp <= _per_bid(b.gpus_offered)) & (
        ~spans_nodes | (tp <= _per_bid(b.contiguous_block_gpus))
    )
    step = decode_step(w, b, tp, batch)
    peak = _per_bid(b.peak_flops) * _per_bid(b.compute_efficiency)
    prefill = 2.0 * w.active_params * w.prompt_tokens / (tp * peak) + tp_communication_s(
        w, b, tp, w.prompt_tokens
    )
    tpot = step.step_s
    ttft = prefill + tpot
    with np.errstate(invalid="ignore"):
        feasible = fits & placeable & (tpot <= w.tpot_target_s) & (ttft <= w.ttft_target_s)
    return ReplicaGrid(
        tp=tp,
        batch=batch,
        weights_per_gpu_bytes=weights,
        kv_per_sequence_per_gpu_bytes=kv_full,
        usable_hbm_bytes=usable,
        fits_hbm=fits,
        placeable=placeable,
        kv_read_s=step.kv_read_s,
        weights_read_s=np.broadcast_to(step.weights_read_s, tpot.shape),
        compute_s=step.compute_s,
        comm_s=step.comm_s,
        fabric_comm_s=step.fabric_comm_s,
        step_s=tpot,
        prefill_s=prefill,
        tpot_s=tpot,
        ttft_s=ttft,
        tokens_per_s=batch / tpot,
        feasible=feasible,
    )


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
    at = np.nonzero(grid.feasible & (grid.tokens_per_s > 0))
    bid_of = at[0]

    def cand(
        values: np.ndarray,
    ) -> np.ndarray:  # indexing only the axes an array has (no broadcast copy)
        picked = np.asarray(values)[tuple(a if n > 1 else 0 for a, n in zip(at, np.shape(values)))]
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
            (monthly_chosen + cash_chosen - credit) / (tokens_per_s * SECONDS_PER_MONTH) * 1e6,
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
