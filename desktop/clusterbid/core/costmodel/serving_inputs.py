"""The serving model's inputs as numpy columns over bids, and the workload as plain floats."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import Catalog
from clusterbid.core.costmodel.engine_efficiency import engine_factors, gpu_carry, workload_shape
from clusterbid.core.costmodel.payment_terms import plan_baseline_days, plan_rate
from clusterbid.core.costmodel.serving_sla_credit import sla_credit_shares
from clusterbid.core.provenance import unstated_fee_shares
from clusterbid.core.provenance.resolve import effective_terms
from clusterbid.core.serving_traffic import traffic_levels
from clusterbid.core.serving_workload import TP_CHOICES, InferenceWorkload

# nccl-tests all_reduce_perf on 8-GPU HGX H100 nodes reaches roughly 360-480 GB/s bus
# bandwidth of the 450 GB/s one-way NVLink figure at large sizes; 0.8 sits inside that range.
NVLINK_BUSBW_EFFICIENCY = 0.8


@dataclass(frozen=True, slots=True)
class ServingArrays:
    """Per-bid inputs, each an array of shape (bids,)."""

    peak_flops: np.ndarray  # dense FLOP/s per GPU at the workload's precision (nan: unsupported)
    hbm_bytes: np.ndarray
    hbm_bandwidth_bytes_s: np.ndarray  # peak, from the catalog
    hbm_efficiency: np.ndarray  # the workload's, or calibrated from the bid's serving evidence
    compute_efficiency: np.ndarray  # likewise: evidence scales both by the engine's one factor
    fast_domain_gpus: np.ndarray  # GPUs a replica can span without the scale-out fabric
    gpus_per_node: np.ndarray
    fabric_step_latency_s: np.ndarray
    nvlink_busbw_bytes_s: np.ndarray  # all-reduce bus bandwidth inside the NVLink domain
    fabric_busbw_per_gpu_bytes_s: np.ndarray  # each GPU's share of the node's scale-out NICs
    contiguous_block_gpus: np.ndarray
    gpus_offered: np.ndarray
    price_per_gpu_hour: np.ndarray  # evaluation currency
    fabric_price_per_gpu_hour: np.ndarray  # nan: not itemised
    committed_gpu_hours: np.ndarray
    one_off_fees: np.ndarray
    recurring_fees_per_month: np.ndarray
    fee_share: np.ndarray  # fees the bid does not state, a fraction of its GPU bill (issue 31)
    payment_days: np.ndarray  # invoices due this many days after issue (not stated: due on invoice)
    burst_price_per_gpu_hour: (
        np.ndarray
    )  # on demand above the reserved base (nan: no burst offered)
    # Issue 37: the SLA credit expected to be claimed, and the headline credit, as shares of a
    # month's bill (serving_sla_credit.py).
    sla_credit_share: np.ndarray
    sla_headline_share: np.ndarray
    # Issue 37: traffic growth a month (a fraction; the Monte Carlo draws it per sample) and the
    # months between the dates the contract lets the reserved base change (inf: fixed for the term).
    traffic_growth: np.ndarray
    reserved_resize_months: np.ndarray

    def replace(self, **changes: np.ndarray) -> ServingArrays:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return ServingArrays(**values)


@dataclass(frozen=True, slots=True)
class ServingScalars:
    """The inference workload as plain floats, shared by every bid."""

    weight_bytes: float
    kv_bytes_per_token: float
    kv_heads: float  # KV is split across at most this many TP ranks (inf: given per token)
    active_params: float
    prompt_tokens: float
    output_tokens: float
    context_tokens: float
    mean_decode_context: float
    num_layers: int
    hidden_size: float  # activations of one token, all-reduced twice per layer under TP
    context_cv: float  # spread of context length across requests (standard deviation / mean)
    ttft_percentile: float  # share of requests whose first token must arrive within the target
    ttft_target_s: float
    tpot_target_s: float
    peak_output_tokens_s: float
    average_output_tokens_s: float
    forecast_margin: float  # fraction above the stated peak the fleet is sized for
    spare_replicas: float  # replicas beyond the peak's (N+1: 1)
    service_months: float
    usable_hbm_fraction: float
    tp_choices: tuple[int, ...]
    # Issue 37: serving evidence at another precision is solved at its own bytes and peak.
    precision: str = "fp8"
    kv_cache_precision: str = "bf16"
    # Issue 31: the buyer's cost of capital (a fraction a year) and usual payment days, which price
    # each bid's payment terms as the cost of cash (payment_terms.py).
    capital_rate: float = 0.0
    baseline_payment_days: float = 0.0
    # Issue 37: ((share of peak, share of the month's hours), ...); empty: no profile stated.
    traffic_levels: tuple[tuple[float, float], ...] = ()
    # Issue 37: the engine the buyer states (engine_names), for the note on a run of another one.
    serving_engine: str = "not-stated"

    @classmethod
    def from_workload(cls, w: InferenceWorkload) -> ServingScalars:
        return cls(
            weight_bytes=w.weight_bytes,
            kv_bytes_per_token=w.kv_bytes_per_token,
            kv_heads=float(w.kv_heads) if w.kv_heads is not None else np.inf,
            active_params=w.active_params,
            prompt_tokens=float(w.prompt_tokens),
            output_tokens=float(w.output_tokens),
            context_tokens=float(w.context_tokens),
            mean_decode_context=w.mean_decode_context,
            num_layers=w.num_layers,
            hidden_size=w.hidden_dim,
            context_cv=w.context_cv,
            ttft_percentile=w.ttft_percentile / 100.0,
            ttft_target_s=w.ttft_target_ms / 1000.0,
            tpot_target_s=w.tpot_target_ms / 1000.0,
            peak_output_tokens_s=w.peak_output_tokens_per_s,
            average_output_tokens_s=w.average_output_tokens_per_s,
            forecast_margin=w.forecast_margin_percent / 100.0,
            spare_replicas=float(w.spare_replicas),
            service_months=float(w.service_months),
            usable_hbm_fraction=w.usable_hbm_fraction,
            tp_choices=(w.tensor_parallel,) if w.tensor_parallel else TP_CHOICES,
            precision=w.precision,
            kv_cache_precision=w.kv_cache_precision,
            capital_rate=plan_rate(w),
            baseline_payment_days=plan_baseline_days(w),
            traffic_levels=traffic_levels(w),
            serving_engine=w.serving_engine,
        )


def build_serving_arrays(
    workload: InferenceWorkload, bids: list[Bid], catalog: Catalog, rates: list[float]
) -> ServingArrays:
    """Read every bid once into columns; `rates` converts each bid's currency to the evaluation's."""
    columns: dict[str, list[float]] = {f.name: [] for f in fields(ServingArrays)}
    # Issue 37: the buyer's stated engine sets the spec-only efficiencies (engines.toml), its
    # running share carried to the workload's lengths and spread and its compute figure from the
    # GPU it was read on to the bid's; a bid's serving benchmark replaces them for that bid.
    engine = workload.serving_engine
    for bid, rate in zip(bids, rates, strict=True):
        gpu = catalog.gpu(bid.capacity.gpu_model)
        carry = gpu_carry(engine, bid.capacity.gpu_model, catalog)
        hbm_factor, compute_factor = engine_factors(engine, workload_shape(workload), carry)
        peak = gpu.dense_tflops(workload.precision)
        fabric_price = bid.terms.fabric_price_per_gpu_hour
        fabric = catalog.fabric(bid.fabric.technology)
        row = {
            "peak_flops": np.nan if peak is None else peak * 1e12,
            "hbm_bytes": gpu.hbm_gb * 1e9,
            "hbm_bandwidth_bytes_s": gpu.hbm_bandwidth_tb_s * 1e12,
            "hbm_efficiency": workload.hbm_efficiency * hbm_factor,
            "compute_efficiency": workload.compute_efficiency * compute_factor,
            # NVLink (or the node's own PCIe) carries TP traffic inside this many GPUs; a wider
            # replica sends every layer's all-reduce over the scale-out fabric.
            "fast_domain_gpus": max(bid.topology.nvlink_domain_gpus, bid.capacity.gpus_per_node),
            "gpus_per_node": bid.capacity.gpus_per_node,
            "fabric_step_latency_s": fabric.ring_step_latency_us * 1e-6,
            # NVLink figures in the catalog count both directions; an all-reduce's bus bandwidth
            # is bounded by one direction, of which NCCL reaches about NVLINK_BUSBW_EFFICIENCY.
            "nvlink_busbw_bytes_s": gpu.nvlink_bandwidth_gb_s / 2 * 1e9 * NVLINK_BUSBW_EFFICIENCY,
            "fabric_busbw_per_gpu_bytes_s": bid.fabric.nics_per_node
            * bid.fabric.nic_line_rate_gbit_s
            / 8
            * 1e9
            * fabric.typical_efficiency
            / bid.capacity.gpus_per_node,
            "contiguous_block_gpus": bid.capacity.largest_contiguous_block_gpus,
            "gpus_offered": bid.capacity.gpus_offered,
            "price_per_gpu_hour": float(bid.terms.price_per_gpu_hour) * rate,
            "fabric_price_per_gpu_hour": np.nan
            if fabric_price is None
            else float(fabric_price) * rate,
            "committed_gpu_hours": bid.terms.committed_gpu_hours,
            "one_off_fees": float(bid.terms.one_off_fees or 0) * rate,
            "recurring_fees_per_month": float(bid.terms.recurring_fees_per_month or 0) * rate,
            "fee_share": sum(unstated_fee_shares(bid)),
            # Not stated: due on invoice, the cautious end (provenance/defaults.py).
            "payment_days": effective_terms(bid).payment_terms_days,
            "burst_price_per_gpu_hour": np.nan
            if bid.terms.burst_price_per_gpu_hour is None
            else float(bid.terms.burst_price_per_gpu_hour) * rate,
        }
        row["sla_credit_share"], row["sla_headline_share"] = sla_credit_shares(bid)
        row["traffic_growth"] = workload.traffic_growth_percent_per_month / 100.0
        resize = bid.terms.reserved_resize_months
        row["reserved_resize_months"] = np.inf if resize is None else float(resize)
        for name, value in row.items():
            columns[name].append(value)
    return ServingArrays(
        **{name: np.asarray(values, dtype=float) for name, values in columns.items()}
    )
