"""Issue 32 item 4: the Monte Carlo runs the cost model in float32 (costmodel/real_arrays.py), and
the point estimate stays in float64. The float32 samples are checked against the same draws run
through the cost model in float64, and the SLA's one-pass breach chance against the Poisson sum
written out here."""

from __future__ import annotations

import math

import numpy as np

from clusterbid.core.costmodel.real_arrays import floats
from clusterbid.core.costmodel.sla_credit import HOURS_PER_MONTH, breach_probability
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import Spreads, sampling
from clusterbid.core.uncertainty.model_inputs import outcomes


def test_floats_keeps_float64_inputs_as_numpy_made_them_and_float32_ones_narrow():
    assert floats(512).dtype == np.float64 and floats(np.arange(3)).dtype == np.float64
    assert floats(np.ones(2, np.float64), like=np.ones(2, np.float32)).dtype == np.float64
    assert floats(np.ones(2, np.float32)).dtype == np.float32
    # A scalar meeting float32 bid columns takes their precision (a float64 0-d array would widen
    # every (bids x samples) array it touches back to float64).
    scalar = floats(512, like=np.ones((2, 1), np.float32))
    assert scalar.dtype == np.float32 and float(scalar) == 512.0
    assert floats(512, like=np.ones((2, 1))).dtype == np.float64


def drawn_block_arrays():
    """The demo's first block of bids, drawn for one pass of 4,096 samples."""
    evaluation = demo_evaluation()
    setup = sampling.setup(evaluation, evaluation.policy.random_seed, Spreads(), None)
    assert setup is not None
    common = {
        key: gen.standard_normal(sampling.CHUNK, dtype=np.float32)
        for key, gen in setup.shared_gens.items()
    }
    block = setup.blocks[0]
    factors = sampling._factors(block, sampling.CHUNK, common)
    return setup.workload, sampling._drawn_arrays(block, factors, sampling.CHUNK)


def test_the_samples_are_float32_and_within_a_millionth_of_the_same_draws_in_float64():
    workload, arrays = drawn_block_arrays()
    narrow = outcomes(workload, arrays)
    widened = arrays.replace(
        **{
            name: getattr(arrays, name).astype(np.float64)
            for name in arrays.__slots__
            if getattr(arrays, name).dtype == np.float32
        }
    )
    wide = outcomes(workload, widened)
    assert narrow.cost.dtype == np.float32 and narrow.wall_hours.dtype == np.float32
    assert wide.cost.dtype == np.float64
    # float32 carries 24 bits (6e-8 relative); the model's few dozen steps stay well inside 1e-6:
    # $1.6 on a $1.6 million plan, less than the $1 the bands are printed to only at the margin.
    for got, exact in (
        (narrow.cost, wide.cost),
        (narrow.wall_hours, wide.wall_hours),
        (narrow.contract.commitment, wide.contract.commitment),
    ):
        assert np.max(np.abs(got / exact - 1.0)) < 1e-6


def poisson_breach(lam: float, k: int) -> float:
    """1 - P(N <= k) for N ~ Poisson(lam), term by term."""
    return 1.0 - sum(math.exp(-lam) * lam**j / math.factorial(j) for j in range(k + 1))


def test_the_one_pass_breach_chance_is_the_poisson_tail_when_no_month_absorbs_a_failure():
    rates = np.array([[1e-4, 2e-4, 5e-5], [3e-4, 1e-4, 2e-4]])  # per GPU-hour
    down = np.array([[72.0, 48.0, 96.0], [24.0, 30.0, 12.0]])  # hours a failed node is down
    allowance = np.array([[0.73], [3.65]])  # 99.9% and 99.5% of a 730-hour month
    got = breach_probability(rates, 8.0, down, allowance)
    for row in range(2):
        for col in range(3):
            lam = rates[row, col] * 8 * HOURS_PER_MONTH
            assert math.isclose(got[row, col], poisson_breach(lam, 0), rel_tol=1e-12)


def test_a_month_that_absorbs_failures_still_takes_the_general_sum():
    rates = np.array([[1e-3, 2e-3]])
    down = np.array([[1.0, 2.0]])  # a 1-hour swap: 3.65 h absorbs 3 failures, 2 h swaps absorb 1
    got = breach_probability(rates, 8.0, down, np.array([[3.65]]))
    for col, k in ((0, 3), (1, 1)):
        lam = rates[0, col] * 8 * HOURS_PER_MONTH
        assert math.isclose(got[0, col], poisson_breach(lam, k), rel_tol=1e-9)
