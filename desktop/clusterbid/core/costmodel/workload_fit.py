"""Warnings when a bid's infrastructure is built for the other kind of workload (seed 003:
"Pay for interconnect when you're training. Pay for memory bandwidth when you're serving.")."""

from __future__ import annotations

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import Catalog
from clusterbid.core.costmodel.gates import Finding

# A contiguous block on one RDMA fabric of at least this many nodes is what a provider builds
# for synchronous multi-node training; serving replicas that fit a node never use it.
TRAINING_GRADE_BLOCK_NODES = 4


def _training_grade_fabric(bid: Bid, catalog: Catalog) -> bool:
    fabric = catalog.fabric(bid.fabric.technology)
    nodes = bid.capacity.largest_contiguous_block_gpus // bid.capacity.gpus_per_node
    return fabric.rdma and fabric.multi_node_training and nodes >= TRAINING_GRADE_BLOCK_NODES


def unused_fabric_finding(
    bid: Bid,
    catalog: Catalog,
    replica_spans_nodes: bool,
    gpus_billed: float | None,
    currency: str,
    rate: float,
    grown_monthly: float | None = None,
) -> Finding | None:
    """A serving fleet on a training-grade fabric: how much of the price pays for it, if itemised.
    `grown_monthly` is a growing service's fabric share of its mean month (issue 37): month 1's
    GPUs are not the ones the term's bill pays for."""
    if replica_spans_nodes or not _training_grade_fabric(bid, catalog):
        return None
    fabric = catalog.fabric(bid.fabric.technology)
    block = bid.capacity.largest_contiguous_block_gpus
    what = f"{fabric.name} across a {block:,}-GPU contiguous block"
    itemised = bid.terms.fabric_price_per_gpu_hour
    if itemised is None:
        return Finding(
            "unused_training_fabric",
            f"the price includes a training-grade fabric ({what}) that this service will not use: "
            "its replicas "
            "stay inside one node; the bid does not itemise the fabric, so ask the provider for "
            "its share of the "
            "price or a quote for the same GPUs without it",
        )
    price = bid.terms.price_per_gpu_hour
    share = float(itemised / price)
    monthly = ""
    if grown_monthly is not None:
        monthly = (
            f"; about {grown_monthly:,.0f} {currency} a month on average over the term, on the "
            "GPUs reserved (and any on-demand hours) each month"
        )
    elif gpus_billed is not None:
        monthly = (
            f"; about {float(itemised) * rate * gpus_billed * 730:,.0f} {currency} a month at the "
            f"{gpus_billed:,.0f} GPUs billed"
        )
    return Finding(
        "unused_training_fabric",
        f"{itemised} of the {price} {bid.terms.currency} per GPU-hour ({share:.0%}) pays for a "
        "training-grade fabric "
        f"({what}) that this service will not use: its replicas stay inside one node{monthly}",
    )


def serving_grade_finding(bid: Bid, catalog: Catalog, job_gpus: int) -> Finding | None:
    """A multi-node training run on nodes without RDMA or with a small contiguous block."""
    if job_gpus <= bid.capacity.gpus_per_node:
        return None  # one node: NVLink carries everything, the fabric does not matter
    fabric = catalog.fabric(bid.fabric.technology)
    reasons = []
    if not fabric.rdma:
        reasons.append(f"no RDMA fabric ({fabric.name})")
    elif not bid.fabric.gpudirect_rdma:
        reasons.append("no GPUDirect RDMA")
    nodes = bid.capacity.largest_contiguous_block_gpus // bid.capacity.gpus_per_node
    if nodes < TRAINING_GRADE_BLOCK_NODES:
        reasons.append(
            f"a contiguous block of only {bid.capacity.largest_contiguous_block_gpus:,} GPUs "
            f"({nodes} node(s))"
        )
    if not reasons:
        return None
    return Finding(
        "serving_grade_bid",
        f"this offer looks built for serving, not training: {' and '.join(reasons)}; a "
        f"{job_gpus:,}-GPU training run "
        "needs RDMA between nodes and one contiguous block at least the job's size",
    )
