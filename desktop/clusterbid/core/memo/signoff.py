"""Sign-off helpers the CLI and the app share: the approvers a memo lists, writing a signed memo
whole, and the verification report in words."""

from __future__ import annotations

import logging
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.safe_files import write_bytes_atomically

if TYPE_CHECKING:  # `clusterbid sign` writes a memo without importing the models and cost model
    from clusterbid.core.memo.inputs import Approver
    from clusterbid.core.memo.verification import MemoVerification


def quiet_pyhanko_logs() -> None:
    """pyHanko logs every untrusted chain and damaged signature with a traceback on stderr; the
    report already says it in words, so its loggers go nowhere (CLI and app alike)."""
    for name in ("pyhanko", "pyhanko_certvalidator"):
        logging.getLogger(name).addHandler(logging.NullHandler())
        logging.getLogger(name).propagate = False


MAX_MEMO_BYTES = 200 * 1024 * 1024  # a memo is a few hundred KB; 200 MB is no memo


def read_memo_bytes(path: Path) -> bytes:
    """A memo file's bytes for sign or verify (CLI and app alike); a file too large to be a memo is
    refused before it is read."""
    from clusterbid.core.errors import InputError

    try:
        from clusterbid.core.safe_read import read_regular

        data = read_regular(path, MAX_MEMO_BYTES)  # devices and FIFOs refused before any read
        if len(data) > MAX_MEMO_BYTES:
            raise InputError(f"{path}: larger than {MAX_MEMO_BYTES:,} bytes; not a memo PDF")
        return data
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None


def write_atomically(path: Path, data: bytes) -> None:
    """Whole file or nothing (the one safe writer): a crash or a full disk leaves the previous memo."""
    write_bytes_atomically(path, data)


def memo_approvers(pdf: bytes) -> list[Approver]:
    """The approvers the memo's attached inputs list, in signing order ([] when they cannot be read)."""
    from pyhanko.pdf_utils.reader import PdfFileReader

    from clusterbid.core.memo.attachment import read_attached_inputs
    from clusterbid.core.memo.inputs import Approver, parse_memo_inputs

    try:
        raw = read_attached_inputs(PdfFileReader(BytesIO(pdf), strict=False)).raw
        if raw is None:
            return []
        listed = parse_memo_inputs(raw).get("approvers") or []
        return [Approver(str(a.get("name", "")), str(a.get("role", "")), str(a.get("email") or ""))
                for a in listed]
    except Exception:  # a courtesy for the trail and the app's list; verification checks the inputs properly
        return []


def approver_role(pdf: bytes, index: int) -> str:
    """The role the memo lists for approver N (1-based), for the audit trail ('' when unknown)."""
    approvers = memo_approvers(pdf)
    return approvers[index - 1].role if 0 < index <= len(approvers) else ""


def format_verification(name: str, result: MemoVerification, evaluation_path: Path | str | None = None) -> str:
    """The report `clusterbid verify` prints and the app shows."""
    lines = [f"Memo {name}"]
    for sig in result.signatures:
        when = f"{sig.signing_time:%Y-%m-%d %H:%M:%S %Z}" if sig.signing_time else "no time given"
        trusted = {None: "NOT TRUSTED (no trusted certificate given)", True: "yes", False: "NO"}[sig.trusted]
        lines.append(f"  {sig.field}: signed by {sig.signer} at {when} (signer's clock)")
        lines.append(f"    intact: {'yes' if sig.intact else 'NO'}; {sig.coverage}; trusted: {trusted}")
        lines.append(f"    changed after this signature: {sig.changes_after}")
    if result.signer_chains:
        lines.append("  who signed, with which certificate, chaining to which anchor, in which registry entry:")
        lines += [f"    {line}" for line in result.signer_chains]
    lines.append(f"  unsigned fields: {', '.join(result.unsigned_fields) or 'none'}")
    if result.inputs_sha256:
        verdict = ("matches the SHA-256 the memo states in its description" if result.inputs_match_printed
                   else f"the memo's description states {result.printed_sha256 or 'no single value'}")
        lines.append(f"  attached inputs SHA-256 {result.inputs_sha256}: {verdict}")
    if result.inputs_sha256:
        lines.append(f"  printed page vs attached inputs, checked by: {result.page_check}")
        lines += [f"    {c}" for c in result.page_checked]
    if result.rescore_matches is not None:
        lines.append("  re-scored with this version's model: "
                     + ("ranking and figures match the memo" if result.rescore_matches else "DIFFERENT from the memo"))
        lines += [f"    {d}" for d in result.rescore_differences[:20]]
    if result.evaluation_matches is not None:
        lines.append(f"  evaluation {evaluation_path}: " + ("matches the memo" if result.evaluation_matches else "DIFFERS"))
        lines += [f"    {d}" for d in result.evaluation_differences[:20]]
    if result.ok:
        lines.append("OK: every check holds")
    else:
        lines.append(f"FAILED ({len(result.problems)} problem(s)):")
        lines += [f"  - {p}" for p in result.problems]
    return "\n".join(lines)
