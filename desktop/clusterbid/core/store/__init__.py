"""The .clusterbid document store: one SQLite file per evaluation, with a hash-chained audit trail."""

from clusterbid.core.store.artefacts import MAX_ARTEFACT_BYTES, ArtefactInfo
from clusterbid.core.store.audit import AuditRow, default_user
from clusterbid.core.store.changes import replay_audit
from clusterbid.core.store.console import format_audit
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.core.store.errors import (
    ArtefactError,
    CorruptDocumentError,
    DocumentError,
    DocumentWriteError,
    EditRejectedError,
    LockedDocumentError,
    NewerDocumentError,
    NotADocumentError,
    UnsafeDocumentError,
)
from clusterbid.core.store.schema import APPLICATION_ID, CURRENT_VERSION
from clusterbid.core.store.verify import (
    AuditReport,
    audit_warning,
    override_note,
    verify_audit_chain,
)

__all__ = [
    "APPLICATION_ID",
    "CURRENT_VERSION",
    "MAX_ARTEFACT_BYTES",
    "ArtefactError",
    "ArtefactInfo",
    "AuditReport",
    "AuditRow",
    "CorruptDocumentError",
    "DocumentError",
    "DocumentWriteError",
    "EditRejectedError",
    "EvaluationDocument",
    "LockedDocumentError",
    "NewerDocumentError",
    "NotADocumentError",
    "UnsafeDocumentError",
    "default_user",
    "audit_warning",
    "format_audit",
    "override_note",
    "replay_audit",
    "verify_audit_chain",
]
