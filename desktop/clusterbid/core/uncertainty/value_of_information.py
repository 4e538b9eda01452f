"""Value of information: which measurement, of which bid, could change the decision, and what
deciding without it costs in expectation (resources/methodology.md, section 11).

The decision is the bid with the lowest expected net plan cost over the Monte Carlo samples. A
perfect measurement of one input of one bid replaces that input's draw by its true value; the
decision can then follow the expected costs given that value. Its expected value (EVPPI, the
partial expected value of perfect information) is

    min_j E[C_j] - E_x[ min_j E[C_j | x] ]

estimated from the samples themselves: sort them by the input's draw, cut them into bins of
equal count and average each bid's cost per bin. Common random numbers make this cheap and
exact in its dependence: each bid draws each input from its own stream, so only the measured
bid's cost depends on the value (and, for baseline MFU, every bid that shares the market-wide
shock); every other bid keeps its overall mean, which keeps sampling noise out of the minimum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.sampling import PlanSamples, sample_plan_costs
from clusterbid.core.uncertainty.spreads import Spreads

# Samples per bin at least (a bin mean's noise is the cost's spread / sqrt(400), about 5% of it),
# and no more bins than this (50 bins resolve a tipping point to 2% of the input's distribution).
MIN_PER_BIN = 400
MAX_BINS = 50


@dataclass(frozen=True, slots=True)
class InputValue:
    """What a perfect measurement of one input of one bid is worth to the decision."""

    bid_id: str
    input: str  # "busbw", "baseline_mfu", "failure_rate", "replacement_hours", "uptime" (spreads.bid_inputs)
    # what backs the figure now: an evidence grade, "spec", "from the buyer's figure", ...
    source: str
    evpi: float  # expected cost of deciding without it, evaluation currency
    change_probability: float  # chance the measurement makes another bid the better choice
    choice_after: dict[str, float]  # bid id -> chance it is the choice once the value is known
    # Issue 31: every bid one measurement informs. Where bids draw an input from the very same
    # shared streams (baseline MFU without evidence: the buyer's stack and the GPU type), measuring
    # it once settles it for all of them: one request, not one per bid. `bid_id` is the first.
    informs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ValueOfInformation:
    seed: int
    samples: int
    bins: int
    choice: str | None  # lowest expected net plan cost now (None: no bid passes the gates)
    expected_cost: dict[str, float]  # bid id -> mean net plan cost over the samples
    total_evpi: float  # knowing every input of every bid: E-cost of the choice - E[min cost]
    values: tuple[InputValue, ...]  # largest value first


def bin_count(samples: int) -> int:
    return max(1, min(MAX_BINS, samples // MIN_PER_BIN))


def _owners(plan: PlanSamples, bid: int, name: str) -> set[str]:
    return {
        owner for item in plan.inputs[bid] if item.name == name for owner, _ in item.shared_streams
    }


class _Sharing:
    """Which bids draw on each common stream, per input, found once per valuation (asking every
    bid for every (bid, input) pair was 1.25 million set builds at 500 bids, issue 32)."""

    def __init__(self, plan: PlanSamples) -> None:
        self.owners = {
            (bid, item.name): _owners(plan, bid, item.name)
            for bid, inputs in enumerate(plan.inputs)
            for item in inputs
        }
        self.users: dict[tuple[str, str], set[int]] = {}
        for (bid, name), owners in self.owners.items():
            for owner in owners:
                self.users.setdefault((name, owner), set()).add(bid)

    def depends_on(self, bid: int, name: str) -> list[int]:
        """Rows whose cost moves with this bid's draw of this input: the bid itself, and every bid
        that shares one of its common draws (the market, its GPU type, its fabric kind); the others
        are independent of the measurement (common random numbers), so they keep their overall mean."""
        rows = {bid}
        for owner in self.owners.get((bid, name), ()):
            rows |= self.users[(name, owner)]
        return sorted(rows)


def _order(values: np.ndarray) -> np.ndarray:
    """The same order as a stable argsort of `values`, faster: positive float32 figures order as
    their bit patterns do, and the sample's index in the low bits breaks ties as a stable sort
    does, so every key is distinct and a quick sort gives the one order there is."""
    if values.dtype != np.float32 or not (np.all(values > 0) and np.all(np.isfinite(values))):
        return np.argsort(values, kind="stable")
    keys = values.view(np.int32).astype(np.int64) << 32
    keys |= np.arange(len(values), dtype=np.int64)
    return np.argsort(keys)


def _bin_means(
    cost: np.ndarray, labels: np.ndarray, bins: int, counts: np.ndarray
) -> tuple[np.ndarray, bool]:
    """One bid's mean cost in each bin, and whether it has draws it cannot serve. A serving bid's
    cost is nan there (serving_value.py): its mean is over the draws that serve, as its band's,
    and a bin in which it never serves cannot choose it (inf)."""
    served = ~np.isnan(cost)
    if served.all():
        return np.bincount(labels, weights=cost, minlength=bins) / counts, False
    sums = np.bincount(labels, weights=np.where(served, cost, 0.0), minlength=bins)
    serving = np.bincount(labels, weights=served, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(serving > 0, sums / serving, np.inf), True


def _input_value(
    plan: PlanSamples,
    means: np.ndarray,
    choice: int,
    bid: int,
    name: str,
    bins: int,
    sharing: _Sharing,
) -> InputValue:
    n = plan.cost.shape[1]
    order = _order(plan.factors[name][bid])
    starts = (np.arange(bins) * n) // bins
    share = np.diff(np.append(starts, n)) / n
    conditional = np.repeat(means[:, None], bins, axis=1)
    rows = sharing.depends_on(bid, name)
    # Each sample's bin, then each row's bin sums in sample order (no copy of the costs in sorted
    # order). The float64 sum of float32 costs is exact at these magnitudes, so the order of the
    # adding does not change a bit of it.
    labels = np.empty(n, dtype=np.intp)
    labels[order] = np.repeat(np.arange(bins), np.diff(np.append(starts, n)))
    gaps = False  # serving: a binned bid that cannot serve some draws (nan there)
    for row in rows:
        conditional[row], gap = _bin_means(plan.cost[row], labels, bins, share * n)
        gaps |= gap
    chosen = np.argmin(conditional, axis=0)
    # Each bin's saving over keeping the choice: exactly 0 where the choice stays. (A serving bid's
    # bin means over the draws it serves need not average back to its overall mean when bins serve
    # unequally; where the choice never serves in a bin, that bin saves nothing counted.)
    kept = conditional[choice]
    saving = kept - conditional[chosen, np.arange(bins)]
    evpi = float(share @ (np.where(np.isfinite(kept), saving, 0.0) if gaps else saving))
    item = next(i for i in plan.inputs[bid] if i.name == name)
    return InputValue(
        bid_id=plan.ids[bid],
        input=name,
        source=item.source,
        evpi=max(evpi, 0.0),  # >= 0 up to rounding: a mean of minima
        change_probability=float(share[chosen != choice].sum()),
        choice_after={plan.ids[j]: float(share[chosen == j].sum()) for j in np.unique(chosen)},
    )


def _measurement(plan: PlanSamples, bid: int, name: str) -> tuple[str, object]:
    """What a measurement of this bid's input measures: its shared streams alone when the bid has
    no draw of its own (one measurement for every bid on them), else this bid's input."""
    item = next(i for i in plan.inputs[bid] if i.name == name)
    if item.sigma == 0 and item.shared_streams:
        return (name, tuple(sorted(owner for owner, _ in item.shared_streams)))
    return (name, plan.ids[bid])


def _one_per_measurement(plan: PlanSamples, values: list[InputValue]) -> list[InputValue]:
    """Bids whose input is the same measurement share one value (their draws are identical up to a
    constant, so their values are too), naming every bid it informs."""
    row = {bid_id: k for k, bid_id in enumerate(plan.ids)}
    merged: dict[tuple[str, object], InputValue] = {}
    for v in values:
        key = _measurement(plan, row[v.bid_id], v.input)
        if key in merged:
            first = merged[key]
            merged[key] = InputValue(
                first.bid_id,
                first.input,
                first.source,
                max(first.evpi, v.evpi),
                max(first.change_probability, v.change_probability),
                first.choice_after,
                (*first.informs, v.bid_id),
            )
        else:
            merged[key] = InputValue(
                v.bid_id,
                v.input,
                v.source,
                v.evpi,
                v.change_probability,
                v.choice_after,
                (v.bid_id,),
            )
    return list(merged.values())


def value_from_samples(
    plan: PlanSamples, step: Callable[[float], None] | None = None
) -> ValueOfInformation:
    """Every (bid, input) pair valued on the same samples, largest value first. `step` is told the
    share done before each pair (the app's worker stops there when a newer edit comes)."""
    samples = plan.cost.shape[1]
    bins = bin_count(samples)
    if not plan.ids:
        return ValueOfInformation(plan.seed, samples, bins, None, {}, 0.0, ())
    gaps = bool(np.isnan(plan.cost).any())  # serving: nan where a bid cannot serve a draw
    mean = np.nanmean if gaps else np.mean
    means = mean(plan.cost.astype(np.float64), axis=1)  # over the draws that serve
    choice = int(np.argmin(means))
    # Knowing everything: each draw's cheapest bid that serves (every draw has one in training),
    # against the choice on the same draws. Serving: over the draws the choice serves, as its
    # mean is; its mean over those draws against the cheapest over all of them came out below
    # zero (its cheaper draws are the ones it serves) and printed $0 beside single measurements
    # worth more.
    cheapest = (np.fmin.reduce if gaps else np.min)(plan.cost, axis=0).astype(np.float64)
    if gaps:
        served = np.isfinite(plan.cost[choice])
        cheapest = cheapest[served]
    total = float(means[choice] - mean(cheapest))
    sharing = _Sharing(plan)
    pairs = [(bid, item.name) for bid, inputs in enumerate(plan.inputs) for item in inputs]
    valued = []
    for done, (bid, name) in enumerate(pairs):
        if step is not None:
            step(done / len(pairs))
        valued.append(_input_value(plan, means, choice, bid, name, bins, sharing))
    values = _one_per_measurement(plan, valued)
    values.sort(key=lambda v: (-v.evpi, -v.change_probability, v.bid_id, v.input))
    expected = {bid_id: float(m) for bid_id, m in zip(plan.ids, means, strict=True)}
    return ValueOfInformation(
        plan.seed, samples, bins, plan.ids[choice], expected, max(total, 0.0), tuple(values)
    )


def value_of_information(
    evaluation: Evaluation,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    *,
    spreads: Spreads | None = None,
    scorecard: Scorecard | None = None,
    step: Callable[[float], None] | None = None,
) -> ValueOfInformation:
    """Draw the Monte Carlo's samples (same seed, same draws as run_monte_carlo) and value them."""
    plan = sample_plan_costs(
        evaluation,
        samples,
        seed,
        spreads=spreads,
        scorecard=scorecard,
        between_passes=None if step is None else lambda: step(0.0),
    )
    return value_from_samples(plan, step)
