"""The service being bought: a model served to users within latency targets at a given traffic."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from clusterbid.core.base import FrozenModel
from clusterbid.core.catalog import default_catalog
from clusterbid.core.engine_names import ServingEngine, serving_engine_field
from clusterbid.core.plan import baseline_payment_days_field, cost_of_capital_field
from clusterbid.core.serving_traffic import check_traffic_profile

BYTES_PER_VALUE = {"bf16": 2, "fp8": 1}
# vLLM's default gpu_memory_utilization: the share of HBM the engine claims for weights and
# KV cache; the rest holds activations, CUDA graphs and the runtime.
DEFAULT_USABLE_HBM_FRACTION = 0.9
# Model bandwidth utilisation (achieved HBM bandwidth / peak) of optimised serving stacks
# (vLLM, TensorRT-LLM) during decode is commonly 60-85%; 0.7 sits inside it. A bid's measured
# decode throughput replaces it (see resources/methodology.md, "Serving").
DEFAULT_HBM_EFFICIENCY = 0.7
# Prefill and large-batch decode matmuls reach about half the dense peak (a ClusterBid
# assumption in the range of training MFU; prefill is one large forward pass).
DEFAULT_COMPUTE_EFFICIENCY = 0.5
TP_CHOICES = (1, 2, 4, 8, 16, 32, 64)
# Spread of context length across requests (standard deviation / mean) when the buyer does not
# state it: chat traffic is wide (ShareGPT prompts in public vLLM runs have a standard deviation
# close to their mean), so 0.5 is a moderate ClusterBid assumption, shown as such.
DEFAULT_CONTEXT_CV = 0.5
# Issue 31: a fleet sized to the stated peak alone runs 97-98% of its batch slots busy, with nothing
# for a forecast that proves low or a replica that fails at peak. ClusterBid's defaults, the buyer's
# to change: 20% above the stated peak (a common capacity-planning margin for a service's first
# year, a judgement), one spare replica (N+1), and the approval sized at P80 of the fleet's draws.
DEFAULT_FORECAST_MARGIN_PERCENT = 20.0
DEFAULT_SPARE_REPLICAS = 1


class InferenceWorkload(FrozenModel):
    """A model served to users: size, KV cache, request shape, latency targets and traffic."""

    kind: Literal["inference"] = "inference"
    name: str = Field(min_length=1, max_length=200, description="What is being served")
    total_params_billions: float = Field(
        gt=0, le=100_000, description="Total parameters, billions (all held in HBM)"
    )
    active_params_billions: float | None = Field(
        None,
        gt=0,
        le=100_000,
        description="Parameters active per token, billions (blank = total, a dense model)",
    )
    precision: Literal["bf16", "fp8"] = Field(
        "fp8", description="Weight and matmul precision (bf16 = 2 bytes, fp8 = 1)"
    )
    num_layers: int = Field(
        ge=1, le=1000, description="Transformer layers (two tensor-parallel all-reduces each)"
    )
    hidden_size: int | None = Field(
        None,
        ge=1,
        le=1_000_000,
        description=(
            "Model (hidden) dimension; blank = sqrt(total params / (12 x layers)), a dense "
            "transformer's"
        ),
    )
    kv_heads: int | None = Field(
        None, ge=1, le=1024, description="Key/value heads per layer (GQA groups)"
    )
    head_dim: int | None = Field(None, ge=1, le=4096, description="Dimension of one attention head")
    kv_cache_precision: Literal["bf16", "fp8"] = Field(
        "bf16", description="Precision of the KV cache"
    )
    kv_cache_bytes_per_token: float | None = Field(
        None,
        gt=0,
        le=1e9,
        description=(
            "KV cache bytes per token, all layers (blank = from layers, KV heads, head dim)"
        ),
    )
    prompt_tokens: int = Field(ge=1, le=10**7, description="Average prompt length, tokens")
    output_tokens: int = Field(ge=1, le=10**7, description="Average output length, tokens")
    ttft_target_ms: float = Field(
        gt=0, le=600_000, description="Target time to first token, milliseconds"
    )
    ttft_percentile: float = Field(
        90,
        ge=50,
        lt=100,
        description="Share of requests (%) whose first token must meet the target at peak",
    )
    context_cv: float = Field(
        DEFAULT_CONTEXT_CV,
        ge=0,
        le=10,
        description=(
            "Spread of context length across requests (standard deviation / mean); sizes the KV "
            "cache"
        ),
    )
    tpot_target_ms: float = Field(
        gt=0, le=60_000, description="Target time per output token, milliseconds"
    )
    peak_requests_per_s: float = Field(
        gt=0, le=1e9, description="Requests per second at the daily peak"
    )
    average_requests_per_s: float = Field(
        gt=0, le=1e9, description="Requests per second averaged over a month"
    )
    # Issue 37: the day's shape, which prices a bid's reserved base plus on-demand burst (serving_traffic).
    peak_hours_per_day: float | None = Field(
        None,
        gt=0,
        le=24,
        description="Hours a day the traffic runs at its peak; the rest of the day at the rate "
        "that makes the stated average. Blank = no profile (the fleet is billed at its peak size "
        "all month)",
    )
    hourly_share_of_peak: tuple[float, ...] | None = Field(
        None,
        description="Traffic in each hour of the day as a share of the peak: 24 values, the largest 1, "
        "averaging the stated average. Blank = no profile",
    )
    # Issue 37: traffic growth over the term (serving_growth): each month's rates are the stated
    # ones x (1 + growth)^(month - 1), and fleets and bills are sized month by month.
    traffic_growth_percent_per_month: float = Field(
        0.0,
        ge=-50,
        le=100,
        description="Traffic growth each month over the term, percent, compounded (month m runs at "
        "the stated rates x (1 + growth)^(m - 1)); 0 = the stated traffic all term",
    )
    growth_spread_percent_per_month: float | None = Field(
        None,
        ge=0,
        le=100,
        description="How far the monthly growth may be off, percent a month (one standard "
        "deviation, drawn in the bands); blank = half the stated growth (ClusterBid default)",
    )
    tensor_parallel: int | None = Field(
        None,
        description=(
            "GPUs per replica (TP degree); blank = the cheapest degree that fits, chosen per bid"
        ),
    )
    service_months: int = Field(
        12, ge=1, le=120, description="Months the service runs (spreads one-off fees)"
    )
    forecast_margin_percent: float = Field(
        DEFAULT_FORECAST_MARGIN_PERCENT,
        ge=0,
        le=1000,
        description=(
            "Traffic above the stated peak the fleet is sized for (the forecast's error), percent"
        ),
    )
    spare_replicas: int = Field(
        DEFAULT_SPARE_REPLICAS,
        ge=0,
        le=1000,
        description=(
            "Replicas held beyond those the peak needs, so one can fail or be drained at peak (1 = "
            "N+1)"
        ),
    )
    # Issue 31: a serving contract's payment terms are priced as the cost of cash, as training's
    # (costmodel/payment_terms.py): the buyer's own figures, the same fields as the training plan's.
    cost_of_capital_percent_per_year: float | None = cost_of_capital_field()
    baseline_payment_days: int | None = baseline_payment_days_field()
    fleet_percentile: Literal[50, 80] = Field(
        80,
        description=(
            "Percentile of the Monte Carlo's fleets the approval amount is sized at (P50 or P80)"
        ),
    )
    hbm_efficiency: float = Field(
        DEFAULT_HBM_EFFICIENCY,
        gt=0,
        le=1,
        description="Achieved / peak HBM bandwidth during decode (MBU)",
    )
    compute_efficiency: float = Field(
        DEFAULT_COMPUTE_EFFICIENCY,
        gt=0,
        le=1,
        description="Achieved / dense peak FLOP/s in prefill and decode matmuls",
    )
    usable_hbm_fraction: float = Field(
        DEFAULT_USABLE_HBM_FRACTION, gt=0, le=1, description="Share of HBM for weights and KV cache"
    )
    serving_engine: ServingEngine = serving_engine_field()  # issue 37: the buyer's engine

    @model_validator(mode="after")
    def _check_consistency(self) -> InferenceWorkload:
        if (
            self.active_params_billions is not None
            and self.active_params_billions > self.total_params_billions
        ):
            raise ValueError("active_params_billions cannot exceed total_params_billions")
        by_shape = self.kv_heads is not None or self.head_dim is not None
        if self.kv_cache_bytes_per_token is None and (
            self.kv_heads is None or self.head_dim is None
        ):
            raise ValueError(
                "give kv_heads and head_dim (with num_layers and kv_cache_precision), or "
                "kv_cache_bytes_per_token"
            )
        if self.kv_cache_bytes_per_token is not None and by_shape:
            raise ValueError(
                "give either kv_cache_bytes_per_token or kv_heads and head_dim, not both"
            )
        if self.average_requests_per_s > self.peak_requests_per_s:
            raise ValueError(
                f"average_requests_per_s ({self.average_requests_per_s:g}) cannot exceed "
                f"peak_requests_per_s ({self.peak_requests_per_s:g})"
            )
        check_traffic_profile(self)
        if self.tensor_parallel is not None:
            self._check_tensor_parallel(self.tensor_parallel)
        return self

    def _check_tensor_parallel(self, tp: int) -> None:
        if tp not in TP_CHOICES:
            raise ValueError(
                f"tensor_parallel must be one of {', '.join(map(str, TP_CHOICES))} (heads split "
                f"evenly), not {tp}; "
                "or leave it blank to let each bid use the cheapest degree"
            )
        largest = max(default_catalog().gpus.values(), key=lambda g: g.hbm_gb)
        usable = largest.hbm_gb * self.usable_hbm_fraction
        per_gpu = self.weight_bytes / tp / 1e9
        if per_gpu > usable:
            needed = next((t for t in TP_CHOICES if self.weight_bytes / t / 1e9 <= usable), None)
            advice = (
                f"raise tensor_parallel to at least {needed}"
                if needed
                else "the model is too large to serve"
            )
            raise ValueError(
                f"at tensor_parallel {tp} the weights need {per_gpu:,.1f} GB per GPU, more than "
                "the "
                f"{usable:,.1f} GB usable on the largest GPU in the catalog ({largest.id}, "
                f"{largest.hbm_gb:g} GB x {self.usable_hbm_fraction:g}): {advice}, or leave it "
                "blank"
            )

    @property
    def active_params(self) -> float:
        return (self.active_params_billions or self.total_params_billions) * 1e9

    @property
    def weight_bytes(self) -> float:
        return self.total_params_billions * 1e9 * BYTES_PER_VALUE[self.precision]

    @property
    def kv_bytes_per_token(self) -> float:
        """Keys and values of every layer for one token: 2 x layers x KV heads x head dim x bytes."""
        if self.kv_cache_bytes_per_token is not None:
            return self.kv_cache_bytes_per_token
        return (
            2.0
            * self.num_layers
            * self.kv_heads
            * self.head_dim
            * BYTES_PER_VALUE[self.kv_cache_precision]
        )

    @property
    def hidden_dim(self) -> float:
        """The hidden size given, or the dense-transformer estimate params = 12 x layers x hidden^2
        (Llama-3-70B: sqrt(70.6e9 / 960) = 8,576 against its real 8,192)."""
        if self.hidden_size is not None:
            return float(self.hidden_size)
        return (self.total_params_billions * 1e9 / (12.0 * self.num_layers)) ** 0.5

    @property
    def context_tokens(self) -> int:
        """Tokens a sequence holds in the KV cache when its last token is generated."""
        return self.prompt_tokens + self.output_tokens

    @property
    def mean_decode_context(self) -> float:
        """KV cache length read per decode step, averaged over a request's output."""
        return self.prompt_tokens + self.output_tokens / 2.0

    @property
    def peak_output_tokens_per_s(self) -> float:
        return self.peak_requests_per_s * self.output_tokens

    @property
    def average_output_tokens_per_s(self) -> float:
        return self.average_requests_per_s * self.output_tokens
