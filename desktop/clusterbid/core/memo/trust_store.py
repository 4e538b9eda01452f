"""The organisation's approver certificates (or their CA), kept once in the evaluation document.

A memo verified against its `.clusterbid` document is checked against these without `--trust`:
the approvers' certificates are added once, as an audited artefact each (the audit trail says who
added which, and when; the artefact's SHA-256 is checked like any other). Only certificates are
taken: a file holding a private key is refused, so a trust store never carries a secret.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import common_name
from clusterbid.core.safe_read import read_regular

if TYPE_CHECKING:  # the store is opened by the caller; this module only reads and attaches
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.core.store.audit import AuditRow

TRUSTED_CERTIFICATE = "application/pkix-cert"  # RFC 2585's media type for one DER certificate
MAX_CERTIFICATE_FILE = (
    256 * 1024
)  # a PEM bundle of a few dozen certificates; anything larger is not one


@dataclass(frozen=True)
class TrustedCertificate:
    """One certificate the document trusts, as listed to the officer."""

    subject: str
    email: str
    issuer: str
    valid_from: str
    valid_until: str
    is_ca: bool
    sha256: str
    added: str = ""  # the audit row that kept it: "row #N, 2026-11-25 by NAME"

    def describe(self) -> str:
        who = self.subject + (f" <{self.email}>" if self.email else "")
        kind = "CA" if self.is_ca else "approver"
        added = f"; added at {self.added}" if self.added else ""
        return (
            f"{who} ({kind}; issued by {self.issuer}; valid {self.valid_from} to "
            f"{self.valid_until}; "
            f"SHA-256 {self.sha256[:16]}...{added})"
        )


def read_certificate_file(path: Path | str) -> list[x509.Certificate]:
    """The certificates of a PEM (one or more) or DER file; InputError naming the file otherwise."""
    path = Path(path)
    try:
        raw = read_regular(path, MAX_CERTIFICATE_FILE)  # devices and FIFOs refused before any read
        if len(raw) > MAX_CERTIFICATE_FILE:
            raise InputError(
                f"{path}: larger than {MAX_CERTIFICATE_FILE // 1024} KiB; not a certificate file "
                "(give the approver's or the CA's certificate, PEM or DER)"
            )
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:  # a folder, a locked file, a device or FIFO
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    if b"PRIVATE KEY" in raw:
        raise InputError(
            f"{path}: holds a private key; a trust store takes certificates only. Export the "
            "certificate alone (PEM or DER) and keep the key with its owner"
        )
    try:
        return (
            x509.load_pem_x509_certificates(raw)
            if b"-----BEGIN" in raw
            else [x509.load_der_x509_certificate(raw)]
        )
    except ValueError:
        raise InputError(
            f"{path}: not a certificate (PEM or DER); a .p12 file holds a key too: "
            "export the certificate alone"
        ) from None


def _der(certificate: x509.Certificate) -> bytes:
    return certificate.public_bytes(Encoding.DER)


def _listed(certificate: x509.Certificate) -> TrustedCertificate:
    emails = certificate.subject.get_attributes_for_oid(x509.oid.NameOID.EMAIL_ADDRESS)
    try:
        is_ca = certificate.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    except x509.ExtensionNotFound:
        is_ca = False
    issuer = certificate.issuer.get_attributes_for_oid(x509.oid.NameOID.COMMON_NAME)
    return TrustedCertificate(
        common_name(certificate),
        str(emails[0].value) if emails else "",
        str(issuer[0].value) if issuer else certificate.issuer.rfc4514_string(),
        f"{certificate.not_valid_before_utc:%Y-%m-%d}",
        f"{certificate.not_valid_after_utc:%Y-%m-%d}",
        is_ca,
        hashlib.sha256(_der(certificate)).hexdigest(),
    )


def _stored(document: EvaluationDocument) -> list[tuple[int, bytes]]:
    return [
        (info.id, document.artefact_bytes(info.id))
        for info in document.artefacts()
        if info.media_type == TRUSTED_CERTIFICATE and info.bid_id is None
    ]


def kept_trust_anchors(document: EvaluationDocument) -> list[tuple[x509.Certificate, AuditRow]]:
    """Each certificate the document trusts with the audit row that kept it: verify counts only
    those kept at or before the row a memo was made at. The n-th artefact is the n-th attach row
    (the audit checks exactly that pairing, byte for byte)."""
    from clusterbid.core.store.audit import ATTACH_ARTEFACT

    attached = [row for row in document.audit_rows() if row.action == ATTACH_ARTEFACT]
    anchors = []
    for info, row in zip(document.artefacts(), attached):
        if (
            info.media_type == TRUSTED_CERTIFICATE
            and info.bid_id is None
            and info.sha256 in (row.new_json or "")
        ):
            anchors.append((x509.load_der_x509_certificate(document.artefact_bytes(info.id)), row))
    return anchors


def row_words(row: AuditRow) -> str:
    """How a reader is told which row did something: "row #12, 2026-11-26 by mallory"."""
    return f"row #{row.seq}, {row.at[:10]} by {row.who}"


def add_trusted_certificates(
    document: EvaluationDocument, path: Path | str
) -> list[TrustedCertificate]:
    """Keep each certificate of the file in the document (one audited row each); one already kept
    is refused by name, so the trail never lists a certificate twice."""
    certificates = read_certificate_file(path)
    kept = {hashlib.sha256(data).hexdigest() for _, data in _stored(document)}
    listed = [_listed(certificate) for certificate in certificates]
    # Every certificate of the file is checked before any is kept: a bundle is added whole or not at all.
    for entry in listed:
        if entry.sha256 in kept:
            raise InputError(
                f"{path}: the certificate of {entry.subject!r} is already trusted by this "
                "document; "
                "nothing from this file was added"
            )
        kept.add(entry.sha256)
    for certificate, entry in zip(certificates, listed):
        document.attach_artefact(
            f"trusted certificate: {entry.subject}"[:255],
            _der(certificate),
            media_type=TRUSTED_CERTIFICATE,
        )
    return listed


def trusted_certificates(document: EvaluationDocument) -> list[TrustedCertificate]:
    return [
        replace(_listed(certificate), added=row_words(row))
        for certificate, row in kept_trust_anchors(document)
    ]
