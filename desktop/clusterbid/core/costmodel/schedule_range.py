"""What an unstated pipeline schedule could change (issue 36 item 4).

Two knobs of the schedule are rarely published, yet they move a pipelined job's step time:
- the interleave depth v (virtual pipeline stages): the bubble (pp-1)/(v m + pp-1) shrinks with
  v while the point-to-point transfers, 2 per micro-batch and virtual stage, grow with it;
  Megatron-LM needs the layers to divide into pp x v stages, and its interleaved schedule the
  micro-batches per step into multiples of pp;
- the micro-batch (sequences per micro-batch): a smaller one means more micro-batches, so less
  bubble, but more tensor- and pipeline-parallel calls, each paying its latency; a larger one
  holds more activations, so only those that fit the GPU's memory are feasible (and only the
  workload's own when the architecture, hence the activation memory, is not given).
When the workload does not state a knob, the model runs the best schedule the layout allows (the
feasible pair with the shortest step time over the bids, the schedule a team would tune to) and
says so, flagged as assumed. The Monte Carlo draws each unstated knob's range: the slowest end of
its feasible range (the other knob held where it runs) at P90 of the bid's step time, on one
stream per knob common to every bid, since the team runs the same schedule whichever bid wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.inputs import WorkloadScalars, build_bid_arrays
from clusterbid.core.costmodel.training import step_breakdown
from clusterbid.core.workload import Workload

MAX_INTERLEAVE = 64  # the workload's own bound on virtual_pipeline_stages
P90_Z = 1.2816
# The two knobs' common streams in the Monte Carlo (not valid bid ids: they start with NUL).
INTERLEAVE_STREAM = "\x00schedule:interleave"
MICRO_BATCH_STREAM = "\x00schedule:micro-batch"

Pair = tuple[int, int]  # (interleave depth, micro-batch)


@dataclass(frozen=True, slots=True)
class ScheduleRange:
    """Step time of one bid (spec figures, before evidence) at each feasible schedule."""

    interleave_stated: bool
    micro_batch_stated: bool
    assumed: Pair  # the schedule the estimate ran
    step_s: dict[Pair, float]  # feasible on this bid's GPU

    @property
    def stated(self) -> bool:
        return self.interleave_stated and self.micro_batch_stated

    def along(self, knob: int) -> dict[int, float]:
        """Step time at each feasible value of one knob (0: interleave, 1: micro-batch), the other
        held where the estimate ran it."""
        other = 1 - knob
        return {p[knob]: t for p, t in self.step_s.items() if p[other] == self.assumed[other]}

    def sigma(self, knob: int) -> float:
        """Log-space doubt of an unstated knob: its slowest feasible value at P90 of the step."""
        stated = self.interleave_stated if knob == 0 else self.micro_batch_stated
        steps = self.along(knob)
        if stated or len(steps) < 2 or self.assumed not in self.step_s:
            return 0.0
        return abs(math.log(max(steps.values()) / self.step_s[self.assumed])) / P90_Z


def interleave_stated(workload: Workload) -> bool:
    return workload.pipeline_parallel == 1 or "virtual_pipeline_stages" in workload.model_fields_set


def micro_batch_stated(workload: Workload) -> bool:
    return "micro_batch_size" in workload.model_fields_set


def feasible_interleaves(workload: Workload) -> list[int]:
    """Depths the layout allows: each of the pp stages splits its layers into v equal chunks.
    Without the layer count only the depth the workload holds is known to fit."""
    layers, pp = workload.num_layers, workload.pipeline_parallel
    if pp == 1 or layers is None or layers % pp:
        return [workload.virtual_pipeline_stages]
    per_stage = layers // pp
    if workload.micro_batches_per_step % pp:
        return [1]  # Megatron-LM's interleaved schedule needs a multiple of pp micro-batches
    return [v for v in range(1, min(per_stage, MAX_INTERLEAVE) + 1) if per_stage % v == 0]


def candidate_schedules(workload: Workload) -> list[Pair]:
    """Every (v, micro-batch) the layout allows for the knobs the workload leaves unstated (a
    stated knob keeps its value); memory is checked per GPU by `_memory_gb`."""
    v_stated, mb_stated = interleave_stated(workload), micro_batch_stated(workload)
    own = (workload.virtual_pipeline_stages, workload.micro_batch_size)
    per_replica = workload.global_batch_sequences // workload.data_parallel
    sizes = (
        [own[1]]
        if mb_stated or workload.num_layers is None
        else [d for d in range(1, per_replica + 1) if per_replica % d == 0]
    )
    pairs = []
    for size in sizes:
        at = workload.model_copy(update={"micro_batch_size": size})
        depths = feasible_interleaves(at) if not v_stated else [own[0]]
        if v_stated and own[0] > 1 and at.micro_batches_per_step % workload.pipeline_parallel:
            continue  # the stated interleave cannot run with this micro-batch
        pairs += [(v, size) for v in depths]
    return pairs if own in pairs else [own, *pairs]


@dataclass(frozen=True, slots=True)
class _Grid:
    steps: dict[Pair, tuple[float, ...]]  # per bid
    fits: dict[Pair, tuple[bool, ...]]  # whether the pair's memory fits each bid's GPU


@lru_cache(maxsize=64)
def _grid(workload: Workload, bids: tuple[Bid, ...], stated: tuple[bool, bool]) -> _Grid:
    # `stated` is part of the key: equal workloads may differ only in what they state.
    own = (workload.virtual_pipeline_stages, workload.micro_batch_size)
    catalog = default_catalog()
    hbm = [catalog.gpu(b.capacity.gpu_model).hbm_gb for b in bids]
    steps, fits = {}, {}
    for v, size in candidate_schedules(workload):
        at = workload.model_copy(update={"virtual_pipeline_stages": v, "micro_batch_size": size})
        w = WorkloadScalars.from_workload(at)
        need = w.model_state_gb_per_gpu + (w.activation_gb_per_gpu or 0.0)
        # The workload's own schedule is its gates' business; another must fit to be feasible.
        fit = tuple((v, size) == own or need <= h for h in hbm)
        if not any(fit):
            continue  # fits no bid's GPU: not worth a step time
        arrays = build_bid_arrays(at, list(bids), catalog, [1.0] * len(bids))
        steps[(v, size)] = tuple(float(x) for x in step_breakdown(w, arrays, w.job_gpus).step_s)
        fits[(v, size)] = fit
    return _Grid(steps, fits)


def _stated_pair(workload: Workload) -> tuple[bool, bool]:
    return interleave_stated(workload), micro_batch_stated(workload)


# The bids each workload's schedule was last chosen over (by the estimate), so that the Details
# and memo line of one bid reads its step times from that grid instead of building a grid of its
# own per bid (a grid costs one cost-model pass per feasible schedule). Bounded like the cache.
_CHOSEN_OVER: dict[tuple[Workload, tuple[bool, bool]], tuple[Bid, ...]] = {}
_CHOSEN_OVER_LIMIT = 64


def _remember(workload: Workload, bids: tuple[Bid, ...]) -> None:
    key = (workload, _stated_pair(workload))
    _CHOSEN_OVER.pop(key, None)
    _CHOSEN_OVER[key] = bids
    while len(_CHOSEN_OVER) > _CHOSEN_OVER_LIMIT:
        del _CHOSEN_OVER[next(iter(_CHOSEN_OVER))]


def _known_among(workload: Workload, bid: Bid) -> tuple[Bid, ...] | None:
    """The bids the estimate chose this workload's schedule over, when the bid is one of them."""
    bids = _CHOSEN_OVER.get((workload, _stated_pair(workload)))
    return bids if bids is not None and bid in bids else None


def best_schedule(workload: Workload, bids: tuple[Bid, ...]) -> Pair:
    """The schedule the model runs: the stated knobs as stated, the others the feasible pair (on
    every bid's GPU) with the shortest step time over the bids (geometric mean, spec figures)."""
    own = (workload.virtual_pipeline_stages, workload.micro_batch_size)
    if all(_stated_pair(workload)) or not bids:
        return own
    grid = _grid(workload, bids, _stated_pair(workload))
    _remember(workload, bids)
    feasible = [p for p in grid.steps if all(grid.fits[p])]
    if len(feasible) < 2:
        return own
    return min(feasible, key=lambda p: sum(math.log(t) for t in grid.steps[p]) / len(bids))


def best_interleave(workload: Workload, bids: tuple[Bid, ...]) -> int:
    return best_schedule(workload, bids)[0]


def scheduled(workload: Workload, bids: list[Bid] | tuple[Bid, ...]) -> Workload:
    """The workload as the model runs it: unstated knobs set to the best schedule."""
    v, size = best_schedule(workload, tuple(bids))
    if (v, size) == (workload.virtual_pipeline_stages, workload.micro_batch_size):
        return workload
    return workload.model_copy(update={"virtual_pipeline_stages": v, "micro_batch_size": size})


def schedule_range(
    workload: Workload,
    bid: Bid,
    ran: Pair | None = None,
    among: tuple[Bid, ...] | None = None,
) -> ScheduleRange:
    """The bid's step time at every schedule feasible on its GPU; `ran`: the schedule the
    estimate ran (the best over all the bids), else the best for this bid alone. `among`: the
    evaluation's bids, whose grid the estimate already computed (cached), the bid one of them;
    without it, the bids the estimate last chose this workload's schedule over, if the bid is
    one of them, and only otherwise a grid of this bid alone."""
    stated = _stated_pair(workload)
    if among is None or bid not in among:
        among = _known_among(workload, bid)
    bids = among if among is not None else (bid,)
    grid = _grid(workload, bids, stated)
    k = bids.index(bid)
    steps = {p: t[k] for p, t in grid.steps.items() if grid.fits[p][k]}
    if ran is None or ran not in steps:
        ran = best_schedule(workload, (bid,))
    return ScheduleRange(stated[0], stated[1], ran, steps)


def schedule_doubts(
    workload: Workload, bid: Bid, ran: Pair, among: tuple[Bid, ...] | None = None
) -> tuple[tuple[str, float], ...]:
    """The Monte Carlo's common streams for the assumed schedule: (stream, log-space sigma) for
    each unstated knob whose feasible range moves this bid's step time."""
    if all(_stated_pair(workload)):
        return ()
    found = schedule_range(workload, bid, ran, among)
    return tuple(
        (name, found.sigma(knob))
        for knob, name in enumerate((INTERLEAVE_STREAM, MICRO_BATCH_STREAM))
        if found.sigma(knob) > 0
    )


def _listed(values: list[int]) -> str:
    return ", ".join(str(x) for x in sorted(values))


def schedule_words(workload: Workload, bid: Bid, ran: Pair | None = None) -> tuple[str, str] | None:
    """The Pipeline schedule assumption's value and source, or None when both knobs are stated or
    no other schedule is feasible; `ran`: the schedule the estimate ran (best over all the bids)."""
    found = schedule_range(workload, bid, ran)
    unstated = [
        (knob, name)
        for knob, name in ((0, "interleave"), (1, "micro-batch"))
        if not (found.interleave_stated, found.micro_batch_stated)[knob]
        and len(found.along(knob)) > 1
    ]
    if not unstated:
        return None
    v, size = found.assumed
    steps = found.step_s
    changes = [t / steps[found.assumed] - 1.0 for t in steps.values()]
    which = " and ".join(name for _, name in unstated)
    allows = "; ".join(f"{name} {_listed(list(found.along(knob)))}" for knob, name in unstated)
    return (
        f"interleave {v}, micro-batch {size} (assumed: the best schedule the layout allows; the "
        f"workload does not state the {which})",
        f"the layout allows {allows}; over them this bid's step time moves "
        f"{min(changes):+.1%} to {max(changes):+.1%}, the slowest of each drawn at P90 of the "
        f"bands; state the framework's {which} to remove the doubt",
    )
