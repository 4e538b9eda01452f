"""Acceptance results: the files returned after handover, kept with the awarded bid as
acceptance evidence (artefacts, never the bid's evidence: the claims that won stay as they were),
each matched to its test by its name, and read by the same readers as the evidence before award.

DCGM tables (or their JSON) and soak logs are read by their own readers (node_logs.py). A test with no file the
app reads (a replacement, the handover) takes the officer's recorded outcome, kept as
`<test id>.outcome.json`. Every file and outcome enters through the document's audited artefact
row."""

from __future__ import annotations

import json
import re

from pydantic import Field, ValidationError

from clusterbid.core.acceptance.dcgm_json import media_type as dcgm_media_type
from clusterbid.core.acceptance.model import AcceptancePlan, AcceptanceTest
from clusterbid.core.acceptance.node_judging import NODE_LOG_READERS
from clusterbid.core.base import FrozenModel
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.formats import format_spec
from clusterbid.core.evidence.reading import EvidenceReading, detect_format, read_evidence
from clusterbid.core.store.document import EvaluationDocument

OUTCOME_SUFFIX = ".outcome.json"


class RecordedOutcome(FrozenModel):
    """The officer's word on a test the app cannot read from a file."""

    passed: bool
    measured: float | None = Field(None, ge=0, description="the figure seen, in the test's unit")
    note: str = Field(min_length=1, max_length=1000, description="what was seen and by whom")


def test_of_name(plan: AcceptancePlan, name: str) -> AcceptanceTest | None:
    """The test a file's name begins with (its id, then '_' or '.'); the longest id wins."""
    found = [t for t in plan.tests if re.match(re.escape(t.test_id) + r"(?=[_.]|$)", name)]
    return max(found, key=lambda t: len(t.test_id)) if found else None


def reads_files(test: AcceptanceTest) -> bool:
    return bool(test.reads) or test.test_id in NODE_LOG_READERS


def read_result(test: AcceptanceTest, name: str, data: bytes) -> EvidenceReading:
    """Read a returned file with the evidence readers; a file of a format the test does not read
    is refused with what it should have been."""
    if not test.reads:
        raise InputError(
            f"{name}: test {test.test_id} has no file the app reads; record its outcome "
            "with --record instead"
        )
    # An nccl-tests log does not say who ran it: acceptance is the buyer's run (or witnessed by
    # the buyer). A table says who measured, in its own column, and is read as it says.
    fmt = detect_format(data.decode("utf-8", "replace"))
    reading = read_evidence(data, name, measured_by="buyer" if fmt.startswith("nccl") else None)
    if reading.format not in test.reads:
        raise InputError(
            f"{name}: read as {reading.format}, but test {test.test_id} reads "
            f"{', '.join(test.reads)}; nothing was attached"
        )
    return reading


def check_result(test: AcceptanceTest, name: str, data: bytes) -> str:
    """The media type a returned file is kept under, once its reader has accepted it: DCGM and
    soak logs by their own readers (plans written before they had one included), others by the
    evidence readers."""
    reader = NODE_LOG_READERS.get(test.test_id)
    if reader is not None:
        reader(data, name)
        return dcgm_media_type(data) if test.test_id == "ACC-dcgm" else "text/plain"
    return format_spec(read_result(test, name, data).format).media_type


def attach_result(
    document: EvaluationDocument, plan: AcceptancePlan, name: str, data: bytes
) -> AcceptanceTest:
    """Keep a returned file with the bid, matched to its test (one audited row); the bid's
    evidence and claims are not touched."""
    test = test_of_name(plan, name)
    if test is None:
        ids = ", ".join(t.test_id for t in plan.tests if reads_files(t))
        raise InputError(
            f"{name}: the name does not begin with a test id of the acceptance plan of "
            f"{plan.bid_id} (rename it to begin with one of {ids})"
        )
    media_type = check_result(test, name, data)
    document.attach_artefact(name, data, bid_id=plan.bid_id, media_type=media_type)
    return test


def record_outcome(
    document: EvaluationDocument, plan: AcceptancePlan, test_id: str, outcome: RecordedOutcome
) -> None:
    test = plan.test(test_id)
    if test is None:
        raise InputError(
            f"--record {test_id!r}: no such test in the acceptance plan of {plan.bid_id} "
            f"(tests: {', '.join(t.test_id for t in plan.tests)})"
        )
    if test.reads:
        raise InputError(
            f"--record {test_id}: this test is judged from its returned files; attach them"
        )
    data = json.dumps(outcome.model_dump(mode="json"), sort_keys=True).encode("utf-8")
    document.attach_artefact(
        f"{test_id}{OUTCOME_SUFFIX}", data, bid_id=plan.bid_id, media_type="application/json"
    )


def returned_files(
    document: EvaluationDocument, plan: AcceptancePlan
) -> dict[str, list[tuple[str, bytes]]]:
    """test id -> (name, bytes) of every file kept for it, oldest first."""
    files: dict[str, list[tuple[str, bytes]]] = {}
    for info in document.artefacts():
        test = test_of_name(plan, info.name) if info.bid_id == plan.bid_id else None
        if test is not None and reads_files(test) and not info.name.endswith(OUTCOME_SUFFIX):
            files.setdefault(test.test_id, []).append((info.name, document.artefact_bytes(info.id)))
    return files


def recorded_outcomes(
    document: EvaluationDocument, plan: AcceptancePlan
) -> dict[str, RecordedOutcome]:
    """test id -> the latest outcome the officer recorded."""
    found: dict[str, RecordedOutcome] = {}
    for info in document.artefacts():
        if info.bid_id == plan.bid_id and info.name.endswith(OUTCOME_SUFFIX):
            test_id = info.name[: -len(OUTCOME_SUFFIX)]
            try:
                found[test_id] = RecordedOutcome.model_validate_json(
                    document.artefact_bytes(info.id)
                )
            except ValidationError:
                continue
    return found
