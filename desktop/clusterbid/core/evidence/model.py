"""One measured or claimed figure about a bid, with who measured it and how far to trust it."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any, Literal

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

    MEASURED_INDEPENDENT = (
        "measured_independent"  # buyer or third party measured, raw artefact kept
    )
    MEASURED_PROVIDER = "measured_provider"  # provider measured, raw artefact attached
    PROVIDER_CLAIM = "provider_claim"  # provider's statement without artefact
    DERIVED = "derived"  # computed from specs


# Each grade in the words the memo, the app and the wizard print (defined once: they had drifted).
GRADE_WORDS = {
    EvidenceGrade.MEASURED_INDEPENDENT: "measured independently",
    EvidenceGrade.MEASURED_PROVIDER: "measured by the provider",
    EvidenceGrade.PROVIDER_CLAIM: "provider's claim, no raw data",
    EvidenceGrade.DERIVED: "derived from specs",
}

# What an officer reads for each kind and measurer (the values above are the file format's).
KIND_WORDS = {
    EvidenceKind.ALLREDUCE_BUSBW: "all-reduce bus bandwidth",
    EvidenceKind.TRAINING_MFU: "training MFU",
    EvidenceKind.TRAINING_STEP_TIME: "training step time",
    EvidenceKind.SERVING_DECODE_THROUGHPUT: "serving decode throughput",
    EvidenceKind.OTHER: "another figure",
}
MEASURED_BY_WORDS = {
    "buyer": "the buyer",
    "third_party": "a third party",
    "provider": "the provider",
}


def grade_words(grade: EvidenceGrade, measured_by: str) -> str:
    """The grade in words; a buyer's or third party's figure without raw data is graded as a claim
    (issue 31: grades follow artefacts) and is said to be one, not called the provider's."""
    if grade is EvidenceGrade.PROVIDER_CLAIM and measured_by != "provider":
        return "a claim without raw data, graded as a provider's claim"
    return GRADE_WORDS[grade]


def figure_words(value: float, unit: str) -> str:
    """A figure as officers read it: a fraction (MFU) as a percentage."""
    return f"{value:.1%}" if unit == "fraction" else f"{value:g} {unit}"


UNITS = {
    EvidenceKind.ALLREDUCE_BUSBW: "GB/s",
    EvidenceKind.TRAINING_MFU: "fraction",
    EvidenceKind.TRAINING_STEP_TIME: "s",
    EvidenceKind.SERVING_DECODE_THROUGHPUT: "tokens/s",
}


RUN_FIELDS = (
    "gpu_model",
    "precision",
    "model_active_params_billions",
    "sequence_length",
    "tensor_parallel",
    "pipeline_parallel",
    "context_parallel",
    "global_batch_sequences",
    "num_attention_heads",
    "vocab_size",
    "container_image",
)
# Issue 37: a serving benchmark is a run too: its GPU, precision and parallelism are recorded like
# a training run's, and these fields, its own, say at what shape it measured.
SHARED_RUN_FIELDS = (
    "gpu_model",
    "precision",
    "tensor_parallel",
    "pipeline_parallel",
    "model_active_params_billions",
)
SERVING_RUN_FIELDS = (
    "prompt_tokens",
    "output_tokens",
    "context_cv",
    "kv_cache_precision",
    "expert_parallel",
    "engine",
    "engine_version",
    "tpot_ms",
    "ttft_ms",
    "model_name",
)


class Evidence(FrozenModel):
    """A figure with its scale, provenance and grade; optionally the raw artefact's SHA-256."""

    kind: EvidenceKind
    description: str = Field("", max_length=2000, description="What was measured and how")
    scale_gpus: int = Field(ge=1, le=1_000_000, description="GPUs the measurement ran on")
    value: float = Field(gt=0, description="The figure, in `unit`")
    unit: str = Field(
        min_length=1, max_length=32, description="GB/s for busbw, fraction for MFU, s for step time"
    )
    grade: EvidenceGrade
    batch_size: int | None = Field(
        None,
        ge=1,
        le=65_536,
        description="Concurrent sequences during a serving measurement (serving evidence only)",
    )
    measured_by: str = Field("provider", pattern="^(buyer|third_party|provider)$")
    measured_on: dt.date | None = None
    artefact_name: str | None = Field(None, max_length=255)
    artefact_sha256: str | None = Field(
        None, pattern="^[0-9a-f]{64}$", description="SHA-256 of the raw artefact"
    )
    suspect: str | None = Field(
        None,
        max_length=1000,
        description="Why a check flagged the figure; not used by the cost model unless overridden",
    )
    lower_bound: str | None = Field(
        None,
        max_length=500,
        description="Why the figure is only a lower bound (e.g. the sweep stopped below the busbw plateau); "
        "the Monte Carlo draws it with a wider spread",
    )
    suspect_override: str | None = Field(
        None,
        min_length=1,
        max_length=500,
        description="The officer's recorded reason to use a suspect figure anyway",
    )
    # What a training measurement ran (issue 16 item 7): a figure is used to calibrate a bid only
    # when it fits the bid and the workload (costmodel/evidence_fit.py). Empty: not recorded.
    gpu_model: str | None = Field(
        None, min_length=1, max_length=64, description="Catalog id of the GPU measured"
    )
    precision: Literal["bf16", "fp8"] | None = Field(
        None, description="Matmul precision of the measured run"
    )
    model_active_params_billions: float | None = Field(
        None, gt=0, le=100_000, description="Active params measured"
    )
    sequence_length: int | None = Field(
        None, ge=1, le=10_000_000, description="Sequence length of the measured run"
    )
    tensor_parallel: int | None = Field(None, ge=1, le=1024, description="TP of the measured run")
    pipeline_parallel: int | None = Field(None, ge=1, le=1024, description="PP of the measured run")
    context_parallel: int | None = Field(
        None,
        ge=1,
        le=1024,
        description="CP of the measured run (a run that records its TP and PP but not this: 1)",
    )
    global_batch_sequences: int | None = Field(
        None,
        ge=1,
        le=100_000_000,
        description="Sequences per optimizer step of the measured run (a step time's batch)",
    )
    mfu_flops_basis: Literal["6n", "model", "hardware"] | None = Field(
        None,
        description=(
            "What an MFU counts: 6N only, model FLOPs with attention (default), or hardware FLOPs"
        ),
    )
    # The recipe's context (issue 39 item 5): held to the workload's by costmodel/recipe_fit.py.
    num_attention_heads: int | None = Field(
        None, ge=1, le=4096, description="Attention heads of the measured model"
    )
    vocab_size: int | None = Field(
        None, ge=2, le=10_000_000, description="Vocabulary of the measured model"
    )
    container_image: str | None = Field(
        None, max_length=400, description="Container the run used, name@sha256:<digest>"
    )
    missing_context: tuple[str, ...] = Field(
        (),
        max_length=16,
        description="What the run did not record, set when it calibrates a bid: the figure "
        "is graded a claim and drawn wider for each (filled by the cost model, not by hand)",
    )
    # What a serving benchmark ran (issue 37): the calibration solves the engine factor at this shape.
    prompt_tokens: float | None = Field(
        None, gt=0, le=10**7, description="Mean prompt tokens of the serving run"
    )
    output_tokens: float | None = Field(
        None, gt=0, le=10**7, description="Mean output tokens of the serving run"
    )
    context_cv: float | None = Field(
        None,
        ge=0,
        le=10,
        description="Spread of the run's context lengths (standard deviation / mean), where given",
    )
    kv_cache_precision: Literal["bf16", "fp8"] | None = Field(
        None, description="KV cache precision of the run"
    )
    expert_parallel: int | None = Field(
        None, ge=1, le=1024, description="Expert parallelism of the run"
    )
    engine: str | None = Field(
        None, min_length=1, max_length=64, description="Serving engine (vLLM, TensorRT-LLM...)"
    )
    engine_version: str | None = Field(
        None, min_length=1, max_length=64, description="Its version, where stated"
    )
    tpot_ms: float | None = Field(
        None, gt=0, le=600_000, description="Mean time per output token the run reached"
    )
    ttft_ms: float | None = Field(
        None, gt=0, le=6_000_000, description="Mean time to first token the run reached"
    )
    # The run's model in resources/catalog/models.toml: its KV cache per token, weights and
    # all-reduce size carry the engine factor to another model (core/evidence/serving_models.py).
    model_name: str | None = Field(
        None, min_length=1, max_length=64, description="Model the serving run served (catalog id)"
    )

    @model_validator(mode="after")
    def _check(self) -> Evidence:
        expected = UNITS.get(self.kind)
        if expected is not None and self.unit != expected:
            raise ValueError(
                f"{self.kind.value} evidence is given in {expected}, not {self.unit!r}"
            )
        if self.kind is EvidenceKind.TRAINING_MFU and self.value > 1:
            raise ValueError("MFU is a fraction of dense peak: enter 0.42 for 42%")
        serving = self.kind is EvidenceKind.SERVING_DECODE_THROUGHPUT
        if serving and self.batch_size is None:
            raise ValueError(
                "serving_decode_throughput evidence needs batch_size: the concurrent sequences "
                "measured"
            )
        if not serving and self.batch_size is not None:
            raise ValueError(f"batch_size belongs to serving evidence, not {self.kind.value}")
        training = self.kind in (EvidenceKind.TRAINING_MFU, EvidenceKind.TRAINING_STEP_TIME)
        shared = SHARED_RUN_FIELDS if serving else ()
        recorded = [
            name for name in RUN_FIELDS if getattr(self, name) is not None and name not in shared
        ]
        if recorded and not training:
            raise ValueError(
                f"{', '.join(recorded)} describe a training run, not {self.kind.value} evidence"
            )
        served = [name for name in SERVING_RUN_FIELDS if getattr(self, name) is not None]
        if served and not serving:
            raise ValueError(
                f"{', '.join(served)} describe a serving run, not {self.kind.value} evidence"
            )
        if self.mfu_flops_basis is not None and self.kind is not EvidenceKind.TRAINING_MFU:
            raise ValueError("mfu_flops_basis belongs to training_mfu evidence")
        measured = (EvidenceGrade.MEASURED_INDEPENDENT, EvidenceGrade.MEASURED_PROVIDER)
        if self.grade in measured and self.artefact_sha256 is None:
            raise ValueError(
                f"grade {self.grade.value} needs the raw artefact attached (artefact_sha256); "
                "without it the figure is a provider_claim"
            )
        if self.suspect_override is not None and self.suspect is None:
            raise ValueError(
                "suspect_override is a reason to use a flagged figure; this figure is not flagged"
            )
        if self.grade is EvidenceGrade.MEASURED_INDEPENDENT and self.measured_by == "provider":
            raise ValueError("a figure the provider measured cannot be graded measured_independent")
        return self


def evidence_json(evidence: Evidence) -> dict[str, Any]:
    """One evidence item as the report shows it: what, how much, how trusted, at what scale."""
    return {
        "kind": evidence.kind.value,
        "value": evidence.value,
        "unit": evidence.unit,
        "grade": evidence.grade.value,
        "scale_gpus": evidence.scale_gpus,
        "measured_by": evidence.measured_by,
        "artefact_sha256": evidence.artefact_sha256,
    }
