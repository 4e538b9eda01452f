"""The SLA credit a serving buyer can expect to claim (issue 37, item 3), worked by training's one
function (sla_credit.py): a node of the fleet fails as a training node does, breaches its month
when its downtime exceeds the SLA's allowance, and the buyer claims the covered, claimed and capped
share of the credit on that month's bill:

    expected claimable credit a month = monthly bill x P(breach) x covered x claimed x min(credit, cap)

The credit lowers the cost per million tokens (the buyer's net cost, as training's net cost); the
monthly bill and the approval stay the provider's contract money. The headline credit (every
breach paid at face value) is shown beside it, never counted. The point estimate's credit is one
share of each bid's bill, kept per bid as a column; the bands draw the failure rate and the
repair time behind it as training does (uncertainty/serving_reliability).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.sla_credit import sla_credits, sla_row
from clusterbid.core.money import format_money
from clusterbid.core.provenance import effective_reliability


@dataclass(frozen=True, slots=True)
class _SlaColumns:
    """The columns sla_credits reads, for one bid (the training BidArrays' names)."""

    failures_per_gpu_hour: np.ndarray
    gpus_per_node: np.ndarray
    node_replacement_hours: np.ndarray
    pool_swap_hours: np.ndarray
    sla_allowance_hours: np.ndarray
    sla_claimable_share: np.ndarray
    sla_headline_share: np.ndarray


def sla_columns(bid: Bid) -> _SlaColumns:
    """The bid's columns at its stated (or default) figures; the bands draw two of them."""
    reliability = effective_reliability(bid)  # unstated figures take their documented defaults
    swap = bid.reliability.pool_swap_hours
    row = sla_row(bid)
    return _SlaColumns(
        failures_per_gpu_hour=np.asarray(reliability.failures_per_1000_gpu_days / 1000.0 / 24.0),
        gpus_per_node=np.asarray(float(bid.capacity.gpus_per_node)),
        node_replacement_hours=np.asarray(float(reliability.node_replacement_hours)),
        pool_swap_hours=np.asarray(np.nan if swap is None else float(swap)),
        **{name: np.asarray(value) for name, value in row.items()},
    )


def sla_credit_shares(bid: Bid) -> tuple[float, float]:
    """(expected claimable credit, headline credit), each as a share of one month's bill."""
    claimable, headline = sla_credits(sla_columns(bid), 1.0)
    return float(claimable), float(headline)


def credit_words(claimable_per_month: float, headline_per_month: float, currency: str) -> str:
    """The claimable credit in words for the cost per million tokens' line: what it takes off and
    the headline it is not (never in the monthly bill or the approval)."""
    if claimable_per_month < 0.005:
        return "no SLA credit to speak of expected to be claimed"
    return (
        # How the claimable share is worked out is in the methodology (section 9): page 1 keeps
        # only what it takes off and the headline it is not.
        f"less {format_money(claimable_per_month, currency)} a month of SLA credit you can expect "
        f"to claim (headline {format_money(headline_per_month, currency)}, not counted), not in "
        "the monthly bill"
    )
