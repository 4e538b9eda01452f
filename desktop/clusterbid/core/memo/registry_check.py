"""Hold each signature to the approver registry and say what it chains to.

For every approver field verify prints which certificate signed it (SHA-256 of the certificate and
of its key), which trust anchor it chains to and when that anchor was added, and which registry
entry names that person for that role. A field passes only when the registry in force for the memo
names the memo's approver for that role with the key that signed, on the dates the entry counts;
an anchor or an approver recorded after the memo was made is named and never counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from cryptography import x509
from cryptography.exceptions import InvalidSignature

from clusterbid.core.memo.approver_binding import SignerIdentity
from clusterbid.core.memo.credentials import common_name
from clusterbid.core.memo.field_name import FIELD_PREFIX
from clusterbid.core.memo.registered_approver import RegisteredApprover
from clusterbid.core.memo.signoff_trust import Anchor, Registry, SignoffTrust


@dataclass(frozen=True)
class RegistryFindings:
    lines: tuple[str, ...]  # per signer: certificate, anchor, registry entry
    problems: tuple[str, ...]


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _issued_by(certificate: x509.Certificate, anchor: x509.Certificate) -> bool:
    if certificate == anchor:
        return True
    try:
        certificate.verify_directly_issued_by(anchor)
    except (
        ValueError,
        TypeError,
        InvalidSignature,
    ):  # another issuer, or a key type it cannot check
        return False
    return True


def _chain_words(
    field: str, who: str, certificate: x509.Certificate | None, anchors: Sequence[Anchor]
) -> tuple[str, list[str]]:
    if certificate is None:
        return "its certificate cannot be read", []
    found = [a for a in anchors if _issued_by(certificate, a.certificate)]
    counted = [a for a in found if not a.after_memo]

    def subject(anchor: Anchor) -> str:
        return common_name(anchor.certificate)

    if counted:
        a = counted[0]
        kind = (
            "is itself a trust anchor"
            if a.certificate == certificate
            else f"chains to {subject(a)}"
        )
        return f"{kind} ({a.source})", []
    if found:
        a = found[0]
        return (
            f"chains only to {subject(a)} ({a.source}), {a.after_memo}: NOT COUNTED",
            [
                f"{field}: {who}'s certificate chains only to {subject(a)}, added at {a.source}, "
                f"{a.after_memo}; a certificate trusted after the memo was made does not make it "
                "valid"
            ],
        )
    return "chains to no trust anchor given here (directly)", []


def _day(moment: datetime | None) -> str | None:
    return None if moment is None else moment.date().isoformat()


def _date_problems(
    field: str, entry: RegisteredApprover, signed_on: str | None, made_on: str | None
) -> list[str]:
    problems = []
    if entry.valid_from and made_on and made_on < entry.valid_from:
        problems.append(
            f"{field}: {entry.label} counts as an approver from {entry.valid_from} "
            f"({entry.source}), but the memo was made on {made_on}"
        )
    if entry.valid_from and signed_on and signed_on < entry.valid_from:
        problems.append(
            f"{field}: signed on {signed_on} (signer's clock), before {entry.label} counts as an "
            f"approver ({entry.valid_from}, {entry.source})"
        )
    if entry.until and signed_on and signed_on >= entry.until:
        problems.append(
            f"{field}: signed on {signed_on} (signer's clock), after {entry.label} was retired "
            f"from {entry.until}"
        )
    return problems


def _against(
    registry: Registry,
    field: str,
    approver: Mapping[str, object],
    who: SignerIdentity,
    signed_on: str | None,
    made_on: str | None,
) -> tuple[str, list[str]]:
    name, role = str(approver.get("name", "")), str(approver.get("role", ""))
    keys = {who.fingerprint, who.public_key_sha256} - {""}
    for_role = [e for e in registry.approvers if _same(e.role, role)]
    match = next((e for e in for_role if _same(e.name, name) and e.fingerprints & keys), None)
    late = [
        e
        for e in registry.later
        if e.fingerprints & keys or (_same(e.name, name) and _same(e.role, role))
    ]
    late_words = [
        f"{field}: {e.label} (or their key) was registered at {e.source}, {e.after_memo}; it does "
        "not count for this memo"
        for e in late
    ]
    if match is not None:
        problems = _date_problems(field, match, signed_on, made_on)
        email = str(approver.get("email") or "")
        if email and match.email and not _same(email, match.email):
            problems.append(
                f"{field}: the memo names {email} for {name}, the registry ({registry.source}) "
                f"{match.email}"
            )
        return (
            f"registry {registry.source}: {match.label}, entry {match.source}, counts from "
            f"{match.valid_from or 'any date'}"
        ), problems
    if not for_role:
        problem = f"{field}: the registry ({registry.source}) names no approver for the role {role}"
    elif not any(_same(e.name, name) for e in for_role):
        named = ", ".join(e.name for e in for_role)
        problem = f"{field}: the registry ({registry.source}) names {named} for {role}, not {name}"
    else:
        problem = (
            f"{field}: signed with a key the registry ({registry.source}) does not hold for "
            f"{name}, {role} (certificate SHA-256 {who.fingerprint[:16]}...)"
        )
    return f"registry {registry.source}: NO ENTRY for this signer in this role", [
        problem,
        *late_words,
    ]


def check_registry(
    trust: SignoffTrust,
    approvers: Sequence[object],
    signed: Sequence[SignerIdentity],
    signing_times: Mapping[str, datetime | None],
) -> RegistryFindings:
    """Lines and problems for every signed approver field, in signing order."""
    expected = {
        f"{FIELD_PREFIX}{i}": a for i, a in enumerate(approvers, start=1) if isinstance(a, dict)
    }
    lines, problems = list(trust.notes), []
    for who in signed:
        approver = expected.get(who.field)
        if approver is None:
            continue
        try:
            certificate: x509.Certificate | None = x509.load_der_x509_certificate(who.certificate)
        except ValueError:
            certificate = None
        chain, chain_problems = _chain_words(who.field, who.common_name, certificate, trust.anchors)
        lines.append(
            f"{who.field}: {who.common_name or 'nobody'}, certificate SHA-256 "
            f"{who.fingerprint[:16]}..., public key SHA-256 {who.public_key_sha256[:16]}...; "
            f"{chain}"
        )
        problems += chain_problems
        for registry in trust.registries:
            words, found = _against(
                registry,
                who.field,
                approver,
                who,
                _day(signing_times.get(who.field)),
                trust.memo_made,
            )
            lines.append(f"  {words}")
            problems += found
    return RegistryFindings(tuple(lines), tuple(problems))
