"""Tie each signature to the approver the memo names for its field.

A valid signature only proves some key signed; the memo is approved only when approver N's field
is signed by a certificate issued to approver N (name, and e-mail when the memo gives one), no
certificate signs twice, no field or signature exists beyond the approver fields, and (unless the
verifier says otherwise) the approvers signed in the order the memo lists them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from clusterbid.core.memo.field_name import FIELD_PREFIX
from clusterbid.core.memo.four_eyes import same_person_signed_twice
from clusterbid.core.memo.next_steps import Step, mark


@dataclass(frozen=True)
class SignerIdentity:
    """Who a signature's certificate names, and which certificate it is."""

    field: str
    common_name: str
    emails: tuple[str, ...]  # the subject's emailAddress and the subjectAltName rfc822Names
    fingerprint: str  # SHA-256 of the certificate
    public_key_sha256: str = (
        ""  # SHA-256 of its SubjectPublicKeyInfo: the same key in two certificates
    )
    certificate: bytes = b""  # DER, for the registry check (which anchor it chains to)


def certificate_emails(cert) -> tuple[str, ...]:
    """The e-mail addresses a certificate names: subjectAltName, and the subject's e-mail field."""
    emails = [str(cert.subject.native.get("email_address") or "")]
    for general_name in cert.subject_alt_name_value or ():
        if general_name.name == "rfc822_name":
            emails.append(str(general_name.native))
    return tuple(e for e in dict.fromkeys(emails) if e)


def identity_of(embedded) -> SignerIdentity:
    """Read from pyHanko's EmbeddedPdfSignature; an unreadable certificate names nobody. Most
    organisations' signing certificates carry the e-mail in subjectAltName, some in the subject."""
    field = str(embedded.field_name)
    try:
        cert = embedded.signer_cert
        subject = cert.subject.native
        return SignerIdentity(
            field,
            str(subject.get("common_name") or ""),
            certificate_emails(cert),
            cert.sha256.hex(),
            hashlib.sha256(cert.public_key.dump()).hexdigest(),
            cert.dump(),
        )
    except Exception:  # noqa: BLE001 (any damage to the certificate means: no identity)
        return SignerIdentity(field, "", (), "")


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _field_index(field: str) -> int | None:
    tail = field[len(FIELD_PREFIX) :]
    return int(tail) if field.startswith(FIELD_PREFIX) and tail.isdigit() else None


def check_approvers(
    approvers: list, signed: list[SignerIdentity], all_fields: list[str], ordered: bool = True
) -> list[str]:
    """Problems in words (empty when every signature belongs to its approver); `signed` in
    signing order (revision order), `all_fields` every signature field of the memo."""
    if not approvers:
        return ["the memo names no approver, so no signature can be tied to one"]
    expected = {
        f"{FIELD_PREFIX}{i}": a for i, a in enumerate(approvers, start=1) if isinstance(a, dict)
    }
    problems = [
        f"{name}: a signature field that is not one of the memo's approver fields "
        f"({', '.join(expected)})"
        for name in dict.fromkeys(all_fields)
        if name not in expected
    ]
    problems += [
        f"{who.field}: a signature outside the approver fields"
        for who in signed
        if who.field not in expected and who.field not in all_fields
    ]
    problems += [
        problem
        for who in signed
        if who.field in expected and (problem := _not_the_approver(who, expected[who.field]))
    ]
    problems += _shared_certificates(signed)
    problems += same_person_signed_twice([who for who in signed if who.field in expected])
    if ordered:
        indices = [_field_index(who.field) for who in signed if who.field in expected]
        if indices != sorted(indices):
            order = ", ".join(who.field for who in signed if who.field in expected)
            problems.append(
                f"the approvers signed in the order {order}, not in the order the memo lists them "
                f"({mark(Step.ANY_ORDER)})"
            )
    return problems


def _not_the_approver(who: SignerIdentity, approver: dict) -> str:
    """Why the certificate in an approver's field is not that approver's (empty: it is)."""
    name, email = str(approver.get("name", "")), str(approver.get("email") or "")
    if not _same(who.common_name, name):
        return (
            f"{who.field}: signed by a certificate issued to {who.common_name or 'nobody'}, "
            f"but the memo names {name} for this field"
        )
    if email and not any(_same(given, email) for given in who.emails):
        return (
            f"{who.field}: the certificate's e-mail is "
            f"{' or '.join(who.emails) or 'not given'}, "
            f"the memo names {email} for {name}"
        )
    return ""


def _shared_certificates(signed: list[SignerIdentity]) -> list[str]:
    """Each field signed with a certificate an earlier field already used."""
    problems = []
    seen: dict[str, str] = {}
    for who in signed:
        if who.fingerprint and who.fingerprint in seen:
            problems.append(
                f"{who.field}: signed with the same certificate as {seen[who.fingerprint]}; "
                "each approver signs with their own certificate"
            )
        seen.setdefault(who.fingerprint, who.field)
    return problems
