"""The serving validation's rows rated with the engine named (issue 37, target (c) of methodology
section 8): each row's spec-only ratio with the engine not stated and with its own engine named
(resources/catalog/engines.toml), and the P10-P90 of the replica's tokens/s over the efficiency
draws a bid without serving evidence takes (serving_draws.efficiency_draws: the engine's draw, the
shared MBU and compute draws and the bid's own MBU part), as a ratio to the published figure.

The vLLM entry's figures are read from the same two Lambda runs these rows are (the catalog says
so): its named-engine ratio shows the catalog reproduces them, not a test on fresh runs. The
TensorRT-LLM entry is the workload defaults themselves, so naming it moves no point.
"""

from __future__ import annotations

import math

import numpy as np

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.engine_efficiency import engine_factors, read_on_gpu
from clusterbid.core.serving_workload import (
    DEFAULT_COMPUTE_EFFICIENCY,
    DEFAULT_HBM_EFFICIENCY,
    InferenceWorkload,
)
from clusterbid.core.uncertainty.serving_draws import (
    COMPUTE_SIGMA,
    MARKET_MBU_SIGMA,
    MBU_SIGMA,
    engine_draws,
)
from clusterbid.core.uncertainty.streams import MARKET, stream

DRAWS, SEED = 2000, 20_260_330
ENGINE_OF_GROUP = {"vLLM": "vllm-0.6"}  # the MLPerf and TensorRT-LLM rows ran TensorRT-LLM


def _multipliers(engine: str, row, draws: int = DRAWS) -> tuple[np.ndarray, np.ndarray]:
    """(MBU, compute) multipliers of a bid without evidence, as serving_draws draws them at the
    row's lengths and spread (the engines' reach is carried to them, as the point is)."""
    probe = InferenceWorkload.model_construct(
        serving_engine=engine,
        prompt_tokens=int(row.prompt[0]),
        output_tokens=int(row.output),
        context_cv=row.cv,
    )
    e_mbu, e_compute = engine_draws(probe, draws, SEED)
    market = stream(SEED, MARKET, "serving_mbu").standard_normal(draws)
    own = stream(SEED, "validation", "serving_mbu").standard_normal(draws)
    stack = stream(SEED, MARKET, "serving_compute").standard_normal(draws)
    mbu = e_mbu * np.exp(MARKET_MBU_SIGMA * market + MBU_SIGMA[None] * own)
    return mbu, e_compute * np.exp(COMPUTE_SIGMA * stack)


def row_factors(row, engine: str) -> tuple[float, float]:
    """The (HBM, compute) factors the product puts on a row's workload with `engine` named: its
    running share carried to the row's lengths and spread, its compute figure to the row's GPU
    (serving_inputs.build_serving_arrays does the same for a bid)."""
    catalog, read = default_catalog(), read_on_gpu(engine)
    carry = 1.0
    if read is not None:
        carry = catalog.gpu(row.gpu).bf16_mfu_vs_h100 / catalog.gpu(read).bf16_mfu_vs_h100
    return engine_factors(engine, (float(row.prompt[0]), float(row.output), row.cv), carry)


def band(row, engine: str, replica_at, draws: int = DRAWS) -> tuple[float, float]:
    """P10 and P90 of predicted / published tokens/s per GPU over the draws."""
    hbm_f, compute_f = row_factors(row, engine)
    mbu, compute = _multipliers(engine, row, draws)
    published = row.published_tokens_s / row.gpus
    ratios = [
        replica_at(
            row,
            row.prompt[0],
            (DEFAULT_HBM_EFFICIENCY * hbm_f * m, DEFAULT_COMPUTE_EFFICIENCY * compute_f * c),
        )[0]
        / published
        for m, c in zip(mbu, compute, strict=True)
    ]
    return float(np.percentile(ratios, 10)), float(np.percentile(ratios, 90))


def _error(ratios: list[float]) -> float:
    return math.exp(sum(abs(math.log(r)) for r in ratios) / len(ratios)) - 1


def print_engine_named(rows, replica_at) -> None:
    """One line per rated row: the ratio and band with the engine not stated and named."""
    print("\nThe engine as an input (issue 37, target (c)): spec-only, not stated and named\n")
    print(
        "| row | engine named | ratio not stated | P10-P90 not stated | ratio named | "
        "P10-P90 named |"
    )
    print("|---|---|---|---|---|---|")
    unstated: dict[str, list[float]] = {}
    named: dict[str, list[float]] = {}
    for row in rows:
        if row.kind == "dropped":
            continue
        engine = ENGINE_OF_GROUP.get(row.group, "tensorrt-llm")
        published = row.published_tokens_s / row.gpus
        r0 = replica_at(row, row.prompt[0])[0] / published
        r1 = replica_at(row, row.prompt[0], None, engine)[0] / published
        b0, b1 = band(row, "not-stated", replica_at), band(row, engine, replica_at)
        unstated.setdefault(row.group, []).append(r0)
        named.setdefault(row.group, []).append(r1)
        print(
            f"| {row.label.split(': ', 1)[1]} | {engine} | {r0:.2f} | {b0[0]:.2f}-{b0[1]:.2f} | "
            f"{r1:.2f} | {b1[0]:.2f}-{b1[1]:.2f} |"
        )
    print(
        "\nGeometric-mean error per source, not stated -> named: "
        + "; ".join(
            f"{g} {_error(unstated[g]):.0%} -> {_error(named[g]):.0%} over {len(named[g])}"
            for g in named
        )
        + "."
    )
