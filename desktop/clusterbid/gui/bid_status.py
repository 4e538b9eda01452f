"""Each bid's badge in the outline: failed gate, missing evidence or complete, with its colour."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QPalette

from clusterbid.core.evidence.model import EvidenceKind
from clusterbid.core.ranking import BidScore
from clusterbid.core.scoring import EXPECTED_EVIDENCE

if TYPE_CHECKING:
    from clusterbid.core.costmodel.estimate import BidEstimate


class BidStatus(Enum):
    COMPLETE = "complete"
    MISSING_EVIDENCE = "missing evidence"
    FAILED_GATE = "failed gate"


BADGES = {
    BidStatus.COMPLETE: "✓ complete",
    BidStatus.MISSING_EVIDENCE: "! missing evidence",
    BidStatus.FAILED_GATE: "✗ failed gate",
}
# Two shades per status: the dark ones read on a light window, the light ones on a dark window.
_COLOURS = {
    BidStatus.COMPLETE: ("#1b6e2a", "#7ddc8f"),
    BidStatus.MISSING_EVIDENCE: ("#8a5a00", "#ffc857"),
    BidStatus.FAILED_GATE: ("#a11d1d", "#ff8a80"),
}


def bid_status(score: BidScore[BidEstimate]) -> BidStatus:
    if score.estimate.gates:
        return BidStatus.FAILED_GATE
    kinds = {evidence.kind for evidence in score.bid.evidence}
    if any(not kinds.intersection(group) for group in EXPECTED_EVIDENCE):
        return BidStatus.MISSING_EVIDENCE
    return BidStatus.COMPLETE


# Each kind of evidence in an officer's words (the wizard's Kind list says the same).
EVIDENCE_WORDS = {
    EvidenceKind.ALLREDUCE_BUSBW: "all-reduce bus bandwidth (nccl-tests)",
    EvidenceKind.TRAINING_MFU: "training MFU",
    EvidenceKind.TRAINING_STEP_TIME: "training step time",
    EvidenceKind.SERVING_DECODE_THROUGHPUT: "serving decode throughput",
    EvidenceKind.OTHER: "other evidence",
}


def missing_evidence(score: BidScore[BidEstimate]) -> list[str]:
    """The evidence a bid lacks, in words: one line per expected group it has nothing from."""
    kinds = {evidence.kind for evidence in score.bid.evidence}
    return [
        " or ".join(EVIDENCE_WORDS[k] for k in group)
        for group in EXPECTED_EVIDENCE
        if not kinds.intersection(group)
    ]


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def status_colour(status: BidStatus, palette: QPalette) -> QColor:
    light, dark = _COLOURS[status]
    return QColor(dark if is_dark(palette) else light)
