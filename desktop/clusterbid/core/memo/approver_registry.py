"""The approver registry of an evaluation document, as the CLI (`clusterbid approvers`) and the
app's Approvers and Trust dialog change and list it: one operation for both.

An approver is a person in a role (name, role, e-mail) with the keys they sign with and the date
from which they count. Their certificate is read with the trust store's bounded reader, kept in
the document as a trust anchor, and pinned by its SHA-256 and its public key's SHA-256, so a later
certificate for the same key (a renewal) still matches and another person's key never does.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import common_name
from clusterbid.core.memo.trust_store import TRUSTED_CERTIFICATE, read_certificate_file
from clusterbid.core.store.approvers import ApproverEntry, ApproverKey, registry_key
from clusterbid.core.store.artefacts import NewArtefact

if TYPE_CHECKING:  # the caller opens the document
    from clusterbid.core.store import EvaluationDocument


def key_of(certificate: x509.Certificate) -> ApproverKey:
    """The fingerprints verify compares a signer's certificate with."""
    spki = certificate.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return ApproverKey(
        hashlib.sha256(certificate.public_bytes(Encoding.DER)).hexdigest(),
        hashlib.sha256(spki).hexdigest(),
        certificate.subject.rfc4514_string(),
    )


def _is_ca(certificate: x509.Certificate) -> bool:
    try:
        return bool(certificate.extensions.get_extension_for_class(x509.BasicConstraints).value.ca)
    except x509.ExtensionNotFound:
        return False


def approver_certificate(path: Path | str, label: str) -> tuple[ApproverKey, NewArtefact]:
    """The approver's own certificate from a PEM/DER file (a chain file may hold its CA too); its
    key
    and the artefact that keeps it as a trust anchor. A CA alone is refused: it would let anyone
    it certifies sign for this person."""
    own = [c for c in read_certificate_file(path) if not _is_ca(c)]
    if len(own) != 1:
        raise InputError(
            f"{path}: holds {len(own)} approver (non-CA) certificates; give the one certificate "
            f"{label} signs with (a CA goes to `clusterbid trust`)"
        )
    certificate = own[0]
    artefact = NewArtefact(
        None,
        f"trusted certificate: {common_name(certificate)}"[:255],
        certificate.public_bytes(Encoding.DER),
        TRUSTED_CERTIFICATE,
    )
    return key_of(certificate), artefact


def parse_label(text: str) -> tuple[str, str, str]:
    """'Name, Role' or 'Name, Role <e-mail>' as the memo's --approver takes it: name, role,
    e-mail."""
    from clusterbid.core.memo.inputs import Approver

    person = Approver.parse(text)
    if "," in person.name:
        raise InputError(f'approver {text!r}: the name cannot hold a comma ("Name, Role")')
    return person.name, person.role, person.email


def _day(text: str | None, what: str) -> dt.date:
    if not text:
        return dt.datetime.now(dt.UTC).date()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(f"{what} {text!r}: give a date as YYYY-MM-DD") from None


def add_approver(
    document: EvaluationDocument,
    label: str,
    certificate: Path | str,
    *,
    email: str = "",
    valid_from: str | None = None,
) -> ApproverEntry:
    """Register `label` ("Name, Role", an e-mail may follow in <>) with the key of `certificate`,
    counting from `valid_from` (today by default); one audited row, the certificate kept with it."""
    from clusterbid.core.memo.inputs import checked_email

    name, role, given = parse_label(label)
    email = checked_email(email or given, f"approver {label!r}")
    key, artefact = approver_certificate(certificate, f"{name}, {role}")
    row = document.add_approver(name, role, email, [key], _day(valid_from, "--from"), [artefact])
    return document.approver_registry(row.seq)[registry_key(name, role)]


def change_key(document: EvaluationDocument, label: str, certificate: Path | str) -> ApproverEntry:
    """An approver's new certificate (a new key) from this row on; earlier memos keep the old
    one."""
    key, artefact = approver_certificate(certificate, label)
    row = document.change_approver_keys(label, [key], [artefact])
    return next(
        e for e in document.approver_registry(row.seq).values() if e.keys_set.seq == row.seq
    )


def retire(document: EvaluationDocument, label: str, on: str | None = None) -> ApproverEntry:
    row = document.retire_approver(label, _day(on, "--on"))
    return next(
        e
        for e in document.approver_registry(row.seq).values()
        if e.retired is not None and e.retired.seq == row.seq
    )


def registry_entries(document: EvaluationDocument) -> list[ApproverEntry]:
    """The registry as listed to the officer, active approvers first, each in the order
    registered."""
    return sorted(
        document.approver_registry().values(), key=lambda e: (e.retired is not None, e.added.seq)
    )


def registry_lines(document: EvaluationDocument) -> list[str]:
    return [entry.describe() for entry in registry_entries(document)]
