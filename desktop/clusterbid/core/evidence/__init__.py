"""Workload evidence: the Evidence model and one parser per artefact format."""

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.evidence.nccl_evidence import sha256_hex, to_evidence
from clusterbid.core.evidence.nccl_json import parse_nccl_tests_json
from clusterbid.core.evidence.nccl_result import BusbwPlateau, NcclFlag, NcclTestsResult, NcclTestsRow, NcclTestsRun
from clusterbid.core.evidence.nccl_text import parse_nccl_tests_text

__all__ = [
    "BusbwPlateau",
    "Evidence",
    "EvidenceGrade",
    "EvidenceKind",
    "EvidenceParseError",
    "NcclFlag",
    "NcclTestsResult",
    "NcclTestsRow",
    "NcclTestsRun",
    "parse_nccl_tests_json",
    "parse_nccl_tests_text",
    "sha256_hex",
    "to_evidence",
]
