"""The evidence file formats, declared once (issue 33 item 3): what each is called, the media type
its raw file is kept under, the grade rule its figures follow, how large it may be, and what it
measures. The reader (reading.py's `READERS`, one line per format), the CLI's choices and words,
the app's and the CLI's attach, requests for evidence and acceptance tests read this table.

Adding a format: its entry below, its reader module, and its line in `READERS`; its description
for providers goes in resources/evidence-formats.md. Serving benchmarks are read by their own
reader (serving_readers.py) and are not listed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.evidence.provenance import grade_for, typed_summary_grade

# What a file measures: the evidence requests and acceptance tests that ask for it accept it.
Measures = Literal["fabric", "throughput", "scaling", "training-run"]


@dataclass(frozen=True, slots=True)
class EvidenceFormatSpec:
    name: str  # as `--format` takes it and a reading reports it
    words: str  # as the CLI prints what it found
    media_type: str  # the raw file is kept in the document under this type
    measures: Measures
    # The grade rule (cost-model.md; issue 31): the run's own output is graded by who measured
    # and whether the artefact is kept (grade_for); a typed summary is a claim whoever measured.
    run_output: bool
    held_small: bool  # parsed whole, held to reading.MAX_TABLE_BYTES (all but an nccl-tests log)
    measurer_in_file: bool  # the file names who measured; otherwise the officer says

    @property
    def grade(self) -> Callable[[str, str | None], EvidenceGrade]:
        """The grade of a figure read from this format: (measured_by, artefact SHA-256) -> grade."""
        if self.run_output:
            return grade_for
        return lambda measured_by, _sha: typed_summary_grade(measured_by)


# Order: the CLI's choices and the formats a request or a test lists.
EVIDENCE_FORMATS: tuple[EvidenceFormatSpec, ...] = (
    EvidenceFormatSpec(
        "nccl-text",
        "nccl-tests text output",
        "text/plain",
        "fabric",
        run_output=True,
        held_small=False,
        measurer_in_file=False,
    ),
    EvidenceFormatSpec(
        "nccl-json",
        "nccl-tests JSON (-J)",
        "application/json",
        "fabric",
        run_output=True,
        held_small=True,
        measurer_in_file=False,
    ),
    EvidenceFormatSpec(
        "throughput-csv",
        "training-throughput CSV",
        "text/csv",
        "throughput",
        run_output=False,
        held_small=True,
        measurer_in_file=True,
    ),
    EvidenceFormatSpec(
        "throughput-json",
        "training-throughput JSON",
        "application/json",
        "throughput",
        run_output=False,
        held_small=True,
        measurer_in_file=True,
    ),
    EvidenceFormatSpec(
        "scaling-csv",
        "scaling table (CSV)",
        "text/csv",
        "scaling",
        run_output=False,
        held_small=True,
        measurer_in_file=True,
    ),
    EvidenceFormatSpec(
        "training-log",
        "raw training log (Megatron-LM)",
        "text/plain",
        "training-run",
        run_output=True,
        held_small=True,
        measurer_in_file=False,
    ),
)


def format_names() -> tuple[str, ...]:
    return tuple(spec.name for spec in EVIDENCE_FORMATS)


def format_spec(name: str) -> EvidenceFormatSpec:
    """The format named `name`; a KeyError names the formats there are."""
    for spec in EVIDENCE_FORMATS:
        if spec.name == name:
            return spec
    raise KeyError(f"evidence format {name!r}: one of {', '.join(format_names())}")


def formats_measuring(measures: Measures) -> list[str]:
    """The formats a request or an acceptance test for this measurement accepts, in table order."""
    return [spec.name for spec in EVIDENCE_FORMATS if spec.measures == measures]
