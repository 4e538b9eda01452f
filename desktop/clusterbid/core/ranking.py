"""One ranking for every kind of bid. Bids a gate excludes are set aside; the rest are ranked by
a weighted score of a cost criterion (the cheapest cost over this bid's: 1 for the cheapest) and
the non-cost criteria, ties broken by cost. Training ranks the net cost of the plan, serving the
cost per million output tokens; everything else is the same, so it is written once here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from clusterbid.core.bid import Bid


class Estimate(Protocol):
    """What ranking needs of a cost model's estimate for one bid."""

    @property
    def bid(self) -> Bid: ...

    @property
    def passes_gates(self) -> bool: ...


E = TypeVar("E", bound=Estimate)


@dataclass(frozen=True, slots=True)
class BidScore(Generic[E]):
    estimate: E
    rank: int | None  # None: excluded by a gate
    cost_rank: int | None  # position by cost alone among the bids that pass the gates
    criteria: dict[str, float]  # each 0..1, 1 best
    weighted_score: float | None

    @property
    def bid(self) -> Bid:
        return self.estimate.bid


def rank_bids(
    estimates: Sequence[E],
    *,
    cost: Callable[[E], float],
    cost_criterion: str,
    weights: Mapping[str, float],
    criteria: Callable[[E], dict[str, float]],
) -> tuple[BidScore[E], ...]:
    """Ranked bids first, then the excluded ones in entry order. `weights` are normalised and
    name `cost_criterion` and every criterion `criteria` gives."""
    passing = [e for e in estimates if e.passes_gates]
    cost_order = sorted(passing, key=cost)
    cost_rank_of = {id(e): position for position, e in enumerate(cost_order, start=1)}
    scored: list[tuple[E, dict[str, float], float | None]] = []
    for estimate in estimates:
        values = criteria(estimate)
        weighted = None
        if estimate.passes_gates:
            values = {cost_criterion: cost(cost_order[0]) / cost(estimate), **values}
            weighted = sum(weights[name] * value for name, value in values.items())
        scored.append((estimate, values, weighted))
    ranked = sorted(
        (s for s in scored if s[2] is not None), key=lambda s: (-(s[2] or 0.0), cost(s[0]))
    )
    rank_of = {id(s[0]): position for position, s in enumerate(ranked, start=1)}
    return tuple(
        BidScore(e, rank_of.get(id(e)), cost_rank_of.get(id(e)), values, weighted)
        for e, values, weighted in ranked + [s for s in scored if s[2] is None]
    )
