"""Before signing: the certificate must be issued to the approver named for the field, and must not
have signed another field of the memo already.

Verify catches both afterwards (approver_binding.py), but by then the signature is in the file and
every approver has to sign a fresh copy. Here the same comparison is made before a byte is written,
by the app's Sign dialog and by `clusterbid sign`, so the officer is told at once whose certificate
it is and whose field it was about to fill.
"""

from __future__ import annotations

import hashlib
from io import BytesIO

from clusterbid.core.errors import InputError
from clusterbid.core.memo.approver_binding import SignerIdentity, certificate_emails, identity_of
from clusterbid.core.memo.credentials import SigningCredentials
from clusterbid.core.memo.signing import FIELD_PREFIX


def credentials_identity(field: str, credentials: SigningCredentials) -> SignerIdentity:
    """Who the certificate about to sign names, read the way verify reads a signature's."""
    certificate = credentials.certificate
    subject = certificate.subject.native
    return SignerIdentity(
        field,
        str(subject.get("common_name") or credentials.common_name),
        certificate_emails(certificate),
        certificate.sha256.hex(),
        hashlib.sha256(certificate.public_key.dump()).hexdigest(),
    )


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _number(field: str) -> str:
    tail = field[len(FIELD_PREFIX) :]
    return tail if field.startswith(FIELD_PREFIX) and tail.isdigit() else field


def _named(approvers: list, field: str) -> str:
    """'approver 2 (Grace Hopper, CFO)' for a field the memo names someone for."""
    number = _number(field)
    index = int(number) - 1 if number.isdigit() else -1
    if 0 <= index < len(approvers):
        return f"approver {number} ({approvers[index].name}, {approvers[index].role})"
    return f"approver {number}"


def earlier_signers(pdf: bytes) -> list[SignerIdentity]:
    """The certificates that already signed the memo, field by field ([] when none can be read)."""
    from pyhanko.pdf_utils.reader import PdfFileReader

    try:
        reader = PdfFileReader(BytesIO(pdf), strict=False)
        return [identity_of(embedded) for embedded in reader.embedded_regular_signatures]
    except Exception:  # noqa: BLE001 (an unreadable memo is refused by signing itself, in words)
        return []


def signer_refusal(
    approvers: list, field: str, credentials: SigningCredentials, earlier: list[SignerIdentity]
) -> str | None:
    """Why this certificate must not fill `field`, naming both people; None when it may.
    `approvers`: the memo's list (Approver: name, role, email), in field order."""
    me = credentials_identity(field, credentials)
    number = _number(field)
    index = int(number) - 1 if number.isdigit() else -1
    if 0 <= index < len(approvers):
        approver = approvers[index]
        if not _same(me.common_name, approver.name):
            return (
                f"this certificate is issued to {me.common_name or 'nobody named'}, but the memo "
                "names "
                f"{approver.name} ({approver.role}) for approver field {number}; nothing was "
                "signed: "
                f"{approver.name} signs this field with their own certificate"
            )
        if approver.email and not any(_same(given, approver.email) for given in me.emails):
            return (
                f"this certificate's e-mail is {' or '.join(me.emails) or 'not given'}, but the "
                "memo names "
                f"{approver.email} for {approver.name}; nothing was signed: use the certificate "
                "issued "
                f"to {approver.email}"
            )
    for other in earlier:
        if other.field == field:
            continue
        same_key = bool(me.public_key_sha256) and other.public_key_sha256 == me.public_key_sha256
        if other.fingerprint == me.fingerprint or same_key:
            what = "certificate" if other.fingerprint == me.fingerprint else "key"
            return (
                f"this {what} already signed the field of {_named(approvers, other.field)}; "
                "nothing was "
                f"signed: each approver signs once, with their own certificate (four eyes)"
            )
        if other.common_name and _same(other.common_name, me.common_name):
            return (
                f"{me.common_name} already signed the field of {_named(approvers, other.field)}; "
                "nothing "
                "was signed: a memo is approved by different people (four eyes)"
            )
    return None


def refuse_wrong_signer(
    pdf: bytes, approvers: list, field: str, credentials: SigningCredentials, source: str = "memo"
) -> None:
    """InputError (naming the memo, the certificate's holder and the approver) before signing."""
    refusal = signer_refusal(approvers, field, credentials, earlier_signers(pdf))
    if refusal:
        raise InputError(f"{source}: {refusal}")
