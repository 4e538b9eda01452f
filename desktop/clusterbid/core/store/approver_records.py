"""Changes to the approver registry (approvers.py), mixed into EvaluationDocument: each one audited
row in one transaction, the approver's certificate kept in the same transaction as a trust anchor."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Sequence

from clusterbid.core.store import artefacts, audit
from clusterbid.core.store.approvers import (
    MAX_TEXT,
    ApproverEntry,
    ApproverKey,
    normalised,
    read_registry_rows,
    registry_key,
    replay_registry,
    split_label,
)
from clusterbid.core.store.audit import AuditRow
from clusterbid.core.store.errors import CorruptDocumentError, EditRejectedError
from clusterbid.core.text_rules import text_problem


class ApproverRecords:
    """Registry changes, mixed into EvaluationDocument (needs its path, conn, rows and
    _commit_many)."""

    def approver_registry(self, upto: int | None = None) -> dict[str, ApproverEntry]:
        """The registry after every row (up to row `upto`); a row that cannot be read was written
        outside ClusterBid, and says so rather than being skipped."""
        try:
            return replay_registry(read_registry_rows(self._conn), upto)
        except ValueError as exc:
            raise CorruptDocumentError(
                self.path,
                f"holds an approver registry that cannot be read "
                f"({exc}); it was altered outside ClusterBid",
            ) from None

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
        entry = self.approver_registry().get(registry_key(*split_label(label)))
        if entry is None or entry.retired is not None:
            active = [e.label for e in self.approver_registry().values() if e.retired is None]
            raise EditRejectedError(
                self.path,
                f"no active approver {label!r} in the registry (active: "
                f'{", ".join(active) or "none"}); give it as "Name, Role"',
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
