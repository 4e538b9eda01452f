"""Check each signature of a memo with pyHanko: intact, what it covers, and trusted or not."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from asn1crypto import x509 as asn1_x509
from pyhanko.sign.diff_analysis import ModificationLevel
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.pdf_embedded import EmbeddedPdfSignature
from pyhanko.sign.validation.status import PdfSignatureStatus, SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

log = logging.getLogger(__name__)

WHOLE_DOCUMENT = "covers the whole document"
FOLLOWED_BY_SIGNATURES = "followed only by later signatures"
FOLLOWED_BY_CHANGES = (
    "followed by changes that are not signatures (the memo was altered after this signature)"
)
NOT_COVERED = "does not cover the document it sits in"
# Later approvers filling their own fields is the one change a signed memo may receive.
ALLOWED_AFTER_SIGNING = (
    ModificationLevel.NONE,
    ModificationLevel.LTA_UPDATES,
    ModificationLevel.FORM_FILLING,
)
# pyHanko's difference analysis of everything written after a signature, in words.
CHANGES_IN_WORDS = {
    ModificationLevel.NONE: "nothing",
    ModificationLevel.LTA_UPDATES: "only validation data or timestamps",
    ModificationLevel.FORM_FILLING: "form fields filled",
    ModificationLevel.ANNOTATIONS: "annotations added or changed (refused)",
    ModificationLevel.OTHER: "content, attachments, fields or structure changed (refused)",
}


@dataclass(frozen=True)
class SignatureReport:
    """One approver's signature as found in the memo; `problems` says in words what failed."""

    field: str
    signer: str
    signing_time: datetime | None  # as claimed by the signer's clock: no timestamp server offline
    intact: bool
    coverage: str
    trusted: bool | None  # None when no trust roots were given
    problems: tuple[str, ...]
    changes_after: str = "not analysed"  # pyHanko's modification level of the later revisions

    @property
    def ok(self) -> bool:
        return not self.problems


def validation_context(
    trust_roots: list[asn1_x509.Certificate], moment: datetime | None = None
) -> ValidationContext:
    # Only the roots the user gave: never the operating system's list, never the network
    # (memos are checked offline; soft-fail because test and company CAs often publish no CRL).
    # The chain is judged at the signing time when the signature gives one: a certificate valid
    # then keeps its signature valid after it expires.
    return ValidationContext(
        trust_roots=list(trust_roots),
        allow_fetching=False,
        revocation_mode="soft-fail",
        moment=moment,
    )


def certificate_problems(
    field: str, signer: str, certificate: asn1_x509.Certificate, signed_at: datetime | None
) -> list[str]:
    """What a signer's own certificate says against its signature, trusted or not: outside its
    validity period at the signing time, or not made for signing (no digitalSignature or
    nonRepudiation key usage). The signing time is the signer's clock (no timestamp offline)."""
    problems = []
    validity = certificate["tbs_certificate"]["validity"]
    start, end = validity["not_before"].native, validity["not_after"].native
    if signed_at is not None and signed_at < start:
        problems.append(
            f"{field}: {signer}'s certificate was not yet valid when the signature says it was "
            "made "
            f"({signed_at:%Y-%m-%d %H:%M} UTC; valid from {start:%Y-%m-%d %H:%M} UTC)"
        )
    if signed_at is not None and signed_at > end:
        problems.append(
            f"{field}: {signer}'s certificate had expired when the signature says it was made "
            f"({signed_at:%Y-%m-%d %H:%M} UTC; expired {end:%Y-%m-%d %H:%M} UTC)"
        )
    usage = certificate.key_usage_value
    allowed = set(usage.native) if usage is not None else set()
    if not allowed & {"digital_signature", "non_repudiation"}:
        problems.append(
            f"{field}: {signer}'s certificate is not a signing certificate (its key usage "
            f"{'is ' + ', '.join(sorted(allowed)) if allowed else 'is not stated'}; a memo "
            "signature needs digitalSignature or nonRepudiation)"
        )
    return problems


def _signer_name(embedded: EmbeddedPdfSignature) -> str:
    try:
        subject = embedded.signer_cert.subject.native
        return str(subject.get("common_name") or embedded.signer_cert.subject.human_friendly)
    except (ValueError, KeyError, AttributeError):
        return "(unreadable certificate)"


def _coverage(status: PdfSignatureStatus) -> tuple[str, bool]:
    if status.coverage == SignatureCoverageLevel.ENTIRE_FILE:
        return WHOLE_DOCUMENT, True
    if status.coverage != SignatureCoverageLevel.ENTIRE_REVISION:
        return NOT_COVERED, False
    if status.modification_level in ALLOWED_AFTER_SIGNING and status.docmdp_ok is not False:
        return FOLLOWED_BY_SIGNATURES, True
    return FOLLOWED_BY_CHANGES, False


def check_signature(
    embedded: EmbeddedPdfSignature, trust_roots: list[asn1_x509.Certificate]
) -> SignatureReport:
    """Validate one signature; a malformed one becomes a report with the problem, never an exception."""
    field = str(embedded.field_name)
    signer = _signer_name(embedded)
    try:
        claimed = embedded.self_reported_timestamp
    except Exception:  # noqa: BLE001 (a damaged /M date, e.g. a flipped byte, is PdfReadError: no claim)
        claimed = None
    try:
        status = validate_pdf_signature(embedded, validation_context(trust_roots, claimed))
    except Exception as exc:  # pyHanko raises many types on damaged input; all mean "not valid"
        log.debug("signature %s could not be validated", field, exc_info=True)
        return SignatureReport(
            field,
            signer,
            claimed,
            False,
            NOT_COVERED,
            None if not trust_roots else False,
            (f"{field}: the signature could not be checked ({type(exc).__name__}: {exc})",),
        )
    problems = []
    intact = bool(status.intact and status.valid)
    if not status.intact:
        problems.append(f"{field}: the signed bytes were changed after {signer} signed")
    elif not status.valid:
        problems.append(f"{field}: the signature value does not match {signer}'s certificate")
    try:
        problems += certificate_problems(
            field, signer, embedded.signer_cert, status.signer_reported_dt or claimed
        )
    except (ValueError, KeyError, AttributeError):
        problems.append(
            f"{field}: {signer}'s certificate cannot be read for its validity and key usage"
        )
    coverage, coverage_ok = _coverage(status)
    if not coverage_ok:
        problems.append(f"{field}: the signature {coverage}")
    trusted = None
    if trust_roots:
        trusted = bool(status.trusted)
        if not trusted:
            problems.append(
                f"{field}: {signer}'s certificate is not trusted: it does not chain to a "
                "certificate "
                "trusted for this check, or is expired, revoked or lacks the non-repudiation usage"
            )
    if status.coverage == SignatureCoverageLevel.ENTIRE_FILE:
        changes = "nothing (the signature covers the whole file)"
    else:
        level = status.modification_level
        changes = (
            "not determined (refused)"
            if level is None
            else CHANGES_IN_WORDS.get(level, f"{level} (refused)")
        )
        filled = getattr(status.diff_result, "changed_form_fields", None)
        if level == ModificationLevel.FORM_FILLING and filled:
            # Which fields: the sign-off checks refuse any but the later approvers' own.
            changes = f"form fields filled: {', '.join(sorted(filled))}"
    return SignatureReport(
        field,
        signer,
        status.signer_reported_dt or claimed,
        intact,
        coverage,
        trusted,
        tuple(problems),
        changes,
    )
