"""Provenance of every figure: who stated, measured, assumed or defaulted it (issue 14)."""

from clusterbid.core.provenance.defaults import (
    DOCUMENTED_DEFAULTS,
    RELIABILITY_DEFAULTS,
    TRACKED_BID_FIELDS,
    WORKLOAD_TRACKED_FIELDS,
    DocumentedDefault,
)
from clusterbid.core.provenance.model import KIND_LABELS, Source, SourceKind
from clusterbid.core.provenance.resolve import (
    completed_bid_provenance,
    completed_workload_provenance,
    effective_reliability,
    effective_terms,
    unstated_fee_shares,
    unverified_inputs,
)

__all__ = [
    "DOCUMENTED_DEFAULTS",
    "KIND_LABELS",
    "RELIABILITY_DEFAULTS",
    "TRACKED_BID_FIELDS",
    "WORKLOAD_TRACKED_FIELDS",
    "DocumentedDefault",
    "Source",
    "SourceKind",
    "completed_bid_provenance",
    "completed_workload_provenance",
    "effective_reliability",
    "effective_terms",
    "unstated_fee_shares",
    "unverified_inputs",
]
