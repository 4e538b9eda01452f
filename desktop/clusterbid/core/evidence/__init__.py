"""Workload evidence: the Evidence model and one parser per artefact format."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clusterbid.core.evidence.errors import EvidenceParseError
    from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind
    from clusterbid.core.evidence.nccl_evidence import sha256_hex, to_evidence
    from clusterbid.core.evidence.nccl_json import parse_nccl_tests_json
    from clusterbid.core.evidence.nccl_result import (
        BusbwPlateau,
        NcclFlag,
        NcclTestsResult,
        NcclTestsRow,
        NcclTestsRun,
    )
    from clusterbid.core.evidence.nccl_text import parse_nccl_tests_text
    from clusterbid.core.evidence.provenance import grade_for
    from clusterbid.core.evidence.reading import (
        EvidenceReading,
        detect_format,
        load_evidence_bytes,
        read_evidence,
    )
    from clusterbid.core.evidence.scaling import ScalingTable, parse_scaling_csv, scaling_evidence
    from clusterbid.core.evidence.scaling_fit import ScalingFit, extrapolate, fit_power_law
    from clusterbid.core.evidence.throughput import ThroughputResult
    from clusterbid.core.evidence.throughput_as_evidence import throughput_evidence
    from clusterbid.core.evidence.throughput_readers import (
        ThroughputTable,
        parse_throughput_csv,
        parse_throughput_json,
    )

# Each name's module, imported when the name is first asked for: reading an evaluation needs the
# Evidence model alone (core/bid.py), not the parsers of every benchmark format, which `verify`
# and `memo` never run (issue 32 item 7: about 20 ms of imports).
_WHERE = {
    "EvidenceParseError": "errors",
    "Evidence": "model",
    "EvidenceGrade": "model",
    "EvidenceKind": "model",
    "sha256_hex": "nccl_evidence",
    "to_evidence": "nccl_evidence",
    "parse_nccl_tests_json": "nccl_json",
    "BusbwPlateau": "nccl_result",
    "NcclFlag": "nccl_result",
    "NcclTestsResult": "nccl_result",
    "NcclTestsRow": "nccl_result",
    "NcclTestsRun": "nccl_result",
    "parse_nccl_tests_text": "nccl_text",
    "grade_for": "provenance",
    "EvidenceReading": "reading",
    "detect_format": "reading",
    "load_evidence_bytes": "reading",
    "read_evidence": "reading",
    "ScalingTable": "scaling",
    "parse_scaling_csv": "scaling",
    "scaling_evidence": "scaling",
    "ScalingFit": "scaling_fit",
    "extrapolate": "scaling_fit",
    "fit_power_law": "scaling_fit",
    "ThroughputResult": "throughput",
    "throughput_evidence": "throughput_as_evidence",
    "ThroughputTable": "throughput_readers",
    "parse_throughput_csv": "throughput_readers",
    "parse_throughput_json": "throughput_readers",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # asked once
    return value


__all__ = [
    "BusbwPlateau",
    "Evidence",
    "EvidenceGrade",
    "EvidenceKind",
    "EvidenceParseError",
    "EvidenceReading",
    "NcclFlag",
    "NcclTestsResult",
    "NcclTestsRow",
    "NcclTestsRun",
    "ScalingFit",
    "ScalingTable",
    "ThroughputResult",
    "ThroughputTable",
    "detect_format",
    "load_evidence_bytes",
    "extrapolate",
    "fit_power_law",
    "grade_for",
    "parse_nccl_tests_json",
    "parse_nccl_tests_text",
    "parse_scaling_csv",
    "parse_throughput_csv",
    "parse_throughput_json",
    "read_evidence",
    "scaling_evidence",
    "sha256_hex",
    "throughput_evidence",
    "to_evidence",
]
