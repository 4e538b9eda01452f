"""Build the request-for-evidence pack of one bid: the runs that would settle the inputs whose
doubt can change the decision (value_of_information.py), for this workload and this bid."""

from __future__ import annotations

import datetime as dt
import hashlib

from clusterbid.core.bid import Bid
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.formats import formats_measuring
from clusterbid.core.evidence_request.model import CommandRun, EvidenceRequest, RequestPack
from clusterbid.core.evidence_request.recipe import RECIPE, recipe_arguments, training_runs
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.uncertainty.value_of_information import ValueOfInformation

# nccl-tests all_reduce_perf (NVIDIA/nccl-tests, src/common.cu): sizes 8 B to 8 GiB doubling, so
# four sizes >= 1 GiB reach the bandwidth plateau the app reads; one GPU per MPI rank (-g 1);
# data checked (-c 1); 5 warm-up and 20 timed iterations per size (the tool's own defaults are
# 1 GPU, 5 warm-up, 20 iterations; stated anyway so the log shows them). 8 GiB buffers fit every
# catalogued GPU (two buffers, in-place and out-of-place, 16 GiB in all).
ALL_REDUCE_ARGS = ["-b", "8", "-e", "8G", "-f", "2", "-g", "1", "-c", "1", "-w", "5", "-n", "20"]
WITNESS = {
    "measured_independent": "The buyer or a third party the buyer names runs the commands, or watches them "
    "run live and copies the raw output themselves. Set measured_by to buyer or third_party.",
    "measured_provider": "The provider runs the commands and returns the raw, unedited output files "
    "(no screenshots, no summaries). Set measured_by to provider.",
    "provider_claim": "A figure without its raw output file. The app trusts it least: it lowers a claim "
    "before using it, so a claim rarely changes the outcome.",
}
INPUT_TITLES = {
    "busbw": "nccl-tests all_reduce bus bandwidth on 2 nodes and on the largest block offered",
    "baseline_mfu": "Training throughput of the buyer's workload at a stated scale",
}


def request_id(evaluation: Evaluation, bid_id: str, name: str, issued_on: dt.date) -> str:
    """Stable for the same evaluation, bid, input and day: re-exporting a pack keeps its ids."""
    text = "\x1f".join([evaluation.title, bid_id, name, issued_on.isoformat()])
    return "CBR-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _nccl_runs(bid: Bid, rid: str) -> list[CommandRun]:
    per_node = bid.capacity.gpus_per_node
    block_nodes = bid.capacity.largest_contiguous_block_gpus // per_node
    runs = []
    for nodes in sorted({2, block_nodes} - {0, 1}):
        scale = "2 nodes" if nodes == 2 else f"largest block, {nodes} nodes"
        for algo in ("Ring", None):
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
            tag = f"{nodes}nodes_{'ring' if algo else 'default'}"
            runs.append(
                CommandRun(
                    name=f"{scale}, NCCL_ALGO={algo or 'default (unset)'}",
                    nodes=nodes,
                    gpus=nodes * per_node,
                    environment=env,
                    launcher=launcher,
                    program="./build/all_reduce_perf",
                    arguments=list(ALL_REDUCE_ARGS),
                    return_as=f"{rid}_allreduce_{tag}.log",
                )
            )
    return runs


def _nccl_request(evaluation: Evaluation, bid: Bid, rid: str) -> EvidenceRequest:
    runs = _nccl_runs(bid, rid)
    notes = [
        "Run each command on nodes of the pool offered in this bid, one MPI rank per GPU, with the "
        f"{bid.fabric.technology} fabric the bid states and GPUDirect RDMA as offered.",
        "Return the complete console output of every run, NCCL_DEBUG=INFO lines included, "
        "unedited, "
        "under the file name given for it. Do not trim sizes; the app reads the plateau from sizes "
        "of 1 GiB and up.",
        "The hostfile lists the nodes used, one per line; return it too (same request id in its "
        "name).",
    ]
    if len(runs) == 2:
        notes.append(
            "The largest block offered is 2 nodes or fewer, so the 2-node runs are the whole "
            "request."
        )
    return EvidenceRequest(
        request_id=rid,
        bid_id=bid.id,
        input="busbw",
        evidence_kind="allreduce_busbw",
        title=INPUT_TITLES["busbw"],
        runs=runs,
        instructions=notes,
        formats=formats_measuring("fabric"),
    )


def _training_request(evaluation: Evaluation, bid: Bid, rid: str) -> EvidenceRequest:
    w = evaluation.workload
    model_parallel = w.tensor_parallel * w.pipeline_parallel * w.context_parallel
    room = min(w.job_gpus, bid.capacity.largest_contiguous_block_gpus)
    gpus = max(room // model_parallel, 1) * model_parallel
    cp = f", CP {w.context_parallel}" if w.context_parallel > 1 else ""
    notes = [
        f"Train the workload '{w.name}' ({w.active_params_billions:g}B active parameters, "
        f"{w.total_params_billions:g}B total) "
        f"at {w.precision}, sequence length {w.sequence_length:,}, TP {w.tensor_parallel}, PP "
        f"{w.pipeline_parallel}"
        f"{cp}, data parallel {gpus // model_parallel}, on {gpus:,} {bid.capacity.gpu_model} GPUs "
        f"(the job is {w.job_gpus:,} GPUs), global batch {w.global_batch_tokens:,} tokens per "
        "step.",
        "Run at least 50 optimizer steps after warm-up and report the mean tokens per second of "
        "the whole job "
        "over the timed steps, with the step time.",
        f"Return one CSV row per run as {rid}_throughput.csv with the columns model, "
        "active_params_b, precision, "
        "sequence_length, tp, pp, cp, dp, gpus, tokens_per_second, step_time_s, "
        "global_batch_tokens, gpu_model, "
        "measured_by, measured_on, num_attention_heads, vocab_size, container_image (the image "
        "as name@sha256:<digest>; format: evidence-formats.md, 'Training throughput'). Attach "
        "the training log.",
    ]
    _, assumed = recipe_arguments(w)
    notes.append(
        f"Run it as written with {RECIPE}: one command per GPU count below, each a row of the "
        "same CSV; the smaller counts let the app carry a scaling fit to the job's size. "
        + (
            f"Where the workload is silent the recipe assumes: {'; '.join(assumed)}. "
            if assumed
            else ""
        )
        + (
            f"Run in the container {w.container_image} exactly (the commands below start it); "
            "another image is another software stack and answers another question."
            if w.container_image
            else "Name the container image and its sha256 digest you ran in the training log "
            "you attach."
        )
    )
    if gpus < w.job_gpus:
        notes.append(
            f"{gpus:,} GPUs is below the job's {w.job_gpus:,}: a run on the full job size, if "
            "offered, "
            "is worth more (the app widens the doubt by each doubling between the two)."
        )
    return EvidenceRequest(
        request_id=rid,
        bid_id=bid.id,
        input="baseline_mfu",
        evidence_kind="training_mfu",
        title=INPUT_TITLES["baseline_mfu"],
        instructions=notes,
        runs=training_runs(w, bid.capacity.gpus_per_node, room, f"{rid}_throughput.csv"),
        formats=formats_measuring("throughput"),
    )


def _stated(bid, name: str, unit: str) -> str:
    """What the bid says of one reliability figure, never passing a default off as its statement."""
    value = getattr(bid.reliability, name)
    source = bid.provenance[f"reliability.{name}"]
    if value is None or not source.verified:
        shown = getattr(effective_reliability(bid), name)
        return f"the bid does not state it; we assumed {shown:g}{unit}, {source.label}"
    return f"the bid states {value:g}{unit}"


def build_pack(
    evaluation: Evaluation,
    bid_id: str,
    voi: ValueOfInformation,
    issued_on: dt.date,
    deadline: dt.date,
) -> RequestPack:
    """The bid's requests, the one most worth asking for first."""
    bid = next((b for b in evaluation.bids if b.id == bid_id), None)
    if bid is None:
        known = ", ".join(b.id for b in evaluation.bids) or "none"
        raise InputError(f"--bid {bid_id!r}: no such bid in this evaluation (bids: {known})")
    if deadline <= issued_on:
        raise InputError(f"deadline {deadline} must come after the day of issue, {issued_on}")
    order = [v.input for v in voi.values if bid_id in (v.informs or (v.bid_id,))]
    wanted = sorted(
        ("busbw", "baseline_mfu"), key=lambda n: order.index(n) if n in order else len(order)
    )
    builders = {"busbw": _nccl_request, "baseline_mfu": _training_request}
    requests = [
        builders[n](evaluation, bid, request_id(evaluation, bid_id, n, issued_on)) for n in wanted
    ]
    questions = [
        "Failure rate: node or GPU failures per 1,000 GPU-days on this fleet over the last 90 "
        "days "
        f"({_stated(bid, 'failures_per_1000_gpu_days', '')}), with the GPU-days in service and the "
        "causes.",
        f"Node replacement: hours from a failure to a healthy replacement in the job "
        f"({_stated(bid, 'node_replacement_hours', ' hours')}), written into the contract, whether "
        "spares "
        "are held in the same network block, and whether, with no spare in the reservation, the "
        "job continues "
        "on a node from your own pool (in how many hours) or waits for the repair.",
        f"Uptime: the SLA in the contract ({_stated(bid, 'uptime_sla_percent', '%')}), how it is "
        "measured and "
        "what it pays back.",
    ]
    return RequestPack(
        evaluation=evaluation.title,
        provider=bid.quote.provider,
        bid_id=bid_id,
        issued_on=issued_on,
        deadline=deadline,
        requests=requests,
        witness=dict(WITNESS),
        questions=questions,
    )
