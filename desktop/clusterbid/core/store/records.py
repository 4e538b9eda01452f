"""What was done with an evaluation (decision, memo, signatures, an accepted audit failure) and
the evidence files kept with it: audited records mixed into EvaluationDocument."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.store import anchor_log, artefacts, audit, snapshot
from clusterbid.core.store.errors import EditRejectedError

SHA256_PATTERN = re.compile(r"^[0-9a-f]{64}$")


class DocumentRecords:
    """Needs the document's path, evaluation, audit report and _commit/_commit_many/_validated."""

    # What the last record could not add to the anchor log outside the file, in words.
    anchor_problems: tuple[str, ...] = ()

    def artefacts(self) -> tuple[artefacts.ArtefactInfo, ...]:
        return artefacts.list_artefacts(self._conn)

    def artefact_bytes(self, artefact_id: int) -> bytes:
        return artefacts.read_bytes(self.path, self._conn, artefact_id)

    def export_artefact(self, artefact_id: int, dest: Path | str) -> Path:
        """Write the artefact back out byte for byte (after re-checking its SHA-256)."""
        return artefacts.write_file(self.path, Path(dest), self.artefact_bytes(artefact_id))

    def remember_shown(self, title: str, columns: list[str], rows: list[list[str]]) -> bool:
        """Keep the ranking table as the app shows it now, for the next start's first paint
        (core/shown_scorecard.py). Best effort: a read-only or full disk just means no fast start."""
        from clusterbid.core.shown_scorecard import write_shown

        try:
            with self._conn:
                write_shown(self._conn, self._head, title, columns, rows)
        except sqlite3.Error:
            return False
        return True

    # -- records
    def accept_failed_audit(self, reason: str) -> audit.AuditRow:
        """Record that an officer goes on (e.g. exports a memo) with a document that fails its audit, and why."""
        if self.audit_report.ok:
            raise EditRejectedError(self.path, "passes its audit; there is nothing to accept")
        return self._record(
            audit.RECORD_AUDIT_OVERRIDE,
            None,
            {
                "reason": self._require_text("the reason", reason),
                "audit_failure": self.audit_report.reason,
            },
        )

    # -- records of what was done with the evaluation -------------------------------------
    def _record(
        self, action: str, target: str | None, payload: dict[str, object]
    ) -> audit.AuditRow:
        row, _ = self._commit(
            action, target, None, json.dumps(payload, sort_keys=True, ensure_ascii=False)
        )
        # Anchored outside the file too (anchor_log.py); a log that cannot be written is said, not fatal.
        first = self._conn.execute("SELECT hash FROM audit WHERE seq = 1").fetchone()
        memo = payload.get("sha256") or payload.get("memo_sha256")
        self.anchor_problems = tuple(
            anchor_log.append_anchor(
                self.path.name, first[0] if first else "", row, str(memo) if memo else None
            )
        )
        return row

    def _require_text(self, what: str, value: str, limit: int = 2000) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise EditRejectedError(self.path, f"{what} must be text of 1-{limit} characters")
        return value.strip()

    def _require_sha256(self, what: str, value: str) -> str:
        if not isinstance(value, str) or not SHA256_PATTERN.match(value):
            raise EditRejectedError(
                self.path, f"{what} must be a SHA-256 as 64 lower-case hex digits"
            )
        return value

    def record_decision(self, bid_id: str, rationale: str) -> audit.AuditRow:
        """The officer's award decision: the chosen bid and why."""
        self._bid_index(bid_id)
        return self._record(
            audit.RECORD_DECISION,
            bid_id,
            {"bid_id": bid_id, "rationale": self._require_text("the rationale", rationale)},
        )

    def record_memo_exported(
        self, file_name: str, sha256: str, anchor: dict[str, object] | None = None
    ) -> audit.AuditRow:
        """`anchor`: the audit row the memo was made from (see anchor.py), kept so the app can list it."""
        payload = {
            "file_name": self._require_text("the memo file name", file_name, 255),
            "sha256": self._require_sha256("the memo hash", sha256),
        }
        if anchor is not None:
            payload["anchor"] = {
                "seq": int(anchor["seq"]),
                "hash": self._require_sha256("the anchor hash", anchor["hash"]),
            }
        return self._record(audit.RECORD_MEMO_EXPORTED, payload["file_name"], payload)

    def countersign(self, private_key: object, certificate_der: bytes) -> audit.AuditRow:
        """Sign the trail's last row (and by the chain every row before it) with the user's key."""
        from clusterbid.core.store.countersign import (
            countersign_payload,  # cryptography: off every open
        )

        first = self._conn.execute("SELECT hash FROM audit WHERE seq = 1").fetchone()
        try:
            payload = countersign_payload(first[0], self._head, private_key, certificate_der)
        except ValueError as exc:
            raise EditRejectedError(self.path, f"cannot countersign: {exc}") from None
        return self._record(audit.COUNTERSIGN, None, payload)

    def record_signature(self, signer: str, memo_sha256: str, role: str = "") -> audit.AuditRow:
        payload = {
            "signer": self._require_text("the signer", signer, 200),
            "memo_sha256": self._require_sha256("the signed memo hash", memo_sha256),
            "role": role.strip()[:200],
        }
        return self._record(audit.RECORD_SIGNATURE, payload["signer"], payload)

    def attach_artefact(
        self,
        name: str,
        data: bytes,
        *,
        bid_id: str | None = None,
        media_type: str = "application/octet-stream",
    ) -> artefacts.ArtefactInfo:
        """Store the raw evidence file inside the document with its SHA-256 and size."""
        if bid_id is not None:
            self._bid_index(bid_id)
        sha256 = artefacts.check_artefact(self.path, name, data, media_type)
        payload = artefacts.attach_payload(name, data, media_type, bid_id, sha256)
        _, info = self._commit(
            audit.ATTACH_ARTEFACT,
            bid_id,
            None,
            payload,
            lambda c: artefacts.insert(
                c, bid_id=bid_id, name=name, data=data, sha256=sha256, media_type=media_type
            ),
        )
        return info

    def attach_evidence(
        self,
        bid_id: str,
        name: str,
        data: bytes,
        evidence: list[Evidence],
        *,
        media_type: str = "text/plain",
    ) -> Evaluation:
        """Keep a raw evidence file and add the Evidence parsed from it to the bid, in one transaction."""
        index = self._bid_index(bid_id)
        old = self._evaluation.bids[index]
        sha256 = artefacts.check_artefact(self.path, name, data, media_type)
        if any(item.artefact_sha256 == sha256 for item in old.evidence):
            raise EditRejectedError(
                self.path,
                f"bid {bid_id!r} already holds evidence from this file (sha256 {sha256[:12]}...)",
            )
        fields = {field: getattr(old, field) for field in Bid.model_fields}
        bid = self._validated(
            "the bid with its new evidence",
            lambda: Bid.model_validate({**fields, "evidence": (*old.evidence, *evidence)}),
        )
        bids = list(self._evaluation.bids)
        bids[index] = bid
        new = self._validated(
            f"adding evidence to bid {bid_id!r}",
            lambda: snapshot.rebuild(self._evaluation, bids=tuple(bids)),
        )
        payload = artefacts.attach_payload(name, data, media_type, bid_id, sha256)
        old_json, bid_json = snapshot.to_json(old), snapshot.to_json(bid)

        def write(conn: sqlite3.Connection) -> None:
            artefacts.insert(
                conn, bid_id=bid_id, name=name, data=data, sha256=sha256, media_type=media_type
            )
            conn.execute("UPDATE bid SET bid_json = ? WHERE bid_id = ?", (bid_json, bid_id))

        self._commit_many(
            [
                (audit.ATTACH_ARTEFACT, bid_id, None, payload),
                (audit.REPLACE_BID, bid_id, old_json, bid_json),
            ],
            write,
            evaluation=new,
        )
        return new
