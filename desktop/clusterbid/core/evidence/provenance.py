"""Who measured a figure and whether its raw artefact is kept decide its grade; one rule for every format."""

from __future__ import annotations

import datetime as dt

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import EvidenceGrade

MEASURERS: tuple[str, ...] = ("buyer", "third_party", "provider")


def grade_for(measured_by: str, artefact_sha256: str | None) -> EvidenceGrade:
    """The grade cost-model.md defines: independent measurement with artefact beats the
    provider's own measurement with artefact, which beats the provider's word alone.

    A buyer or third party that sends no artefact is graded like a claim too: without the raw
    output nobody can re-check the figure, whoever typed it.
    """
    if measured_by not in MEASURERS:
        raise ValueError(f"measured_by must be one of {', '.join(MEASURERS)}, not {measured_by!r}")
    if artefact_sha256 is None:
        return EvidenceGrade.PROVIDER_CLAIM
    if measured_by == "provider":
        return EvidenceGrade.MEASURED_PROVIDER
    return EvidenceGrade.MEASURED_INDEPENDENT


# Issue 31: a grade follows the artefact, not the file format. An nccl-tests log or a serving
# benchmark's output is the run's own output: whoever holds it can re-read every line. A throughput
# or scaling table (CSV, JSON) is a summary someone typed, one row per run: attaching it proves what
# was typed, not what ran, so it is a claim whoever measured and whatever the file's format.
TYPED_SUMMARY_NOTE = (
    "a typed summary (one row per run), not the run's own output: graded a claim; "
    "the run's log or per-step times make it a measurement"
)


def typed_summary_grade(measured_by: str) -> EvidenceGrade:
    """The grade of a figure read from a typed summary table: a claim (the measurer checked)."""
    if measured_by not in MEASURERS:
        raise ValueError(f"measured_by must be one of {', '.join(MEASURERS)}, not {measured_by!r}")
    return EvidenceGrade.PROVIDER_CLAIM


def parse_measured_by(value: str, source: str, line: int | None, field: str = "measured_by") -> str:
    """A measurer name from a file cell; a clear error naming file, line and the allowed values."""
    text = value.strip().lower().replace("-", "_").replace(" ", "_")
    if text == "thirdparty":
        text = "third_party"
    if text not in MEASURERS:
        raise EvidenceParseError(
            source, line, f"{field} must be one of {', '.join(MEASURERS)}, found {value[:40]!r}"
        )
    return text


def parse_measured_on(
    value: str, source: str, line: int | None, field: str = "measured_on"
) -> dt.date | None:
    """An ISO date (YYYY-MM-DD) or empty; a date in the future is refused as a typo."""
    text = value.strip()
    if not text:
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise EvidenceParseError(
            source, line, f"{field} must be a date as YYYY-MM-DD, found {text[:40]!r}"
        ) from None
    if day > dt.date.today():
        raise EvidenceParseError(source, line, f"{field} {day.isoformat()} is in the future")
    return day
