"""GPU and fabric reference specs, loaded from the data files in resources/catalog/."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.model_parsing import one_line_problems
from clusterbid.resources import resource_path

_STRICT = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class GpuSpec(BaseModel):
    """One accelerator's dense peaks and memory system, with the public source of the figures."""

    model_config = _STRICT

    id: str = Field(min_length=1)
    name: str
    vendor: str
    peak_basis: Literal["dense"] = Field(
        description="Peaks must be dense; sparse figures are refused"
    )
    dense_bf16_tflops: float = Field(gt=0, description="Dense BF16 tensor peak, TFLOP/s")
    dense_fp8_tflops: float | None = Field(None, gt=0, description="Dense FP8 tensor peak, TFLOP/s")
    hbm_gb: float = Field(gt=0, description="Device memory, GB (1e9 bytes)")
    hbm_bandwidth_tb_s: float = Field(gt=0, description="Device memory bandwidth, TB/s")
    nvlink_bandwidth_gb_s: float = Field(
        gt=0, description="GPU-to-GPU bandwidth per GPU, both directions, GB/s"
    )
    nvlink_domain_gpus: int = Field(ge=1, description="GPUs sharing one NVLink domain")
    source: str = Field(min_length=10)
    # The same software reaches a different share of the peak on each GPU and precision.
    bf16_mfu_vs_h100: float = Field(
        1.0, gt=0, le=3, description="BF16 MFU on this GPU / BF16 MFU on H100 SXM, same software"
    )
    fp8_speedup_over_bf16: float = Field(
        1.3,
        gt=0,
        le=2,
        description="Measured FP8 throughput / BF16 throughput (not the peak ratio)",
    )
    efficiency_source: str = Field(
        "no same-software comparison published: the workload's baseline MFU applies as stated "
        "(FP8 gain 1.3x from llm-foundry's H100 tables)",
        min_length=10,
    )

    def dense_tflops(self, precision: str) -> float | None:
        """Dense peak for 'bf16' or 'fp8'; None when the GPU has no such tensor cores."""
        return self.dense_bf16_tflops if precision == "bf16" else self.dense_fp8_tflops

    def mfu_factor(self, precision: str) -> float:
        """Multiplier from the workload's baseline MFU (the buyer's stack at BF16 on H100) to
        this GPU and precision. FP8 doubles the peak but real runs gain only
        `fp8_speedup_over_bf16`, so MFU of the FP8 peak is that gain over the peak ratio."""
        if precision == "bf16" or self.dense_fp8_tflops is None:
            return self.bf16_mfu_vs_h100
        peak_ratio = self.dense_fp8_tflops / self.dense_bf16_tflops
        return self.bf16_mfu_vs_h100 * self.fp8_speedup_over_bf16 / peak_ratio


class FabricSpec(BaseModel):
    """One node-to-node fabric technology with its typical ring efficiency and latency."""

    model_config = _STRICT

    id: str = Field(min_length=1)
    name: str
    line_rate_gbit_s: float = Field(gt=0, description="Per-NIC line rate, Gbit/s")
    typical_efficiency: float = Field(
        gt=0, le=1, description="Ring all_reduce busbw / NIC aggregate"
    )
    ring_step_latency_us: float = Field(ge=0, description="Latency per ring step, microseconds")
    rdma: bool
    multi_node_training: bool
    source: str = Field(min_length=10)


class Catalog(BaseModel):
    """Every GPU and fabric the app knows, keyed by id."""

    model_config = ConfigDict(frozen=True)

    gpus: dict[str, GpuSpec]
    fabrics: dict[str, FabricSpec]

    def gpu(self, gpu_id: str) -> GpuSpec:
        try:
            return self.gpus[gpu_id]
        except KeyError:
            raise InputError(
                f"unknown GPU model {gpu_id!r}; the catalog has: {', '.join(self.gpus)}"
            ) from None

    def fabric(self, fabric_id: str) -> FabricSpec:
        try:
            return self.fabrics[fabric_id]
        except KeyError:
            raise InputError(
                f"unknown fabric {fabric_id!r}; the catalog has: {', '.join(self.fabrics)}"
            ) from None


# The two kinds of catalog entry, each keyed by its `id`.
_Entry = TypeVar("_Entry", "GpuSpec", "FabricSpec")


def _load_entries(path: Path, table: str, model: type[_Entry]) -> dict[str, _Entry]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path.name}: not valid TOML ({exc})") from None
    entries: dict[str, _Entry] = {}
    for index, raw in enumerate(data.get(table, [])):
        label = f"{path.name} [[{table}]] #{index + 1} ({raw.get('id', '?')})"
        sparse_keys = [key for key in raw if key.startswith("sparse_")]
        if sparse_keys or raw.get("peak_basis") == "sparse":
            raise InputError(
                f"{label}: sparse peak figures are refused "
                f"({', '.join(sparse_keys) or 'peak_basis = sparse'}); "
                "give the dense peak (half the 2:4-sparsity figure) as dense_bf16_tflops / "
                "dense_fp8_tflops"
            )
        try:
            entry = model.model_validate(raw)
        except ValidationError as exc:
            raise InputError(f"{label}: {one_line_problems(exc)}") from None
        if entry.id in entries:
            raise InputError(f"{label}: duplicate id {entry.id!r}")
        entries[entry.id] = entry
    if not entries:
        raise InputError(f"{path.name}: no [[{table}]] entries")
    return entries


def load_catalog(gpus_file: Path, fabrics_file: Path) -> Catalog:
    """Read and validate catalog data files; raises InputError naming the entry and rule."""
    return Catalog(
        gpus=_load_entries(gpus_file, "gpu", GpuSpec),
        fabrics=_load_entries(fabrics_file, "fabric", FabricSpec),
    )


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The bundled catalog, read once per process."""
    return load_catalog(
        resource_path("catalog", "gpus.toml"), resource_path("catalog", "fabrics.toml")
    )
