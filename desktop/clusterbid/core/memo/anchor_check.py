"""Verify against a .clusterbid document: its audit chain must still hold the row the memo was made at.

Kept apart from verification.py so the anchor check reads the document (SQLite) only when the
officer names one; verifying a memo alone, or against a JSON evaluation, never opens a store.
"""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.inputs import parse_memo_inputs
from clusterbid.core.store.anchor import AuditAnchor, check_anchor

if TYPE_CHECKING:  # the type only: verification.py reads the anchor through signoff_trust.py
    from clusterbid.core.memo.verification import MemoVerification

DOCUMENT_SUFFIX = ".clusterbid"


def memo_anchor(pdf: bytes) -> AuditAnchor | None:
    """The audit anchor a memo's attached inputs carry (None without one); InputError or ValueError
    when the attachment is unreadable or the anchor malformed."""
    from pyhanko.pdf_utils.reader import PdfFileReader

    raw = read_attached_inputs(PdfFileReader(BytesIO(pdf), strict=False)).raw
    if raw is None:
        raise InputError("the memo carries no attached inputs")
    return AuditAnchor.from_json(parse_memo_inputs(raw).get("audit_anchor"))


def anchor_problems(pdf: bytes, document: Path) -> list[str]:
    """Why `document` is not (or no longer) the history the memo was made from; [] when it is."""
    try:
        anchor = memo_anchor(pdf)
    except (InputError, ValueError) as exc:
        return [f"the memo's audit anchor cannot be read ({exc})"]
    except Exception:  # a damaged PDF: verify_memo has already said so in its own words
        return []
    return check_anchor(document, anchor)


def signature_record_refusal(pdf: bytes, document: Path) -> str | None:
    """Why a signature of `pdf` must not be written into `document`'s audit trail (None when it
    may): the memo must have been made from this document's history. One rule for the command
    line and the app, so neither door can put a signature of another evaluation's memo on record."""
    problems = anchor_problems(pdf, Path(document))
    if not problems:
        return None
    return (
        f"{Path(document).name} is not the evaluation this memo was made from "
        f"({problems[0]}); its audit trail records only signatures of its own memos"
    )


def with_document_anchor(
    result: MemoVerification, pdf: bytes, evaluation_path: Path | None
) -> MemoVerification:
    """`result` with the anchor check added when the memo is verified against a .clusterbid document."""
    if evaluation_path is None or Path(evaluation_path).suffix != DOCUMENT_SUFFIX:
        return result
    problems = anchor_problems(pdf, Path(evaluation_path))
    return replace(result, problems=result.problems + tuple(problems)) if problems else result
