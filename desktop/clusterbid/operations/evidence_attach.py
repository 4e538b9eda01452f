"""Attach an evidence file to a bid: parse it first, and keep only a file that yields figures the
cost model uses, with the bid's evidence, in one transaction; a file named after an evidence
request answers it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.formats import format_spec
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint


@dataclass(frozen=True)
class ReadingOptions:
    """How to read the file: what the officer knows that the file does not say."""

    fmt: str = "auto"  # detected from the content
    measured_by: str | None = None
    measured_on: dt.date | None = None
    nic_aggregate_gb_s: float | None = None
    fabric: str | None = None  # the fabric to hold NCCL lines against (default: the bid's own)
    claims_gdr: bool = False
    nodes: int | None = None
    run: int | None = None


@dataclass(frozen=True)
class AttachedEvidence:
    reading: Any  # EvidenceReading: what the file holds, its flags and notes
    items: tuple[Any, ...]  # the Evidence kept (with the officer's override of flagged figures)
    matched: str | None  # the evidence request the file answers, in words


def read_evidence_file(
    path: Path,
    options: ReadingOptions,
    fabric: Any = None,
    data: bytes | None = None,
    capacity: Any = None,
) -> Any:
    """What an evidence file holds (EvidenceReading), read as `options` say; `capacity` is the
    bid's (attach), whose GPUs per node turn the officer's --nodes into a GPU count and whose
    node count stands in for the NIC check when neither the log nor the officer gives one."""
    from clusterbid.core.evidence.nccl_raw import NodeCount
    from clusterbid.core.evidence.reading import (
        fabric_claim_of,
        load_evidence_bytes,
        read_evidence,
        select_run,
    )

    data = load_evidence_bytes(path) if data is None else data
    if fabric is None and options.fabric is not None:
        fabric = fabric_claim_of(options.fabric, options.claims_gdr)
    nodes = None
    per_node = capacity.gpus_per_node if capacity is not None else None
    if options.nodes:
        nodes = NodeCount(options.nodes, "--nodes on the clusterbid command line", per_node)
    elif capacity is not None:
        offered = capacity.gpus_offered // capacity.gpus_per_node
        nodes = NodeCount(
            offered,
            f"the bid's node count ({offered} nodes offered; give --nodes if the "
            "test ran on fewer)",
        )
    reading = read_evidence(
        data,
        str(path),
        fmt=options.fmt,
        measured_by=options.measured_by,
        measured_on=options.measured_on,
        fabric=fabric,
        nodes=nodes,
        nic_aggregate_gb_s=options.nic_aggregate_gb_s,
    )
    return select_run(reading, options.run) if options.run is not None else reading


def attach_evidence(
    document: Path,
    bid_id: str,
    path: Path,
    options: ReadingOptions,
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    use_flagged: str | None = None,
    user: str | None = None,
) -> AttachedEvidence:
    """Parse `path` against the bid's own fabric and attach it; InputError (nothing attached)
    when the file holds no figure the cost model uses."""
    from clusterbid.core.comparison_table import KeptTableDocument
    from clusterbid.core.evidence.reading import fabric_claim_of, load_evidence_bytes
    from clusterbid.core.evidence_request.status import match_file
    from clusterbid.core.store import EvaluationDocument

    with EvaluationDocument.open(document, user=user) as opened:
        # The bid's own fabric is what the log's NCCL lines are held against.
        bid = next((b for b in opened.evaluation.bids if b.id == bid_id), None)
    claim = None
    if bid is not None and options.fabric is None:
        claim = fabric_claim_of(bid.fabric.technology, bid.fabric.gpudirect_rdma)
    data = load_evidence_bytes(path)  # read once: the bytes kept are the bytes parsed
    progress(0.3, f"reading {path.name}")
    reading = read_evidence_file(
        path, options, claim, data, bid.capacity if bid is not None else None
    )
    if not reading.evidence:
        raise InputError(
            f"{path}: holds no figure the cost model uses "
            f"({'; '.join(reading.notes) or 'nothing usable'}); nothing was attached"
        )
    items = tuple(_overridden(e, use_flagged) for e in reading.evidence)
    checkpoint(cancel)
    with KeptTableDocument.open(document, user=user) as kept:
        kept.attach_evidence(
            bid_id, path.name, data, list(items), media_type=format_spec(reading.format).media_type
        )
        matched = match_file(kept, bid_id, path.name)  # a file named after a request answers it
    return AttachedEvidence(reading, items, matched)


def _overridden(item: Any, reason: str | None) -> Any:
    """The officer's recorded reason to use a flagged figure; figures not flagged are left alone."""
    from clusterbid.core.evidence.model import Evidence

    if reason is None or not item.suspect:
        return item
    return Evidence.model_validate(item.model_dump() | {"suspect_override": reason})
