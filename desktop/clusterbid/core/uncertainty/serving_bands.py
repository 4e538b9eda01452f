"""What the serving bands report (issue 37): each bid's P10/P50/P90, its chance of being cheapest,
the fleet at the approval's percentile, and each pair's chance of one being cheaper, summarised
from the per-draw figures serving_montecarlo works out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from clusterbid.core.costmodel.serving_estimate import ServingEstimates

# As training's (montecarlo.py): every chance of being cheapest known to +/- 1 point at 95%.
WIN_PRECISION = 0.01
WIN_Z = 1.959964
PERCENTILES = (10.0, 50.0, 90.0)


def chances_known(ranked: np.ndarray) -> bool:
    """Every bid's chance of being cheapest over these samples (bids x samples, inf: cannot
    serve) known to +/- WIN_PRECISION at 95% (normal approximation of a binomial share)."""
    n = ranked.shape[1]
    wins = np.isfinite(ranked).any(axis=0)
    winner = np.argmin(ranked, axis=0)
    share = np.array([np.mean(wins & (winner == i)) for i in range(ranked.shape[0])])
    return bool(np.all(WIN_Z * np.sqrt(share * (1 - share) / n) <= WIN_PRECISION))


@dataclass(frozen=True, slots=True)
class ServingBand:
    bid_id: str
    cost_per_million: tuple[float, float, float]  # P10, P50, P90 (nan: never servable)
    monthly_cost: tuple[float, float, float]
    chance_cheapest: float
    chance_servable: float  # share of samples in which the bid meets the targets at all
    # Issue 31: the mean cost per million over the samples that serve, and the share of them at or
    # below the point estimate's figure (a fleet sized in whole nodes can be its own P10).
    mean_cost_per_million: float = float("nan")
    point_percentile: float = float("nan")
    # Issue 31: the fleet the approval is sized at, the draw at the workload's fleet_percentile of
    # the monthly bill (one real fleet, so its GPUs and its bill agree): (GPUs needed, billed, bill).
    fleet_percentile: int = 80
    fleet_at_percentile: tuple[int, int, float] | None = None
    # Issue 37: the share of draws in which the fleet as costed meets both targets at the stated
    # peak, its batch retuned to the draw (serving_slo); nan when the bid cannot serve.
    chance_meets_slo_at_peak: float = float("nan")
    # Issue 37: the months at whose peak that chance is judged (month 1 and the term's last when the
    # traffic grows or its growth is drawn; serving_growth_words.judged_months).
    judged_months: tuple[int, ...] = (1,)

    def decision_cost(self, basis: str) -> float:
        return self.mean_cost_per_million if basis == "expected" else self.cost_per_million[1]


@dataclass(frozen=True, slots=True)
class ServingUncertainty:
    samples: int
    seed: int
    bands: tuple[ServingBand, ...]  # entry order of the estimates
    # Issue 34: the share of draws in which one bid costs less per million tokens than another
    # ((cheaper, than) -> share; a draw where a bid cannot serve counts as not cheaper), for up to
    # PAIRWISE_MAX_BIDS bids (bids x bids x samples comparisons); empty beyond.
    cheaper_than: dict[tuple[str, str], float] = field(default_factory=dict)

    def chance_cheaper(self, bid_id: str, than: str) -> float | None:
        return self.cheaper_than.get((bid_id, than))


PAIRWISE_MAX_BIDS = 64  # 64 x 64 x 20,000 comparisons at most (about 0.1 s); more: not computed


def cheaper_than(estimates: ServingEstimates, ranked: np.ndarray) -> dict[tuple[str, str], float]:
    """Each ordered pair's share of draws in which the first costs less than the second."""
    ids = [e.bid.id for e in estimates.bids]
    if len(ids) > PAIRWISE_MAX_BIDS or ranked.shape[1] == 0:
        return {}
    pairs = {}
    for i, bid_id in enumerate(ids):
        shares = (ranked[i][None, :] < ranked).mean(axis=1)  # inf < inf is False: neither serves
        pairs.update({(bid_id, other): float(shares[j]) for j, other in enumerate(ids) if j != i})
    return pairs


def fleet_at(
    monthly: np.ndarray, gpus: np.ndarray, percentile: int
) -> tuple[int, int, float] | None:
    """The serving draw at `percentile` of the monthly bill (the smallest draw with at least that
    share of the serving draws at or below it): its GPUs needed and billed, and its bill."""
    serving = np.flatnonzero(np.isfinite(monthly))
    if serving.size == 0:
        return None
    k = max(int(np.ceil(percentile / 100.0 * serving.size)) - 1, 0)
    # The k-th of the serving draws in a stable sort of their bills, without the sort: its bill
    # is the k-th smallest, and among the draws at that bill (whole-node bills tie often), taken
    # in draw order, it is the (k - the draws below that bill)-th.
    bills = monthly[serving]
    bill = np.partition(bills, k)[k]
    at = serving[np.flatnonzero(bills == bill)[k - int(np.count_nonzero(bills < bill))]]
    return int(gpus[0, at]), int(gpus[1, at]), float(monthly[at])


def percentiles(values: np.ndarray) -> tuple[float, float, float]:
    """Percentiles over the samples that serve (an unservable sample is not a cost)."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return (np.nan, np.nan, np.nan)
    low, middle, high = (float(v) for v in np.percentile(finite, PERCENTILES))
    return low, middle, high
