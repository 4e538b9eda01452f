"""One measured or claimed figure about a bid, with who measured it and how far to trust it."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from pydantic import Field, model_validator

from clusterbid.core.base import FrozenModel


class EvidenceKind(StrEnum):
    ALLREDUCE_BUSBW = "allreduce_busbw"  # nccl-tests all_reduce bus bandwidth plateau, GB/s
    TRAINING_MFU = "training_mfu"  # measured model FLOPs utilisation, fraction of dense peak
    TRAINING_STEP_TIME = "training_step_time"  # seconds per optimizer step of the buyer's workload
    # Output tokens per second of one serving replica, summed over `batch_size` concurrent
    # sequences, decode phase, at the served workload's prompt and output lengths.
    SERVING_DECODE_THROUGHPUT = "serving_decode_throughput"
    OTHER = "other"


class EvidenceGrade(StrEnum):
    """How much a figure is trusted, strongest first."""

    MEASURED_INDEPENDENT = "measured_independent"  # buyer or third party measured, raw artefact kept
    MEASURED_PROVIDER = "measured_provider"  # provider measured, raw artefact attached
    PROVIDER_CLAIM = "provider_claim"  # provider's statement without artefact
    DERIVED = "derived"  # computed from specs


UNITS = {
    EvidenceKind.ALLREDUCE_BUSBW: "GB/s",
    EvidenceKind.TRAINING_MFU: "fraction",
    EvidenceKind.TRAINING_STEP_TIME: "s",
    EvidenceKind.SERVING_DECODE_THROUGHPUT: "tokens/s",
}


class Evidence(FrozenModel):
    """A figure with its scale, provenance and grade; optionally the raw artefact's SHA-256."""

    kind: EvidenceKind
    description: str = Field("", max_length=2000, description="What was measured and how")
    scale_gpus: int = Field(ge=1, le=1_000_000, description="GPUs the measurement ran on")
    value: float = Field(gt=0, description="The figure, in `unit`")
    unit: str = Field(min_length=1, max_length=32, description="GB/s for busbw, fraction for MFU, s for step time")
    grade: EvidenceGrade
    batch_size: int | None = Field(
        None, ge=1, le=65_536, description="Concurrent sequences during a serving measurement (serving evidence only)"
    )
    measured_by: str = Field("provider", pattern="^(buyer|third_party|provider)$")
    measured_on: dt.date | None = None
    artefact_name: str | None = Field(None, max_length=255)
    artefact_sha256: str | None = Field(None, pattern="^[0-9a-f]{64}$", description="SHA-256 of the raw artefact")
    suspect: str | None = Field(
        None, max_length=1000, description="Why a check flagged the figure; not used by the cost model unless overridden"
    )
    lower_bound: str | None = Field(
        None, max_length=500,
        description="Why the figure is only a lower bound (e.g. the sweep stopped below the busbw plateau); "
        "the Monte Carlo draws it with a wider spread",
    )
    suspect_override: str | None = Field(
        None, min_length=1, max_length=500, description="The officer's recorded reason to use a suspect figure anyway"
    )

    @model_validator(mode="after")
    def _check(self) -> Evidence:
        expected = UNITS.get(self.kind)
        if expected is not None and self.unit != expected:
            raise ValueError(f"{self.kind.value} evidence is given in {expected}, not {self.unit!r}")
        if self.kind is EvidenceKind.TRAINING_MFU and self.value > 1:
            raise ValueError("MFU is a fraction of dense peak: enter 0.42 for 42%")
        serving = self.kind is EvidenceKind.SERVING_DECODE_THROUGHPUT
        if serving and self.batch_size is None:
            raise ValueError("serving_decode_throughput evidence needs batch_size: the concurrent sequences measured")
        if not serving and self.batch_size is not None:
            raise ValueError(f"batch_size belongs to serving evidence, not {self.kind.value}")
        measured = (EvidenceGrade.MEASURED_INDEPENDENT, EvidenceGrade.MEASURED_PROVIDER)
        if self.grade in measured and self.artefact_sha256 is None:
            raise ValueError(
                f"grade {self.grade.value} needs the raw artefact attached (artefact_sha256); "
                "without it the figure is a provider_claim"
            )
        if self.suspect_override is not None and self.suspect is None:
            raise ValueError("suspect_override is a reason to use a flagged figure; this figure is not flagged")
        if self.grade is EvidenceGrade.MEASURED_INDEPENDENT and self.measured_by == "provider":
            raise ValueError("a figure the provider measured cannot be graded measured_independent")
        return self
