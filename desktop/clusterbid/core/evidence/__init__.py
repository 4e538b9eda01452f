"""Workload evidence: the Evidence model and one parser per artefact format."""

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
