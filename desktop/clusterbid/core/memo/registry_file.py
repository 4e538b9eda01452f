"""The organisation's approver registry as a file the memo's preparer does not hold
(`clusterbid verify MEMO --registry FILE`): the approvers, their keys and dates, and the CA
certificates the organisation trusts, written and kept by whoever owns sign-off rules.

    {"format": "clusterbid-approver-registry/1",
     "trust_anchors": ["-----BEGIN CERTIFICATE----- ..."],
     "approvers": [{"name": "Ada Lovelace", "role": "CFO", "email": "ada@example.org",
                    "from": "2026-01-01", "until": null,
                    "certificates": ["-----BEGIN CERTIFICATE----- ..."],
                    "sha256": ["<SHA-256 of a certificate or of its public key>"]}]}

Read with the same bounded JSON reader as every other input; every problem names the entry.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509

from clusterbid.core.errors import InputError
from clusterbid.core.json_input import loads, read_json_text
from clusterbid.core.memo.registered_approver import RegisteredApprover
from clusterbid.core.text_rules import text_problem

REGISTRY_FORMAT = "clusterbid-approver-registry/1"
MAX_REGISTRY_BYTES = 1024 * 1024  # a few hundred approvers with their certificates
SHA256_HEX = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class FileApprover:
    """An entry of the file: the approver as verify holds signers to them, and the certificates
    the entry gives (trusted as anchors for that approver)."""

    approver: RegisteredApprover
    certificates: tuple[x509.Certificate, ...]


@dataclass(frozen=True)
class RegistryFile:
    path: Path
    approvers: tuple[FileApprover, ...]
    trust_anchors: tuple[x509.Certificate, ...]


def _pem(value: object, where: str) -> x509.Certificate:
    if (
        not isinstance(value, str)
        or "-----BEGIN CERTIFICATE-----" not in value
        or "PRIVATE KEY" in value
    ):
        raise InputError(f"{where}: give one PEM certificate (no private key)")
    try:
        return x509.load_pem_x509_certificate(value.encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        raise InputError(f"{where}: not a readable PEM certificate") from None


def _date(value: object, where: str) -> str | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise InputError(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from None


def _text(entry: dict[str, object], name: str, where: str, required: bool = True) -> str:
    value = entry.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > 254:
        raise InputError(f"{where}.{name}: give text of 1-254 characters")
    problem = text_problem(value, f"{where}.{name}")
    if problem:
        raise InputError(problem)
    return " ".join(value.split())


def _approver(entry: object, where: str, source: str) -> FileApprover:
    from clusterbid.core.memo.approver_registry import key_of

    if not isinstance(entry, dict):
        raise InputError(
            f"{where}: each approver is an object with name, role, email, from, certificates"
        )
    certificates = tuple(
        _pem(pem, f"{where}.certificates[{i}]")
        for i, pem in enumerate(entry.get("certificates") or [])
    )
    hashes = entry.get("sha256") or []
    if not isinstance(hashes, list) or not all(
        isinstance(h, str) and SHA256_HEX.fullmatch(h) for h in hashes
    ):
        raise InputError(f"{where}.sha256: a list of SHA-256 values, 64 lower-case hex digits each")
    fingerprints = set(hashes)
    for certificate in certificates:
        key = key_of(certificate)
        fingerprints |= {key.certificate_sha256, key.public_key_sha256}
    if not fingerprints:
        raise InputError(
            f"{where}: give the approver's certificates or their SHA-256; an approver with no key "
            "could be anyone"
        )
    approver = RegisteredApprover(
        _text(entry, "name", where),
        _text(entry, "role", where),
        _text(entry, "email", where, required=False),
        frozenset(fingerprints),
        _date(entry.get("from"), f"{where}.from"),
        _date(entry.get("until"), f"{where}.until"),
        source,
    )
    return FileApprover(approver, certificates)


def read_registry_file(path: Path | str) -> RegistryFile:
    """The registry file at `path`; InputError naming the file and the entry otherwise."""
    path = Path(path)
    data = loads(read_json_text(path, MAX_REGISTRY_BYTES), str(path))
    if not isinstance(data, dict) or data.get("format") != REGISTRY_FORMAT:
        raise InputError(
            f'{path}: not an approver registry (its "format" must be {REGISTRY_FORMAT!r})'
        )
    listed = data.get("approvers")
    if not isinstance(listed, list) or not listed:
        raise InputError(f'{path}: "approvers" must list at least one approver')
    source = f"registry file {path.name}"
    approvers = tuple(
        _approver(entry, f"{path}: approvers[{i}]", source) for i, entry in enumerate(listed)
    )
    anchors = tuple(
        _pem(pem, f"{path}: trust_anchors[{i}]")
        for i, pem in enumerate(data.get("trust_anchors") or [])
    )
    return RegistryFile(path, approvers, anchors)
