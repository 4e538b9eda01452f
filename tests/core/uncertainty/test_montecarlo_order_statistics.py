"""Issue 32 item 4: the Monte Carlo's P10/P50/P90 selected inside brackets from a strided
subsample are the very figures a full sort gives, bit for bit, on any row: ties, signed zeros,
constants, heavy tails, rows of 1, 2 or 3 samples, and rows whose bracket misses (forced), where
the row must be selected whole."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusterbid.core.uncertainty import order_statistics
from clusterbid.core.uncertainty.order_statistics import (
    MARGIN,
    PERCENTILES,
    SHORTEST,
    bracketed,
    percentiles,
)


def sorted_percentiles(row: np.ndarray) -> np.ndarray:
    """P10/P50/P90 of one row from a full sort: numpy's linear definition (Hyndman & Fan's
    type 7), order statistics a = x[floor(h)] and b = x[floor(h) + 1] at h = p (n - 1), written
    a + (b - a) (h - floor(h)) in float64, the formula the memo's figures have always used."""
    ordered = np.sort(row.astype(np.float64))
    n = len(ordered)
    out = []
    for p in (10, 50, 90):
        h = p / 100 * (n - 1)
        k = int(np.floor(h))
        a, b = ordered[k], ordered[min(k + 1, n - 1)]
        out.append(a + (b - a) * (h - k))
    return np.array(out)


def rows_of(kind: str, bids: int, samples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "normal":
        values = rng.standard_normal((bids, samples))
    elif kind == "ties":  # few distinct values, zeros of both signs among them
        values = np.round(rng.standard_normal((bids, samples)) * 2) / 2 * rng.choice([1, -1])
    elif kind == "constant":  # a fixed commitment: the same figure in every sample
        values = np.full((bids, samples), rng.uniform(-1e6, 1e6))
    elif kind == "heavy":  # Cauchy tails, finite in float32
        values = np.clip(rng.standard_cauchy((bids, samples)), -1e30, 1e30)
    else:  # lognormal costs, the Monte Carlo's usual shape
        values = rng.lognormal(15.0, 0.3, (bids, samples))
    return values.astype(np.float32)


KINDS = st.sampled_from(["normal", "ties", "constant", "heavy", "costs"])


def check(values: np.ndarray, **options: float) -> None:
    expected = np.array([sorted_percentiles(row) for row in values]).T
    got = percentiles(values.copy(), **options)
    assert got.dtype == np.float64 and got.shape == (3, len(values))
    assert got.tobytes() == expected.tobytes()  # every bit, the signs of zeros included
    # numpy's own np.percentile writes b - (b - a)(1 - t) when t >= 0.5, which can differ from
    # the memo's formula in the last bit: within a few units of the last place of the row.
    numpy_says = np.percentile(values.astype(np.float64), [10, 50, 90], axis=1)
    scale = np.max(np.abs(values.astype(np.float64)), axis=1) + 1e-300
    assert np.all(np.abs(got - numpy_says) <= 4 * np.spacing(scale))


@settings(max_examples=200, deadline=None)
@given(KINDS, st.integers(1, 3), st.integers(1, 400), st.integers(0, 2**32 - 1))
def test_bracketed_percentiles_equal_a_full_sort_on_short_rows(kind, bids, samples, seed):
    # shortest=1: the brackets are tried on every row, down to 1, 2 and 3 samples.
    check(rows_of(kind, bids, samples, seed), shortest=1)


@settings(max_examples=40, deadline=None)
@given(KINDS, st.integers(4096, 20_000), st.integers(0, 2**32 - 1))
def test_bracketed_percentiles_equal_a_full_sort_at_run_sizes(kind, samples, seed):
    check(rows_of(kind, 2, samples, seed))


@settings(max_examples=60, deadline=None)
@given(KINDS, st.integers(1, 6000), st.integers(0, 2**32 - 1), st.sampled_from([0.0, -3.0, -50.0]))
def test_a_bracket_forced_to_miss_still_gives_the_full_sort(kind, samples, seed, margin):
    # A margin of 0 or less: brackets too narrow (or empty) that often miss; those rows go whole.
    check(rows_of(kind, 2, samples, seed), margin=margin, shortest=1)


def ranks(count: int) -> tuple[np.ndarray, np.ndarray]:
    below = np.floor(np.array([0.1, 0.5, 0.9]) * (count - 1)).astype(int)
    return below, np.minimum(below + 1, count - 1)


def unlucky_row(count: int = 8192) -> np.ndarray:
    """A row whose every 16th sample is among its largest: the subsample says nothing of P10."""
    row = np.arange(count, dtype=np.float32)
    row[::16] = 1e6 + np.arange(len(row[::16]), dtype=np.float32)
    return row


def test_an_unrepresentative_subsample_misses_and_the_row_is_selected_whole(monkeypatch):
    row = unlucky_row()
    assert bracketed(row.copy(), *ranks(len(row)), MARGIN) is None
    whole = []
    select = order_statistics.selected_whole
    monkeypatch.setattr(
        order_statistics,
        "selected_whole",
        lambda values, below, above: whole.append(len(values)) or select(values, below, above),
    )
    fair = np.random.default_rng(4).lognormal(15.0, 0.3, len(row)).astype(np.float32)
    values = np.stack([fair, row, fair])
    got = percentiles(values.copy())
    assert whole == [1]  # the unlucky row alone, once
    assert got.tobytes() == np.array([sorted_percentiles(r) for r in values]).T.tobytes()


def test_a_fair_row_is_answered_by_its_brackets_and_a_constant_one_without_selection():
    row = np.random.default_rng(5).lognormal(15.0, 0.3, 100_000).astype(np.float32)
    found = bracketed(row.copy(), *ranks(len(row)), MARGIN)
    assert found is not None
    ordered = np.sort(row)
    below, above = ranks(len(row))
    assert list(found[0]) == list(ordered[below]) and list(found[1]) == list(ordered[above])
    constant = np.full(100_000, 1_234_567.0, dtype=np.float32)
    low, high = bracketed(constant, *ranks(len(constant)), MARGIN)
    assert list(low) == list(high) == [1_234_567.0] * 3


@pytest.mark.parametrize("margin", [-3.0, -50.0])
def test_too_narrow_a_bracket_is_caught_not_trusted(margin):
    row = np.random.default_rng(6).standard_normal(50_000).astype(np.float32)
    assert bracketed(row.copy(), *ranks(len(row)), margin) is None


def test_the_kept_samples_are_only_read_even_when_a_row_is_selected_whole():
    fair = np.random.default_rng(7).lognormal(15.0, 0.3, 8192).astype(np.float32)
    values = np.stack([fair, unlucky_row(), fair[:8192]])
    before = values.copy()
    got = percentiles(values, [2, 1])  # some rows, in another order
    assert values.tobytes() == before.tobytes()
    assert got.tobytes() == np.array([sorted_percentiles(before[r]) for r in (2, 1)]).T.tobytes()
    short = values[:, :100].copy()
    percentiles(short)
    assert short.tobytes() == before[:, :100].tobytes()


def test_a_row_with_a_nan_has_no_percentiles_whichever_way_it_is_selected():
    # Found by review: the bracket skipped a NaN (comparisons are false) and gave a finite P90,
    # while the whole selection's min passed it on. np.percentile gives NaN: so do both now.
    rows = np.random.default_rng(1).standard_normal((2, 5000)).astype(np.float32)
    rows[0, 7] = np.nan
    expected = np.percentile(rows, PERCENTILES, axis=1)
    assert np.isnan(expected[:, 0]).all()
    for shortest in (SHORTEST, 10**9):  # bracketed, then selected whole
        found = percentiles(rows, shortest=shortest)
        assert np.isnan(found[:, 0]).all()
        assert found[:, 1] == pytest.approx(expected[:, 1], rel=1e-6)  # numpy's last bit
