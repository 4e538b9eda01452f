"""P10/P50/P90 of each row of the Monte Carlo's kept samples, exactly as a full sort gives them
(numpy's default linear definition), by selecting inside a small bracket (issue 32 item 4).

A row's samples are i.i.d., so every STRIDE-th one is a fair subsample. Sorted, it gives a pivot
near each wanted rank; one count of the row below the pivot gives the pivot's exact rank, and
the bracket [lo, hi] steps from it by the sample's ranks per rank of the row, with a margin of
MARGIN standard errors. One more pass gathers the samples in [lo, hi] and the order statistics
are selected among those few. Whether the bracket holds both ranks is checked, never assumed:
when it does not (bad luck, a NaN) the row is selected whole, as before, and so are rows shorter
than SHORTEST. A constant row needs no selection. Either way the order statistics, and so the
figures, are the very samples a full sort puts at those ranks."""

from __future__ import annotations

import numpy as np

PERCENTILES = (10.0, 50.0, 90.0)
STRIDE = 16  # one sample in 16 sets the brackets
MARGIN = 4.0  # standard errors of a step: a miss (about 1e-4 a row) only costs time
SHORTEST = 4096  # rows shorter than this are selected whole (the bracket would not pay)


def percentiles(
    values: np.ndarray,
    rows: list[int] | None = None,
    *,
    margin: float = MARGIN,
    shortest: int = SHORTEST,
) -> np.ndarray:
    """P10/P50/P90 along the samples axis of (bids, samples) `values` (of its `rows`, in that
    order, None: all), as (3, rows) float64: numpy's linear definition, written
    low + (high - low) * fraction between the two order statistics.

    `values` is only read, never reordered (a row selected whole is copied first), so kept
    samples need no copy. `margin` and `shortest` are there for the tests to force a bracket to
    miss or to be tried on a short row."""
    order = list(range(len(values))) if rows is None else rows
    count = values.shape[1]
    position = np.asarray(PERCENTILES) / 100.0 * (count - 1)
    below = np.floor(position).astype(int)
    above = np.minimum(below + 1, count - 1)
    if count < shortest:
        low, high = selected_whole(values[order], below, above)  # indexing by a list copies
    else:
        low = np.empty((len(below), len(order)), dtype=float)
        high = np.empty_like(low)
        for i, row in enumerate(order):
            found = bracketed(values[row], below, above, margin)
            if found is None:  # the bracket missed: select a copy of the row whole
                found = selected_whole(values[row : row + 1].copy(), below, above)
            low[:, i : i + 1], high[:, i : i + 1] = (a.reshape(-1, 1) for a in found)
    result: np.ndarray = low + (high - low) * (position - below)[:, None]
    # A row with a NaN has no percentiles, as np.percentile says (min passes a NaN on): the
    # bracket would have skipped the NaN and the whole selection kept it, so neither is asked.
    result[:, np.isnan(values.min(axis=1)[order])] = np.nan
    return result


def bracketed(
    row: np.ndarray, below: np.ndarray, above: np.ndarray, margin: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The order statistics at ranks `below` and `above` of `row`, selected inside brackets set
    from a strided subsample; None when a bracket misses a rank (the caller selects whole)."""
    sample = np.sort(row[::STRIDE])  # sorting beats partitioning at six ranks here
    if sample[0] == sample[-1] and row.min() == row.max():
        value = np.full(len(below), float(row[0]))  # a constant row: nothing to select
        return value, value
    low, high = np.empty(len(below)), np.empty(len(below))
    for j, (k, k_up) in enumerate(zip(below.tolist(), above.tolist())):
        lo, under, hi = _bracket(row, sample, k, k_up, margin)
        inside = np.compress((row >= lo) & (row <= hi), row)
        if not under <= k <= k_up < under + len(inside):
            return None  # the bracket misses a rank: select the row whole
        inside.partition([k - under, k_up - under])
        low[j], high[j] = inside[k - under], inside[k_up - under]
    return low, high


def _bracket(
    row: np.ndarray, sample: np.ndarray, k: int, k_up: int, margin: float
) -> tuple[np.floating, int, np.floating]:
    """(lo, the count of `row` below lo, hi) meant to hold ranks k..k_up of `row`.

    The sample's value at the rank's place is a pivot whose exact rank one count gives; the
    bounds step from it by the sample's ranks per rank of the row, plus `margin` standard
    errors (the number of sample values among d of the row's is about binomial(d, 1 / STRIDE))."""
    m, scale = len(sample), len(sample) / len(row)

    def reach(ranks: int) -> int:  # sample ranks that surely cover `ranks` of the row's
        expected = max(ranks, 0) * scale
        return int(expected + margin * np.sqrt(expected) + 2.0)

    at = min(int(k * scale), m - 1)
    lo = sample[at]
    under = int(np.count_nonzero(row < lo))  # the pivot's rank in the row
    if under > k:  # the pivot is above rank k: step down past it
        at = min(max(at - reach(under - k), 0), m - 1)
        lo = sample[at]
        under = int(np.count_nonzero(row < lo))
    return lo, under, sample[min(max(at + reach(k_up - under + 1), 0), m - 1)]


def selected_whole(
    values: np.ndarray, below: np.ndarray, above: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The order statistics at `below` and `above` of each row of `values`, selecting in place.

    Each order statistic below a percentile is found by partitioning only the part left of the
    one above it (largest first), and the next one up is the least of what lies between them.
    Returns (3, rows) arrays."""
    count = values.shape[1]
    statistic: dict[int, np.ndarray] = {}
    bound = count  # values[:, :bound] hold the `bound` least of each row
    for k in sorted(set(below.tolist()), reverse=True):
        values[:, :bound].partition(k, axis=1)
        statistic[k] = values[:, k].copy()
        if k + 1 < count:  # the least of values[:, k + 1 : bound] and the statistic at `bound`
            statistic[k + 1] = values[:, k + 1 : min(bound + 1, count)].min(axis=1)
        bound = k
    low = np.array([statistic[k] for k in below.tolist()], dtype=float)
    high = np.array([statistic[k] for k in above.tolist()], dtype=float)
    return low, high
