"""The precision the cost model computes in: the bids' own.

The point estimate runs on float64 arrays and is unchanged by this module. The Monte Carlo hands
the cost model float32 arrays (bids x samples): at float32 its passes move half the memory and
its exp, sqrt and divisions run several times faster, and a sample's figures are stored as
float32 in any case (issue 32). NumPy keeps an array's precision when it meets a Python number,
but widens it to float64 when it meets a float64 array, even a 0-d one: so a scalar the model
makes an array of (the job's GPU count, a message size) takes the precision of the bids' arrays
it will meet, and arrays already in float32 stay so.

Enough: on the demo's draws every float32 sample is within 4e-7 of the same draw run in float64
(at most $0.68 on a $1.6 million plan; tests/core/uncertainty/test_montecarlo_float32.py), and the
chances and win shares are unchanged; two of the bands the demo prints to the dollar moved by $1.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def floats(value: Any, like: Any = None) -> np.ndarray:
    """`value` as a float array, as np.asarray(value, dtype=float) made it, except that a float32
    array stays float32 and a scalar takes float32 when `like` (a bid column) is float32."""
    array = np.asarray(value)
    if array.dtype == np.float32:
        return array
    if array.ndim == 0 and like is not None and np.asarray(like).dtype == np.float32:
        return array.astype(np.float32)
    return np.asarray(array, dtype=float)
