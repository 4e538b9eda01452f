"""Workload evidence: the Evidence model and (later) one parser per artefact format."""

from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind

__all__ = ["Evidence", "EvidenceGrade", "EvidenceKind"]
