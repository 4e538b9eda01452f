"""Per-engine efficiency factors and the spread an unstated engine leaves (issue 37, target (c) of
methodology section 8), as stack_efficiency does for training's software stack.

The serving defaults (HBM efficiency 0.70, compute 0.50) describe a tuned TensorRT-LLM-class
engine: spec-only within 10% of its published runs. A default vLLM 0.6 deployment runs the same
model 1.48x slower than that (Lambda's published runs): its matmuls reach 0.38-0.40 of the BF16
peak, and over a finite run 81-85% of its 256-sequence batch is running on average. A named engine
sets the spec-only efficiencies from its published figures (resources/catalog/engines.toml) and
keeps its own range in the bands; an unstated engine keeps the workload's efficiencies at the
point and its band reaches the slowest published engine at P10 and the fastest at P90.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache
from typing import get_args

from pydantic import BaseModel, ConfigDict, Field

from clusterbid.core.catalog import Catalog, default_catalog
from clusterbid.core.costmodel.published_catalog import published_entries
from clusterbid.core.engine_names import NOT_STATED, ServingEngine, engine_words
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.serving_workload import (
    DEFAULT_COMPUTE_EFFICIENCY,
    DEFAULT_HBM_EFFICIENCY,
    InferenceWorkload,
)

P90_Z = 1.2816  # a range's ends at P10 and P90 of a log-normal
Pair = tuple[float, float]
Shape = tuple[float, float, float]  # a workload's mean prompt, mean output, context spread


class EngineSpec(BaseModel):
    """One serving engine's published efficiency, with its source."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    id: str
    name: str = Field(min_length=3)
    aliases: tuple[str, ...] = Field(min_length=1)
    compute_efficiency: Pair = Field(description="Share of the dense peak, low and high")
    hbm_efficiency: Pair = Field(description="Share of peak HBM bandwidth in decode, low and high")
    hbm_source: str | None = Field(None, min_length=10)
    running_share: Pair = Field(description="Mean running sequences over the batch allowed")
    scheduler_steps: int = Field(1, ge=1, le=64, description="Decode steps per scheduling pass")
    read_at: tuple[float, float, float] | None = Field(
        None, description="The runs the running share was read from: prompt, output, spread"
    )
    read_on_gpu: str | None = Field(None, description="The GPU the compute figure was read on")
    cite: str = Field(min_length=10)
    source: str = Field(min_length=10)

    def factors(self, end: int | None = None, shape: Shape | None = None) -> Pair:
        """(HBM, compute) over the workload defaults, running share included: at the range's low
        end (0), its high end (1), or its geometric middle (None), as the point uses; the share
        as read, or carried to a workload's `shape` (running_share_at)."""

        def at(pair: Pair) -> float:
            return pair[end] if end is not None else math.sqrt(pair[0] * pair[1])

        running = at(self.running_share if shape is None else self.running_share_at(shape))
        return (
            at(self.hbm_efficiency) / DEFAULT_HBM_EFFICIENCY * running,
            at(self.compute_efficiency) / DEFAULT_COMPUTE_EFFICIENCY * running,
        )

    def _gap(self, prompt: float, output: float) -> float:
        """Idle share of multi-step scheduling: a sequence ending inside a pass of n steps keeps
        its slot to the pass's end, (n - 1) / 2 steps on average, one decode token of compute
        each, against the prompt + output tokens of compute the request does."""
        return (self.scheduler_steps - 1) / 2 / (prompt + output)

    def running_share_at(self, shape: Shape) -> Pair:
        """The running share carried from the runs it was read from to a workload of (prompt,
        output, context spread): the idle share read, less the multi-step gap of the runs'
        lengths, is the batch draining over the spread of answer lengths, which grows with the
        spread (the last sequences end over about a standard deviation of lengths) and is nil
        without one; the workload's own multi-step gap adds (methodology section 8)."""
        if self.read_at is None:
            return self.running_share
        prompt, output, spread = self.read_at
        gap = self._gap(prompt, output)
        low, high = (
            1 / (1 + self._gap(shape[0], shape[1]) + max(1 / s - 1 - gap, 0.0) * shape[2] / spread)
            for s in self.running_share
        )
        return low, high


def _check(spec: EngineSpec, name: str) -> None:
    for field in ("compute_efficiency", "hbm_efficiency", "running_share"):
        low, high = getattr(spec, field)
        if not 0 < low <= high <= 1:
            raise InputError(f"{name} [[engine]] {spec.id}: {field} must be 0 < low <= high <= 1")
    if spec.read_at is not None and not (min(spec.read_at[:2]) >= 1 and spec.read_at[2] > 0):
        raise InputError(
            f"{name} [[engine]] {spec.id}: read_at must be [prompt >= 1, output >= 1, spread > 0]"
        )


@lru_cache(maxsize=1)
def engine_catalog() -> dict[str, EngineSpec]:
    """Every published engine by id; refuses a file whose ids differ from the workload's choices."""
    choices = set(get_args(ServingEngine)) - {NOT_STATED}
    return published_entries("engines.toml", "engine", EngineSpec, choices, _check)


def workload_shape(workload: InferenceWorkload) -> Shape:
    """(mean prompt, mean output, context spread): what the running share is carried to."""
    return float(workload.prompt_tokens), float(workload.output_tokens), workload.context_cv


def engine_factors(engine: str, shape: Shape | None = None, gpu_carry: float = 1.0) -> Pair:
    """(HBM, compute) multipliers the spec-only estimate puts on the workload's efficiencies: the
    named engine's published middle over the defaults, its running share carried to the
    workload's `shape` and its compute figure to the bid's GPU (`gpu_carry`, gpu_carry_of); 1
    when not stated (the workload's own)."""
    spec = engine_catalog().get(engine)
    if spec is None:
        return 1.0, 1.0
    hbm, compute = spec.factors(None, shape)
    return hbm, compute * gpu_carry


def read_on_gpu(engine: str) -> str | None:
    """The catalog GPU a named engine's compute figure was read on (None: no carry)."""
    spec = engine_catalog().get(engine)
    return None if spec is None else spec.read_on_gpu


def gpu_carry(engine: str, gpu_model: str | None, catalog: Catalog | None = None) -> float:
    """The named engine's compute figure carried from the GPU it was read on to `gpu_model` by
    the catalog's published training-efficiency ratio (bf16_mfu_vs_h100); 1 for an engine read
    on no particular GPU, or no GPU given."""
    read = read_on_gpu(engine)
    if read is None or gpu_model is None:
        return 1.0
    catalog = catalog or default_catalog()
    return catalog.gpu(gpu_model).bf16_mfu_vs_h100 / catalog.gpu(read).bf16_mfu_vs_h100


def _said(name: str) -> str:
    """An engine name as it is matched: compatibility forms folded (NFKC), every dash a hyphen
    (a tester's "TensorRT\u2011LLM", with a non-breaking hyphen, read as another engine), lower
    case, single spaces, no leading "NVIDIA"."""
    folded = "".join(
        "-" if unicodedata.category(c) == "Pd" else c for c in unicodedata.normalize("NFKC", name)
    )
    return " ".join(folded.lower().split()).removeprefix("nvidia ")


def engine_of_run(name: str | None) -> str | None:
    """The catalog engine a run's stated engine names, None if it names none. A name matches an
    alias as a whole word and version ("NVIDIA TensorRT-LLM 0.12", "vLLM 0.6.0"), never as a
    prefix of another version: vLLM 0.5.4 or 0.10 is not the catalog's vLLM 0.6."""
    if not name:
        return None
    said = _said(name)
    for id_, spec in engine_catalog().items():
        if any(re.match(re.escape(a) + r"(?![0-9a-z])", said) for a in spec.aliases):
            return id_
    return None


def run_engine_name(evidence: Evidence) -> str | None:
    """The engine a run names with its version, where the file or the officer gave one apart
    ("vLLM" and "0.6.3": "vLLM 0.6.3"), so a vLLM 0.6 run counts as the catalog's vLLM 0.6 (a
    tester saw every vLLM run called another engine than a stated vLLM 0.6)."""
    if not evidence.engine:
        return None
    version = evidence.engine_version
    # Only a name that carries no version of its own takes the one given apart ("vLLM 0.6" with
    # "0.6.3" stays "vLLM 0.6", not "vLLM 0.6 0.6.3"; a review).
    if version and not re.search(r"\d", evidence.engine):
        return f"{evidence.engine} {version}"
    return evidence.engine


def _same_engine_no_version(stated: str, run_engine: str) -> bool:
    """Whether the run names the stated engine's family with no version at all ("vLLM" for the
    catalog's vLLM 0.6): not another engine, an unknown version of this one."""
    said = _said(run_engine)
    spec = engine_catalog().get(stated)
    return (
        spec is not None
        and not re.search(r"\d", said)
        and any(alias.startswith(said + " ") for alias in spec.aliases)
    )


def engine_relation(stated: str, run_engine: str | None) -> str | None:
    """How a run's engine stands to the buyer's stated one, for the notes and the memo alike:
    None (nothing stated), "unnamed", "same", "no-version" (the stated engine's family, no
    version), "other" (another catalog engine) or "unknown" (an engine the catalog lacks)."""
    if stated == NOT_STATED:
        return None
    if not run_engine:
        return "unnamed"
    ran = engine_of_run(run_engine)
    if ran == stated:
        return "same"
    if _same_engine_no_version(stated, run_engine):
        return "no-version"
    return "other" if ran is not None else "unknown"


def other_engine_note(stated: str, run_engine: str | None) -> str | None:
    """A note when the bid's serving benchmark ran another engine than the one the buyer states
    (`stated`, the workload's serving_engine): the run still sets the bid's engine factor
    (evidence beats a catalog figure). A run that names no engine (an MLPerf summary names only
    its benchmark) is said to state none, never to have run on another."""
    relation = engine_relation(stated, run_engine)
    if relation in (None, "same"):
        return None
    if relation == "unnamed":
        return (
            "The serving benchmark does not state the engine it ran on: its measured engine "
            "factor is used for this bid, but whether it measures the engine the buyer states "
            f"({engine_words(stated)}) is not known; ask which engine the run used"
        )
    if relation == "no-version":  # a review: not another engine
        return (
            f"The serving benchmark ran on {run_engine} without a version, and the buyer states "
            f"{engine_words(stated)}: its measured engine factor is used for this bid, but ask "
            "which version the run used"
        )
    return (
        f"The serving benchmark ran on {run_engine}, not on the engine the buyer states "
        f"({engine_words(stated)}): its measured engine factor is used for this bid (a measured "
        "figure beats a catalog one), but it measures another engine than the one the service "
        "will run; ask for a run on the stated engine"
    )


def engine_line(workload: InferenceWorkload) -> tuple[str, str]:
    """The serving engine in words, whose statement it is, and what it does to the figures (the
    default is never shown as the buyer's or a provider's statement). Short: the memo's service
    table shares page 1 with the decision."""
    engine = workload.serving_engine
    if engine == NOT_STATED:
        return (
            "Not stated (ClusterBid's default)",
            "not stated: band widened by the spread across engines (methodology section 8)",
        )
    spec = engine_catalog()[engine]
    return (
        f"{engine_words(engine)} (the buyer's statement)",
        f"its published figures set the estimate and its range the band ({spec.cite})",
    )
