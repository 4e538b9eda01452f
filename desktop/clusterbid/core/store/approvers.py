"""The approver registry: who may sign a memo for which role, with which keys, from which date.

Every change is an audit row (approver_add, approver_key, approver_retire), so the registry has no
state of its own: it is the replay of those rows, and the registry "as it stood at row N" is the
replay of the rows up to N. A memo records the row it was made at (anchor.py) and its signature
covers that row's hash, so nobody can add an approver, or a key, to the registry a memo is judged
by once it is made. The store keeps the rows; reading certificates is the memo layer's work.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from clusterbid.core.store import audit
from clusterbid.core.store.audit import AuditRow

SHA256_HEX = re.compile(r"[0-9a-f]{64}")
MAX_TEXT = 200


def normalised(text: str) -> str:
    """Names and roles compare without case or extra spaces ("Ada  lovelace" is Ada Lovelace)."""
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class ApproverKey:
    """One key an approver signs with: the SHA-256 of the certificate and of its public key
    (SubjectPublicKeyInfo); either identifies the key, the public key across certificate
    renewals."""

    certificate_sha256: str
    public_key_sha256: str
    subject: str = ""  # the certificate's subject, for the reader

    def as_json(self) -> dict[str, str]:
        return {
            "certificate_sha256": self.certificate_sha256,
            "public_key_sha256": self.public_key_sha256,
            "subject": self.subject,
        }

    @classmethod
    def from_json(cls, value: object) -> ApproverKey:
        if not isinstance(value, dict):
            raise ValueError("an approver key is not an object")
        cert, key = (
            str(value.get("certificate_sha256") or ""),
            str(value.get("public_key_sha256") or ""),
        )
        if not any(SHA256_HEX.fullmatch(h) for h in (cert, key)) or any(
            h and not SHA256_HEX.fullmatch(h) for h in (cert, key)
        ):
            raise ValueError("an approver key needs a SHA-256 (64 lower-case hex digits)")
        return cls(cert, key, str(value.get("subject") or ""))

    def fingerprints(self) -> set[str]:
        return {h for h in (self.certificate_sha256, self.public_key_sha256) if h}


@dataclass(frozen=True)
class ApproverEntry:
    """One approver as the registry holds them after some row; the rows say who changed what,
    when."""

    name: str
    role: str
    email: str
    keys: tuple[ApproverKey, ...]
    valid_from: str  # ISO date from which their signatures count
    added: AuditRow
    keys_set: AuditRow  # the row that set the current keys (the add row, or the last key change)
    retired: AuditRow | None = None
    retired_on: str | None = None
    history: tuple[AuditRow, ...] = field(default=())  # every row about this approver, oldest first

    @property
    def label(self) -> str:
        return f"{self.name}, {self.role}"

    @property
    def key(self) -> str:
        return registry_key(self.name, self.role)

    def holds(self, fingerprints: set[str]) -> bool:
        return any(k.fingerprints() & fingerprints for k in self.keys)

    def describe(self) -> str:
        who = self.label + (f" <{self.email}>" if self.email else "")
        keys = "; ".join(
            f"certificate {k.certificate_sha256[:16]}..."
            if k.certificate_sha256
            else f"public key {k.public_key_sha256[:16]}..."
            for k in self.keys
        )
        state = (
            f"retired from {self.retired_on} (row #{self.retired.seq})"
            if self.retired
            else "active"
        )
        return (
            f"{who}: counts from {self.valid_from}; {state}; keys: {keys}; added "
            f"{self.added.at[:10]} by {self.added.who} (row #{self.added.seq})"
        )


def registry_key(name: str, role: str) -> str:
    return f"{normalised(name)}|{normalised(role)}"


def read_registry_rows(conn: sqlite3.Connection) -> tuple[AuditRow, ...]:
    """The registry's rows only (the audit_by_action index), oldest first."""
    marks = ", ".join("?" for _ in audit.REGISTRY_ACTIONS)
    cursor = conn.execute(
        "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit WHERE action IN "
        f"({marks}) ORDER BY seq",
        audit.REGISTRY_ACTIONS,
    )
    return tuple(AuditRow(*row) for row in cursor)


def replay_registry(rows: Sequence[AuditRow], upto: int | None = None) -> dict[str, ApproverEntry]:
    """The registry after every registry row (up to row `upto` when given), keyed by name and role;
    ValueError naming the row when one cannot be read."""
    entries: dict[str, ApproverEntry] = {}
    for row in rows:
        if row.action not in audit.REGISTRY_ACTIONS or (upto is not None and row.seq > upto):
            continue
        try:
            payload = json.loads(row.new_json or "{}")
            if row.action == audit.APPROVER_ADD:
                entry = ApproverEntry(
                    str(payload["name"]),
                    str(payload["role"]),
                    str(payload.get("email") or ""),
                    tuple(ApproverKey.from_json(k) for k in payload["keys"]),
                    dt.date.fromisoformat(payload["valid_from"]).isoformat(),
                    row,
                    row,
                    history=(row,),
                )
                entries[entry.key] = entry
                continue
            old = entries[registry_key(*split_label(row.target or ""))]
            if row.action == audit.APPROVER_KEY:
                entries[old.key] = replace(
                    old,
                    keys=tuple(ApproverKey.from_json(k) for k in payload["keys"]),
                    keys_set=row,
                    history=(*old.history, row),
                )
            else:
                entries[old.key] = replace(
                    old,
                    retired=row,
                    history=(*old.history, row),
                    retired_on=dt.date.fromisoformat(payload["retired_on"]).isoformat(),
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(
                f"registry row #{row.seq} ({row.action}) cannot be read: {exc}"
            ) from None
    return entries


def split_label(label: str) -> tuple[str, str]:
    name, _, role = label.partition(",")
    return name.strip(), role.strip()
