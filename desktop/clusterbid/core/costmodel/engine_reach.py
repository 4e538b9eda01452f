"""How far a serving bid's band reaches for the engine (issue 37): a named engine's own published
range, an unstated engine's reach to the slowest and fastest published engine, a measured run's
reach from its own engine, and the gap a run on another engine than the stated one is drawn
across. Every reach is carried to the workload's lengths and spread, and a compute figure to the
bid's GPU, as the point estimate's factors are (engine_efficiency.engine_factors).
"""

from __future__ import annotations

import math

from clusterbid.core.costmodel.engine_efficiency import (
    P90_Z,
    EngineSpec,
    Pair,
    Shape,
    engine_catalog,
    engine_factors,
    engine_of_run,
    engine_relation,
    gpu_carry,
)


def _carried(spec: EngineSpec, end: int, shape: Shape | None, gpu_model: str | None) -> Pair:
    """An engine's range end at the workload's shape, its compute carried to the bid's GPU."""
    hbm, compute = spec.factors(end, shape)
    return hbm, compute * gpu_carry(spec.id, gpu_model)


def _reach(lows: list[float], highs: list[float]) -> Pair:
    """(down, up) log-space sigmas from 1 (the point) to the lowest at P10 and the highest at P90."""
    return max(-math.log(min(lows)), 0.0) / P90_Z, max(math.log(max(highs)), 0.0) / P90_Z


def engine_reach(engine: str, shape: Shape | None = None) -> tuple[Pair, Pair]:
    """The doubt the engine adds to each bid's (HBM, compute) draw without serving evidence, as
    (down, up) sigmas around the point: a named engine's own range, symmetric around its middle;
    an unstated one reaches from the workload's figure to the slowest published engine at P10 and
    the fastest at P90 (a two-piece draw, as an unstated training stack's)."""
    spec = engine_catalog().get(engine)
    if spec is None:
        return _catalog_reach((1.0, 1.0), shape)
    # Never narrower than the range as read: at a spread of 0 both ends carry to one share, but
    # the 81-85% came from two models' runs, not from the spread alone (a review).
    own = [
        max(
            math.log(spec.factors(1, shape)[a] / spec.factors(0, shape)[a]),
            math.log(spec.factors(1)[a] / spec.factors(0)[a]),
        )
        / (2 * P90_Z)
        for a in (0, 1)
    ]
    return (own[0], own[0]), (own[1], own[1])


def run_reach(
    run_engine: str | None, shape: Shape | None = None, gpu_model: str | None = None
) -> tuple[Pair, Pair]:
    """Where the buyer's unstated engine may put a bid whose engine factor a measured run set:
    (down, up) sigmas per (HBM, compute) from the run's own engine (a catalog id, None for one
    the catalog lacks) to the slowest published engine at P10 and the fastest at P90. The engine
    is the buyer's, so it moves every bid, measured or not (one shared draw); a run on the
    engine the defaults describe reaches as far as an unmeasured bid does."""
    spec = engine_catalog().get(run_engine) if run_engine else None
    middle = (
        (1.0, 1.0)
        if spec is None
        else engine_factors(spec.id, shape, gpu_carry(spec.id, gpu_model))
    )
    return _catalog_reach(middle, shape, gpu_model)


def mismatch_reach(
    stated: str,
    run_engine: str | None,
    assumed: Pair,
    shape: Shape | None = None,
    gpu_model: str | None = None,
) -> tuple[Pair, Pair] | None:
    """The doubt a measured run on another engine than the buyer's stated one adds to its bid's
    draw, as (down, up) sigmas per (HBM, compute), symmetric, so that P10 and P90 reach the gap
    between the stated engine as the bid's point assumes it (`assumed`: its factors over the
    workload's efficiencies, running share and GPU carried) and the run's engine at the workload's
    `shape`; a run on an engine the catalog lacks, or naming none, reaches the catalog's whole
    spread. None when there is no mismatch. A tester saw a TensorRT-LLM run under a stated vLLM
    drawn as tightly as a vLLM run, 90% cheapest against 21%; a review found leaving the engine
    out drew a run tighter than naming another."""
    if engine_relation(stated, run_engine) in (None, "same"):
        return None
    ran = engine_of_run(run_engine)
    if ran is None or ran not in engine_catalog():
        (down_h, up_h), (down_c, up_c) = _catalog_reach(assumed, shape, gpu_model)
        hbm, compute = max(down_h, up_h), max(down_c, up_c)
        return (hbm, hbm), (compute, compute)
    theirs = engine_factors(ran, shape, gpu_carry(ran, gpu_model))
    gap = [abs(math.log(assumed[a] / theirs[a])) / P90_Z for a in (0, 1)]
    return (gap[0], gap[0]), (gap[1], gap[1])


def _catalog_reach(
    middle: Pair, shape: Shape | None = None, gpu_model: str | None = None
) -> tuple[Pair, Pair]:
    """(down, up) sigmas per (HBM, compute) from `middle` (factors over the defaults) to the
    slowest published engine at P10 and the fastest at P90."""
    engines = engine_catalog().values()
    hbm, compute = (
        _reach(
            [_carried(s, 0, shape, gpu_model)[axis] / middle[axis] for s in engines],
            [_carried(s, 1, shape, gpu_model)[axis] / middle[axis] for s in engines],
        )
        for axis in (0, 1)
    )
    return hbm, compute
