"""Sign-off helpers the CLI and the app share: the approvers a memo lists, writing a signed memo
whole, and the verification report in words."""

from __future__ import annotations

import logging
from dataclasses import dataclass
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

    from clusterbid.core.memo.approvers_listed import Approver, parse_memo_inputs
    from clusterbid.core.memo.attachment import read_attached_inputs

    try:
        raw = read_attached_inputs(PdfFileReader(BytesIO(pdf), strict=False)).raw
        if raw is None:
            return []
        listed = parse_memo_inputs(raw).get("approvers") or []
        return [
            Approver(str(a.get("name", "")), str(a.get("role", "")), str(a.get("email") or ""))
            for a in listed
        ]
    except (
        Exception
    ):  # a courtesy for the trail and the app's list; verification checks the inputs properly
        return []


@dataclass(frozen=True)
class SignatureFields:
    """A memo's signature fields in the form's order: those signed and those still empty."""

    signed: tuple[str, ...]
    unsigned: tuple[str, ...]


def signature_fields(pdf: bytes) -> SignatureFields:
    """Which fields are signed, read from the form alone: what the app's Sign dialog offers. It
    proves nothing (verify_memo re-renders every page for that, which takes seconds); signing
    itself refuses a signed, unknown or out-of-turn field (signing.py). InputError when `pdf`
    cannot be read as a PDF."""
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.fields import enumerate_sig_fields

    from clusterbid.core.errors import InputError

    if b"%PDF-" not in pdf[:1024]:
        raise InputError("not a PDF file; choose the memo PDF exported by ClusterBid")
    try:
        found = [
            (str(name), value is not None)
            for name, value, _ in enumerate_sig_fields(PdfFileReader(BytesIO(pdf), strict=False))
        ]
    except Exception as exc:  # noqa: BLE001 (a damaged file is said in words, never a traceback)
        raise InputError(
            f"the PDF is damaged and its signature fields cannot be read "
            f"({type(exc).__name__}: {exc}); verify it to see what is wrong"
        ) from None
    return SignatureFields(
        tuple(name for name, signed in found if signed),
        tuple(name for name, signed in found if not signed),
    )


def approver_role(pdf: bytes, index: int) -> str:
    """The role the memo lists for approver N (1-based), for the audit trail ('' when unknown)."""
    approvers = memo_approvers(pdf)
    return approvers[index - 1].role if 0 < index <= len(approvers) else ""


# The verdict in plain words, made once: `clusterbid verify` prints it, the app's dialog shows it.
VERDICT_WORDS = {
    "VALID": "VALID: every page is proven to be what the attached inputs render to, each "
    "approver's field is signed by a trusted certificate, and nothing but signatures was "
    "added after signing.",
    "INDETERMINATE": "INDETERMINATE: nothing was found wrong, but {n} thing(s) could not be proven "
    "here (listed below); do not rely on this memo until they are.",
    "INVALID": "INVALID: {n} finding(s) prove this memo is not what was approved, or not approved "
    "as it says (listed below).",
}
VERDICT_COLOURS = {"VALID": "#1b7f3b", "INDETERMINATE": "#8a5a00", "INVALID": "#b00020"}


def verdict_headline(result: MemoVerification) -> str:
    """The report's first line: the three-state verdict (ETSI EN 319 102-1) in plain words."""
    count = len(result.problems) if result.verdict == "INVALID" else len(result.unproven)
    words = VERDICT_WORDS[result.verdict].format(n=count)
    # an evaluation edited after the memo was made is said at once, beside the verdict
    return f"{words} {result.changed_since}" if result.changed_since else words


def _signature_lines(result: MemoVerification) -> list[str]:
    lines = []
    for sig in result.signatures:
        when = f"{sig.signing_time:%Y-%m-%d %H:%M:%S %Z}" if sig.signing_time else "no time given"
        trusted = {None: "NOT TRUSTED (no trusted certificate given)", True: "yes", False: "NO"}[
            sig.trusted
        ]
        intact = "yes" if sig.intact else "NO"
        lines.append(f"  {sig.field}: signed by {sig.signer} at {when} (signer's clock)")
        lines.append(f"    intact: {intact}; {sig.coverage}; trusted: {trusted}")
        lines.append(f"    changed after this signature: {sig.changes_after}")
        lines += [
            f"    long term: {report.words().partition(': ')[2]}"
            for report in result.long_term
            if report.field == sig.field
        ]
    if result.signer_chains:
        lines.append(
            "  who signed, with which certificate, chaining to which anchor, in which registry "
            "entry:"
        )
        lines += [f"    {line}" for line in result.signer_chains]
    lines.append(f"  unsigned fields: {', '.join(result.unsigned_fields) or 'none'}")
    return lines


def _held(flag: bool | None) -> str:
    return {True: "holds", False: "FAILS", None: "not checked"}[flag]


def format_verification(
    name: str,
    result: MemoVerification,
    evaluation_path: Path | str | None = None,
    *,
    explain: bool = False,
) -> str:
    """The report `clusterbid verify` prints and the app shows: the verdict, then each check and
    its result, then every finding; `explain` adds every revision and the check that covers it."""
    lines = [verdict_headline(result), "", f"Memo {name}", "Signatures:"]
    lines += _signature_lines(result)
    lines.append(
        f"Every page against a re-render of the attached inputs: "
        f"{'proven' if result.pages_proven else 'NOT proven'}"
    )
    lines.append(f"  {result.page_check}")
    lines += [f"  recorded here: {note}" for note in result.version_notes]
    if result.inputs_sha256:
        verdict = (
            "matches the SHA-256 the memo states"
            if result.inputs_match_printed
            else f"the memo states {result.printed_sha256 or 'no single value'}"
        )
        lines.append(f"Attached inputs SHA-256 {result.inputs_sha256}: {verdict}")
        lines.append("Page 1 against the attached inputs:")
        lines += [f"  {c}" for c in result.page_checked] or ["  nothing held"]
    if result.rescore_matches is not None:
        lines.append(
            f"Re-scored with this version's model: {_held(result.rescore_matches)}"
            + ("" if result.rescore_matches else ": DIFFERENT from the memo")
        )
        lines += [f"  {d}" for d in result.rescore_differences[:20]]
    if result.evaluation_matches is not None:
        matches = "matches the memo" if result.evaluation_matches else "DIFFERS"
        lines.append(f"Evaluation {evaluation_path}: {matches}")
        lines += [f"  {d}" for d in result.evaluation_differences[:20]]
    if result.problems:
        lines.append(f"Proven wrong ({len(result.problems)}):")
        lines += [f"  - {p}" for p in result.problems]
    if result.unproven:
        lines.append(f"Not proven here ({len(result.unproven)}):")
        lines += [f"  - {p}" for p in result.unproven]
    if explain:
        lines.append(f"Revisions ({len(result.revisions)}):")
        lines += [f"  {revision.words()}" for revision in result.revisions] or [
            "  the history cannot be read"
        ]
    return "\n".join(lines)
