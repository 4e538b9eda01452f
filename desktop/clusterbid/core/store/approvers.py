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

from clusterbid.core.store import artefacts, audit
from clusterbid.core.text_rules import text_problem
from clusterbid.core.store.audit import AuditRow
from clusterbid.core.store.errors import CorruptDocumentError, EditRejectedError

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
            old = entries[registry_key(*_split_label(row.target or ""))]
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


def _split_label(label: str) -> tuple[str, str]:
    name, _, role = label.partition(",")
    return name.strip(), role.strip()


class ApproverRecords:
    """Registry changes, mixed into EvaluationDocument (needs its path, conn, rows and
    _commit_many)."""

    def approver_registry(self, upto: int | None = None) -> dict[str, ApproverEntry]:
        """The registry after every row (up to row `upto`); a row that cannot be read was written
        outside ClusterBid, and says so rather than being skipped."""
        try:
            return replay_registry(read_registry_rows(self._conn), upto)
        except ValueError as exc:
            raise CorruptDocumentError(self.path, f"holds an approver registry that cannot be read "
                                       f"({exc}); it was altered outside ClusterBid") from None

    def _text(self, what: str, value: str, limit: int = MAX_TEXT, required: bool = True) -> str:
        problem = text_problem(str(value), f"the approver's {what}")  # before spaces are tidied
        if problem:
            raise EditRejectedError(self.path, problem)
        text = " ".join(str(value).split())
        if (required and not text) or len(text) > limit or ("," in text and what == "name"):
            comma = " without a comma" if what == "name" else ""
            raise EditRejectedError(
                self.path,
                f"the approver's {what} must be text of {int(required)}-{limit} characters{comma}",
            )
        return text

    def _refuse_taken_keys(self, entry_key: str, keys: Sequence[ApproverKey]) -> None:
        """A key belongs to one person: refuse one that another active approver already signs
        with."""
        wanted = set().union(*(k.fingerprints() for k in keys))
        for other in self.approver_registry().values():
            same_person = normalised(other.name) == normalised(entry_key.split("|")[0])
            if other.retired is None and not same_person and other.holds(wanted):
                raise EditRejectedError(
                    self.path,
                    f"this key is already registered to {other.label}; each approver signs with "
                    "their own key (four eyes)",
                )

    def _commit_registry(
        self,
        action: str,
        label: str,
        old: dict[str, object] | None,
        new: dict[str, object],
        certificates: Sequence[artefacts.NewArtefact],
    ) -> AuditRow:
        fresh = self._not_yet_kept(certificates)

        def write(conn: sqlite3.Connection) -> None:
            for item, sha256 in fresh:
                artefacts.insert(
                    conn,
                    bid_id=None,
                    name=item.name,
                    data=item.data,
                    sha256=sha256,
                    media_type=item.media_type,
                )

        entries = [
            (
                audit.ATTACH_ARTEFACT,
                None,
                None,
                artefacts.attach_payload(item.name, item.data, item.media_type, None, sha256),
            )
            for item, sha256 in fresh
        ]
        entries.append(
            (
                action,
                label,
                None if old is None else json.dumps(old, sort_keys=True, ensure_ascii=False),
                json.dumps(new, sort_keys=True, ensure_ascii=False),
            )
        )
        row, _ = self._commit_many(entries, write)
        return row

    def add_approver(
        self,
        name: str,
        role: str,
        email: str,
        keys: Sequence[ApproverKey],
        valid_from: dt.date,
        certificates: Sequence[artefacts.NewArtefact] = (),
    ) -> AuditRow:
        """Register an approver for a role (one audited row; their certificates kept as trust
        anchors
        in the same transaction). Refused when that name already holds that role."""
        name, role = self._text("name", name), self._text("role", role)
        email = self._text("e-mail", email, 254, required=False)
        if not keys:
            raise EditRejectedError(
                self.path,
                f"{name}, {role}: give the approver's certificate; the registry ties each approver "
                "to the keys they sign with",
            )
        current = self.approver_registry().get(registry_key(name, role))
        if current is not None and current.retired is None:
            raise EditRejectedError(
                self.path,
                f"{current.label} is already registered (row #{current.added.seq}); to change "
                "their key use the new-key change, to end it retire them",
            )
        self._refuse_taken_keys(registry_key(name, role), keys)
        payload = {
            "name": name,
            "role": role,
            "email": email,
            "keys": [k.as_json() for k in keys],
            "valid_from": valid_from.isoformat(),
        }
        return self._commit_registry(
            audit.APPROVER_ADD, f"{name}, {role}", None, payload, certificates
        )

    def _active(self, label: str) -> ApproverEntry:
        entry = self.approver_registry().get(registry_key(*_split_label(label)))
        if entry is None or entry.retired is not None:
            active = [e.label for e in self.approver_registry().values() if e.retired is None]
            raise EditRejectedError(
                self.path,
                f"no active approver {label!r} in the registry (active: "
                f"{', '.join(active) or 'none'}); give it as \"Name, Role\"",
            )
        return entry

    def change_approver_keys(
        self,
        label: str,
        keys: Sequence[ApproverKey],
        certificates: Sequence[artefacts.NewArtefact] = (),
    ) -> AuditRow:
        """Replace an approver's keys from this row on; memos made before still count the old
        ones."""
        entry = self._active(label)
        if not keys:
            raise EditRejectedError(self.path, f"{entry.label}: give the new certificate")
        self._refuse_taken_keys(entry.key, keys)
        return self._commit_registry(
            audit.APPROVER_KEY,
            entry.label,
            {"keys": [k.as_json() for k in entry.keys]},
            {"keys": [k.as_json() for k in keys]},
            certificates,
        )

    def retire_approver(self, label: str, retired_on: dt.date) -> AuditRow:
        """End an approver's entry: from that date their signatures no longer count."""
        entry = self._active(label)
        return self._commit_registry(
            audit.APPROVER_RETIRE, entry.label, None, {"retired_on": retired_on.isoformat()}, ()
        )
