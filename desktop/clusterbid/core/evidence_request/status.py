"""Which requests were answered, late, refused or are still open, read from the document.

A pack is kept in the document as an artefact (`evidence-request-<bid>-<date>.json`) when it is
issued. A returned file answers a request when the request id begins its name and it was read
with the usual evidence import (`evidence attach`, or the wizard's evidence page) into the same
bid, yielding the kind of figure asked for. The audit trail dates when its hash first appeared.
A request is answered only when a file for every run it asked for (by the name the
pack gives it) is on file; with some of them it is partly answered.
A refusal is recorded as a short text artefact `<request id>.refused.txt` with the reason.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass

from pydantic import ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.evidence_request.model import EvidenceRequest, RequestPack
from clusterbid.core.store.document import EvaluationDocument

PACK_PREFIX = "evidence-request-"
ID_IN_NAME = re.compile(r"^(CBR-[0-9a-f]{10})(?=[_.\-]|$)")
SHA256 = re.compile(r"\b[0-9a-f]{64}\b")
PARTLY = "partly answered"


@dataclass(frozen=True, slots=True)
class RequestStatus:
    request: EvidenceRequest
    provider: str
    deadline: dt.date
    # "answered" (every run asked for on file), "late", PARTLY (a figure, but not every run),
    # "refused", "open" (deadline not passed) or "overdue"
    state: str
    files: tuple[str, ...]  # returned files matched to it, in order of attachment
    returned_on: dt.date | None  # the day the first file with the asked-for figure was attached
    note: str  # the refusal's reason, or what is still missing


def pack_artefact_name(pack: RequestPack) -> str:
    return f"{PACK_PREFIX}{pack.bid_id}-{pack.issued_on.isoformat()}.json"


def record_pack(document: EvaluationDocument, pack: RequestPack, data: bytes) -> None:
    """Kept once: exporting the same pack again adds nothing; a changed one (a new deadline) is
    kept as well and its requests supersede the earlier ones with the same ids."""
    name, sha = pack_artefact_name(pack), hashlib.sha256(data).hexdigest()
    if not any(i.name == name and i.sha256 == sha for i in document.artefacts()):
        document.attach_artefact(name, data, bid_id=pack.bid_id, media_type="application/json")


def issued_packs(document: EvaluationDocument) -> list[RequestPack]:
    """Every pack kept, oldest first; a request re-issued later appears in the later pack only."""
    packs: list[RequestPack] = []
    for info in document.artefacts():
        if info.name.startswith(PACK_PREFIX) and info.media_type == "application/json":
            try:
                packs.append(
                    RequestPack.model_validate(json.loads(document.artefact_bytes(info.id)))
                )
            except (ValueError, ValidationError):
                continue  # an artefact that merely shares the prefix is not ours to judge
    later: set[str] = set()
    kept = []
    for pack in reversed(packs):
        requests = [r for r in pack.requests if r.request_id not in later]
        later |= {r.request_id for r in pack.requests}
        if requests:
            kept.append(pack.model_copy(update={"requests": requests}))
    return kept[::-1]


def record_refusal(document: EvaluationDocument, request_id: str, reason: str) -> RequestStatus:
    found = _find(document, request_id)
    if not reason.strip():
        raise InputError(
            "--reason: say why the provider refused (their words, or 'no answer given')"
        )
    document.attach_artefact(
        f"{request_id}.refused.txt",
        reason.strip().encode("utf-8"),
        bid_id=found.bid_id,
        media_type="text/plain",
    )
    return next(
        s for s in request_statuses(document, dt.date.today()) if s.request.request_id == request_id
    )


def _find(document: EvaluationDocument, request_id: str) -> EvidenceRequest:
    for pack in issued_packs(document):
        for request in pack.requests:
            if request.request_id == request_id:
                return request
    raise InputError(
        f"{request_id!r}: no request with this id was issued from {document.path.name}"
    )


def _first_seen(document: EvaluationDocument) -> dict[str, dt.date]:
    """sha256 -> the day it first entered the document (UTC, from the audit trail): as a stored
    file (`evidence attach`) or inside a bid's evidence (the wizard keeps only the hash)."""
    days: dict[str, dt.date] = {}
    for row in document.audit_rows():
        if row.new_json:
            day = dt.datetime.fromisoformat(row.at).date()
            for sha in SHA256.findall(row.new_json):
                days.setdefault(sha, day)
    return days


def request_statuses(document: EvaluationDocument, today: dt.date) -> list[RequestStatus]:
    """Every issued request, in the order issued, with its state on `today`."""
    packs = issued_packs(document)
    if not packs:  # the trail is read only when a request needs dating (issue 32: 50 ms an edit)
        return []
    infos = document.artefacts()
    days = _first_seen(document)
    bids = {b.id: b for b in document.evaluation.bids}
    statuses = []
    for pack in packs:
        for request in pack.requests:
            rid = request.request_id
            refusal = next((i for i in infos if i.name == f"{rid}.refused.txt"), None)
            bid = bids.get(request.bid_id)
            named = [
                e
                for e in (bid.evidence if bid else ())
                if e.artefact_name and _request_of(e.artefact_name) == rid
            ]
            stored = [
                i.name for i in infos if i.bid_id == request.bid_id and _request_of(i.name) == rid
            ]
            files = list(
                dict.fromkeys([*stored, *(e.artefact_name for e in named if e.artefact_name)])
            )
            returned = sorted(
                days[e.artefact_sha256]
                for e in named
                if e.kind.value == request.evidence_kind and e.artefact_sha256 in days
            )
            returned_on = returned[0] if returned else None
            missing = [run.return_as for run in request.runs if run.return_as not in files]
            if returned_on is not None and missing:
                # one log of four runs cannot show how the fabric scales: not answered yet
                state = PARTLY
                note = (
                    f"{len(request.runs) - len(missing)} of {len(request.runs)} runs on file; "
                    f"still to come: {', '.join(missing)}"
                )
            elif returned_on is not None:
                state = "answered" if returned_on <= pack.deadline else "late"
                note = ""
            elif refusal is not None:
                state, note = (
                    "refused",
                    document.artefact_bytes(refusal.id).decode("utf-8", "replace"),
                )
            else:
                state = "open" if today <= pack.deadline else "overdue"
                note = (
                    f"{len(files)} file(s) returned but none gave a {request.evidence_kind} figure"
                    if files
                    else "nothing returned yet"
                )
            statuses.append(
                RequestStatus(
                    request, pack.provider, pack.deadline, state, tuple(files), returned_on, note
                )
            )
    return statuses


def _request_of(name: str) -> str | None:
    match = ID_IN_NAME.match(name)
    return match.group(1) if match else None


def match_file(document: EvaluationDocument, bid_id: str, name: str) -> str | None:
    """A line for the officer when an attached file names a request: which one and its state."""
    rid = _request_of(name)
    if rid is None:
        return None
    status = next(
        (s for s in request_statuses(document, dt.date.today()) if s.request.request_id == rid),
        None,
    )
    if status is None:
        return f"{name} names request {rid}, which was not issued from this document"
    if status.request.bid_id != bid_id:
        return (
            f"{name} names request {rid} of bid {status.request.bid_id}, not {bid_id}: it does not "
            "answer it"
        )
    return f"Request {rid} ({status.request.title}): {status.state}"
