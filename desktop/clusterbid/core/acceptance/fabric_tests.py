"""The fabric's acceptance tests: the request packs' nccl-tests all_reduce commands on 2 nodes, on
the job's block and on the whole cluster, each held to a share of the busbw that was scored, and
the contiguous block the job was planned on."""

from __future__ import annotations

from clusterbid.core.acceptance.model import NOT_STATED, AcceptanceTest
from clusterbid.core.acceptance.thresholds import share_for, share_words
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.inputs import sharp_busbw_factor
from clusterbid.core.evidence.formats import formats_measuring
from clusterbid.core.evidence.model import GRADE_WORDS
from clusterbid.core.evidence_request.build import ALL_REDUCE_ARGS
from clusterbid.core.evidence_request.model import CommandRun
from clusterbid.core.workload import Workload

NCCL_FORMATS = formats_measuring("fabric")  # core/evidence/formats.py


def nccl_run(test_id: str, nodes: int, per_node: int, algo: str | None, scale: str) -> CommandRun:
    """The request pack's command (same arguments, same launcher), named after the test."""
    env = {"NCCL_DEBUG": "INFO", **({"NCCL_ALGO": algo} if algo else {})}
    launcher = [
        "mpirun",
        "-np",
        str(nodes * per_node),
        "-N",
        str(per_node),
        "--hostfile",
        "hosts.txt",
    ]
    for name in env:
        launcher += ["-x", name]
    tag = "ring" if algo else "default"
    return CommandRun(
        name=f"{scale}, NCCL_ALGO={algo or 'default (unset)'}",
        nodes=nodes,
        gpus=nodes * per_node,
        environment=env,
        launcher=launcher,
        program="./build/all_reduce_perf",
        arguments=list(ALL_REDUCE_ARGS),
        return_as=f"{test_id}_allreduce_{tag}.log",
    )


def sharp_gain(workload: Workload, bid: Bid, estimate: BidEstimate) -> float:
    """The factor SHARP added to the spec figure (1 when measured, or without SHARP on IB)."""
    if estimate.busbw_evidence is not None or not (
        bid.fabric.sharp and bid.fabric.technology.startswith("IB-")
    ):
        return 1.0
    replica = workload.tensor_parallel * workload.pipeline_parallel * workload.context_parallel
    nodes = min(workload.job_gpus // replica, workload.job_gpus / bid.capacity.gpus_per_node)
    return float(sharp_busbw_factor(nodes))


def _scored_words(bid: Bid, estimate: BidEstimate, value: float, gain: float) -> str:
    chosen = estimate.busbw_evidence
    if chosen is not None:
        return (
            f"{value:,.1f} GB/s, {GRADE_WORDS[chosen.grade]} on {chosen.scale_gpus:,} GPUs "
            f"({chosen.artefact_name or 'no file name'})"
        )
    words = (
        f"{value:,.1f} GB/s, derived from the specs: {bid.fabric.nics_per_node} NICs x "
        f"{bid.fabric.nic_line_rate_gbit_s:g} Gb/s on {bid.fabric.technology} at the fabric's "
        "typical efficiency (not a provider's statement)"
    )
    return words + (
        f", with the SHARP gain of {gain:.3f} the bid's fabric claims" if gain > 1 else ""
    )


def busbw_tests(workload: Workload, bid: Bid, estimate: BidEstimate) -> list[AcceptanceTest]:
    per_node = bid.capacity.gpus_per_node
    grade = estimate.busbw_evidence.grade if estimate.busbw_evidence is not None else None
    share = share_for(grade)
    gain = sharp_gain(workload, bid, estimate)
    scales: list[tuple[str, int, str, tuple[str | None, ...]]] = [
        ("2nodes", 2, "2 nodes", ("Ring", None))
    ]
    job_nodes = -(-workload.job_gpus // per_node)
    cluster_nodes = bid.capacity.gpus_offered // per_node
    if job_nodes > 2:
        scales.append(("job-block", job_nodes, f"the job's block, {job_nodes} nodes", (None,)))
    if cluster_nodes > job_nodes:
        scales.append(
            ("whole-cluster", cluster_nodes, f"the whole cluster, {cluster_nodes} nodes", (None,))
        )
    tests = []
    for tag, nodes, scale, algos in scales:
        test_id = f"ACC-busbw-{tag}"
        # SHARP reduces in the switches only across nodes: a 2-node run (and a Ring run) is held
        # to the figure without its gain; the job's block and the cluster to the figure scored.
        value = estimate.node_busbw_gb_s / (gain if nodes == 2 else 1.0)
        basis = f"{share_words(grade)}: {share:.0%} x {value:,.1f} GB/s" + (
            " (the scored figure without SHARP's gain, which needs more than 2 nodes)"
            if nodes == 2 and gain > 1
            else ""
        )
        tests.append(
            AcceptanceTest(
                test_id=test_id,
                claim="all-reduce bus bandwidth",
                unit="GB/s",
                title=f"nccl-tests all-reduce bus bandwidth on {scale}",
                runs=[nccl_run(test_id, nodes, per_node, algo, scale) for algo in algos],
                scored=round(value, 3),
                scored_source=_scored_words(bid, estimate, value, gain if nodes > 2 else 1.0),
                threshold=round(share * value, 3),
                threshold_basis=basis,
                remedy=NOT_STATED,
                reads=list(NCCL_FORMATS),
            )
        )
    return tests


def block_test(workload: Workload, bid: Bid) -> AcceptanceTest:
    """The job was planned on one contiguous block: the job's-block run must span it."""
    block = bid.capacity.largest_contiguous_block_gpus
    source = bid.provenance.get("capacity.largest_contiguous_block_gpus")
    stated = source.label if source is not None else "stated by provider"
    return AcceptanceTest(
        test_id="ACC-contiguous-block",
        claim="contiguous block",
        unit="GPUs",
        title=f"One contiguous block of at least {workload.job_gpus:,} GPUs (the job's size)",
        steps=[
            "The job's-block nccl-tests run spans the whole block: its hostfile lists every node, "
            "all "
            "under one spine (or rail group) of the provider's topology map, which is returned "
            "with it.",
            "Return the hostfile and the topology map with the log (named after "
            "ACC-busbw-job-block).",
        ],
        scored=float(block),
        scored_source=f"{block:,} GPUs in the largest block offered ({stated})",
        threshold=float(workload.job_gpus),
        threshold_basis=(
            f"the job's {workload.job_gpus:,} GPUs, which the evaluation placed in the "
            f"{block:,}-GPU block: read from the job's-block log's GPU count"
        ),
        remedy=NOT_STATED,
        reads=list(NCCL_FORMATS),
    )
