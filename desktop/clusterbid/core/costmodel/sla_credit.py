"""The SLA credit a buyer can expect to collect, vectorised like contract.py (issue 39, item 4).

An SLA is measured per node and month in the published texts. A node fails N times in a month,
N Poisson with mean lambda = failures per GPU-hour x GPUs per node x 730 h, and each failure
keeps it down R hours (the replacement, or a swap from the provider's pool when the bid offers
one). The SLA allows (1 - uptime) x 730 h of downtime, so the month is breached when N > k with
k = floor(allowance / R): P(breach) = 1 - sum_{j<=k} e^-lambda lambda^j / j!. The Monte Carlo
draws the failure rate and the replacement time, so the probability is drawn with them.

expected claimable credit = commitment x P(breach) x covered share x claimed share x min(credit, cap)
headline credit           = commitment x P(breach) x credit (every breach paid at face value)

The claimable credit lowers the net cost; the headline is shown beside it, never counted.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.real_arrays import floats
from clusterbid.core.provenance import effective_reliability

HOURS_PER_MONTH = 730.0  # as contract.py: an SLA month
MAX_FAILURES_COUNTED = (
    400  # beyond this many failures a month the breach is certain to float precision
)
# BidArrays columns: downtime a node-month may have within the stated uptime; covered x claimed x
# capped credit; the stated credit at face value.
COLUMNS = ("sla_allowance_hours", "sla_claimable_share", "sla_headline_share")


def sla_row(bid: Bid) -> dict[str, float]:
    """The bid's SLA columns (BidArrays): the month's allowed downtime and the credit as shares."""
    reliability = effective_reliability(
        bid
    )  # an unstated uptime or credit takes its documented default
    terms = bid.sla_claims
    credit = float(reliability.sla_credit_percent)
    return {
        "sla_allowance_hours": (1.0 - float(reliability.uptime_sla_percent) / 100.0)
        * HOURS_PER_MONTH,
        "sla_claimable_share": terms.covered_share()
        * terms.claimed_share()
        * terms.capped_credit_share(credit),
        "sla_headline_share": credit / 100.0,
    }


def breach_probability(
    failures_per_gpu_hour: Any, gpus_per_node: Any, down_hours: Any, allowance_hours: Any
) -> np.ndarray:
    """P(a node's month breaches the SLA), elementwise (see the module's formula)."""
    lam = floats(failures_per_gpu_hour) * gpus_per_node * HOURS_PER_MONTH
    down = floats(down_hours)
    allowance = floats(allowance_hours, like=down)
    # k = 0 everywhere (no month absorbs a failure): P(breach) = P(N >= 1), in one pass.
    if lam.shape == down.shape and _absorbs_none(down, allowance):
        return np.asarray(1.0 - np.exp(-lam))
    safe_down = np.where(down > 0, down, 1.0)
    k = np.where(
        down > 0, np.floor(allowance / safe_down + 1e-9), np.inf
    )  # failures the month absorbs
    finite = k[np.isfinite(k)]
    top = int(min(finite.max(initial=0.0), MAX_FAILURES_COUNTED))
    term = np.exp(-lam)  # P(N = 0)
    within = term * (k >= 0)
    for j in range(1, top + 1):
        term = term * lam / j
        within = within + term * (k >= j)
    p = 1.0 - within
    return np.where(np.isfinite(k), np.clip(p, 0.0, 1.0), 0.0)


def _absorbs_none(down: np.ndarray, allowance: np.ndarray) -> bool:
    """Whether no month absorbs a single failure (k = 0 for every bid and sample), the usual case
    (a 99.9% uptime allows 0.73 h a month, less than a repair). Checked on each bid's shortest
    repair alone: the allowance over it is the largest ratio the row has (division and floor are
    monotone), so this is the general formula's k without its passes over the samples."""
    if down.ndim != 2 or allowance.shape != (down.shape[0], 1) or not np.all(down > 0):
        return False
    shortest = down.min(axis=1, keepdims=True)
    return bool(np.all(allowance >= 0) and np.floor(allowance / shortest + 1e-9).max() < 1)


def node_down_hours(b: Any) -> Any:
    """Hours a failed node is down: its replacement, or the pool's swap where the bid offers one."""
    swap = b.pool_swap_hours
    if not np.any(np.isfinite(swap)):
        return b.node_replacement_hours
    return np.where(
        np.isfinite(swap), np.minimum(b.node_replacement_hours, swap), b.node_replacement_hours
    )


def sla_credits(b: Any, commitment: Any) -> tuple[Any, Any]:
    """(expected claimable credit, headline credit) on `commitment`, elementwise."""
    if not np.any(b.sla_headline_share):
        zero = np.zeros(np.shape(commitment), dtype=np.result_type(commitment))
        return zero, zero
    p = breach_probability(
        b.failures_per_gpu_hour, b.gpus_per_node, node_down_hours(b), b.sla_allowance_hours
    )
    return commitment * p * b.sla_claimable_share, commitment * p * b.sla_headline_share
