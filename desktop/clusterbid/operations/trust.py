"""Trust approver certificates (or their CA) in a document: each kept as one audited row, so every
memo verified against the document uses the same certificates, from either door."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class TrustResult:
    added: tuple[Any, ...]  # TrustedCertificate, in the order the files gave them
    listed: tuple[Any, ...]  # every certificate the document trusts now


def require_document(path: Path) -> None:
    """Trust lives in a .clusterbid document only; refused by name before anything is opened.
    A missing file, FIFO or device is left to the document's own open, which says which it is."""
    if Path(path).suffix != ".clusterbid":
        raise InputError(
            f"{path}: give an evaluation document (.clusterbid); trust is kept in it, "
            "audited, so every memo verified against it uses the same certificates"
        )


def trust(
    document: EvaluationDocument,
    files: Sequence[Path | str],
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    on_added: Callable[[Any], None] | None = None,
) -> TrustResult:
    """Keep the certificates of each file (a file is added whole or not at all; one already
    trusted is refused by name). `on_added` hears of each as it is kept, so a refusal of a later
    file still lets the caller say what went in before it."""
    from clusterbid.core.memo.trust_store import add_trusted_certificates, trusted_certificates

    added: list[Any] = []
    for done, path in enumerate(files):
        checkpoint(cancel)  # between files: each file's rows are committed whole
        progress(done / len(files), f"adding {Path(path).name}")
        for certificate in add_trusted_certificates(document, path):
            added.append(certificate)
            if on_added is not None:
                on_added(certificate)
    return TrustResult(tuple(added), tuple(trusted_certificates(document)))
