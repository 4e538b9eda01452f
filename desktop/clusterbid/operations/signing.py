"""Sign an approver field of a memo, and record the signature in the audit trail of the one
document the memo was made from.

Which document may take the signature row is decided here, from the memo's audit anchor: a memo
made from evaluation A never puts a row into B's append-only trail, whichever door signed it
(issue 33). `clusterbid sign --evaluation B` refuses before signing (the officer asked for the
row); the app signs and says the row was not written (the officer asked for the signature).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.core.memo.signoff import read_memo_bytes
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint
from clusterbid.operations.recording import record_in, same_file

if TYPE_CHECKING:
    from clusterbid.core.memo.credentials import SigningCredentials
    from clusterbid.core.store import EvaluationDocument

NOT_OURS = "not recorded: the memo was not made from this evaluation's history"


@dataclass(frozen=True)
class MemoToSign:
    """A memo read for signing: its bytes as read, the document whose trail may record its
    signature (None, with `refusal` saying why, when none may) and, when checked for the app's
    dialog, the approvers it lists and its signed and empty fields, read from the form alone."""

    path: Path
    pdf: bytes
    approvers: tuple[Any, ...]
    record_into: Path | None
    refusal: str | None
    fields: Any = None  # signoff.SignatureFields: what the app's dialog offers (proves nothing)


@dataclass(frozen=True)
class SignedMemoResult:
    path: Path
    number: int
    field: str
    signer: str
    signing_time: datetime
    sha256: str
    role: str
    record_into: Path | None  # the only document that may take the row
    not_recorded: str | None  # why no row may be written (None when one may)


def read_memo_to_sign(path: Path, document: Path | None, *, check: bool = False) -> MemoToSign:
    """Read the memo and decide which document may record its signature (`with_record_rule`).
    `check` also lists its approvers and fields for the app's dialog, from the form alone: a full
    verification re-renders every page (seconds) and proves nothing the offer needs; signing
    refuses a wrong field or signer itself."""
    from clusterbid.core.memo.signoff import memo_approvers, quiet_pyhanko_logs, signature_fields

    quiet_pyhanko_logs()  # problems are shown in words, never as tracebacks on the terminal
    pdf = read_memo_bytes(Path(path))
    fields = None
    approvers: tuple[Any, ...] = ()
    if check:
        fields = signature_fields(pdf)
        approvers = tuple(memo_approvers(pdf))
    memo = MemoToSign(Path(path), pdf, approvers, None, None, fields)
    return with_record_rule(memo, document)


def with_record_rule(memo: MemoToSign, document: Path | None) -> MemoToSign:
    """`memo` with the one document that may record its signature: `document` when the memo was
    made from its history (its audit anchor is in that trail), else none, with the reason."""
    if document is None:
        return memo
    from clusterbid.core.memo.anchor_check import signature_record_refusal

    refusal = signature_record_refusal(memo.pdf, Path(document))
    return replace(memo, record_into=Path(document) if refusal is None else None, refusal=refusal)


def open_document_for_signature(path: Path) -> EvaluationDocument:
    """The document `sign --evaluation` names, refused (before anything is signed) when it is no
    .clusterbid file, cannot be written, or does not open."""
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.core.store.fileformat import read_only_refusal

    if Path(path).suffix != ".clusterbid":
        raise InputError(f"--evaluation {path}: signatures are recorded in a .clusterbid document")
    refusal = read_only_refusal(Path(path), "the signature")
    if refusal:
        raise InputError(refusal)
    return EvaluationDocument.open(path)


def refuse_foreign_record(memo: MemoToSign, document: Path) -> None:
    """For a door that asked for the row: refuse, before signing, a memo the document cannot
    record."""
    if memo.refusal is not None:
        raise InputError(
            f"--evaluation {document}: {memo.refusal}; nothing was signed "
            "(sign without --evaluation, or name the memo's own document)"
        )


def sign_memo_file(
    memo: MemoToSign,
    number: int,
    credentials: Callable[[], SigningCredentials],
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    remark: str = "",
    location: str | None = None,
    output: Path | None = None,
    source: str | None = None,
    tsa: str | None = None,
) -> SignedMemoResult:
    """Fill approver field `number` and write the memo (to `output`, else in place). The file must
    still hold the bytes read: one another approver signed meanwhile is left as it is.
    `credentials` is called after the checks, so a refused memo never asks for a passphrase."""
    from clusterbid.core.memo.signer_check import refuse_wrong_signer
    from clusterbid.core.memo.signing import approver_field, sign_memo
    from clusterbid.core.memo.signoff import (
        approver_role,
        memo_approvers,
        quiet_pyhanko_logs,
        write_atomically,
    )

    quiet_pyhanko_logs()
    field = approver_field(number)
    signer = credentials()
    # Issue 38: a certificate issued to someone other than the approver named for the field, or
    # one that already signed another field, is refused here, before anything is written.
    refuse_wrong_signer(memo.pdf, memo_approvers(memo.pdf), field, signer, source or memo.path.name)
    if read_memo_bytes(memo.path) != memo.pdf:
        raise InputError(
            f"{memo.path.name} changed since it was opened (another approver may "
            "have signed it); nothing was signed: sign it again to sign the "
            "current file"
        )
    progress(0.2, "signing")
    signed = sign_memo(
        memo.pdf,
        field,
        signer,
        remark=remark,
        location=location,
        source=source or memo.path.name,
        tsa_url=tsa,
    )
    progress(0.9, "writing")
    checkpoint(cancel)  # the last point a cancel stops it: nothing is written after it
    write_atomically(output or memo.path, signed.pdf)
    role = ""  # the role the memo lists for the field, for the audit row only
    if memo.record_into is not None:
        role = approver_role(memo.pdf, number)
    return SignedMemoResult(
        output or memo.path,
        number,
        field,
        signed.signer,
        signed.signing_time,
        signed.sha256,
        role,
        memo.record_into,
        None if memo.record_into is not None else (memo.refusal or NOT_OURS),
    )


def write_signature_row(document: EvaluationDocument, signed: SignedMemoResult) -> tuple[str, ...]:
    """Write the signature row into `document`, which must be the one the memo was made from
    (InputError otherwise, or when the file cannot take it); returns what the anchor log outside
    the file could not take."""
    if signed.record_into is None:
        raise InputError(signed.not_recorded or NOT_OURS)
    if not same_file(document.path, signed.record_into):
        raise InputError(
            f"{document.path.name} is not the evaluation this memo was made from "
            f"({signed.record_into.name}); its audit trail records only signatures "
            "of its own memos"
        )
    document.record_signature(signed.signer, signed.sha256, role=signed.role)
    return tuple(document.anchor_problems)


def record_signature(document: EvaluationDocument, signed: SignedMemoResult) -> str | None:
    """The app's recording: the row when `document` may take it; else, or when the file cannot,
    why not, in words (the memo is signed either way). None when all went in."""
    if signed.record_into is None:
        return NOT_OURS
    return record_in(document, lambda doc: write_signature_row(doc, signed))
