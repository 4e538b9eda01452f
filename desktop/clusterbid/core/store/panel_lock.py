"""An evaluator's copy of a panel evaluation: what it holds is locked inside the store itself.

A copy is a document whose trail holds a `panel_copy` row (written when the lead made it). In
such a document only the evaluator's own judgements (and their countersignature) may be added;
an edit to the bids, the workload, the policy or anything else is refused here, in the one place
every write passes through, so neither the app, the command line nor a script can get round it.
What a judgement may hold (weights in the panel's ranges, scores 0-10) is checked by core/panel.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from clusterbid.core.store import audit
from clusterbid.core.store.errors import EditRejectedError

# What an evaluator's copy may still record: the stamp that makes it a copy, the evaluator's
# judgements, a countersignature over them, and the checkpoints the store writes by itself.
ALLOWED_IN_COPY = (audit.PANEL_COPY, audit.PANEL_JUDGEMENT, audit.COUNTERSIGN, audit.CHECKPOINT)


def copy_stamp(conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The `panel_copy` row's payload when this document is an evaluator's copy, else None."""
    rows = audit.read_rows_by_action(conn, audit.PANEL_COPY)
    if not rows:
        return None
    payload = json.loads(rows[0].new_json or "{}")
    payload["seq"] = rows[0].seq
    return payload if isinstance(payload, dict) else None


def refuse_if_locked(path: Path, conn: sqlite3.Connection, actions: list[str]) -> None:
    """Inside the write transaction: an evaluator's copy takes only that evaluator's judgements."""
    stamp = copy_stamp(conn)
    if stamp is None:
        return
    refused = [action for action in actions if action not in ALLOWED_IN_COPY]
    if refused:
        who = stamp.get("invitation", {}).get("evaluator", "one evaluator")
        raise EditRejectedError(
            path,
            (
                f"is {who}'s evaluator copy of a panel evaluation: its bids, workload and scoring "
                "policy are "
                f"locked, and only {who}'s own judgements (weights, scores, notes and questions) "
                "can be "
                "recorded in it. Make the change in the lead document, then invite the panel again"
            ),
        )
    if audit.PANEL_COPY in actions:
        raise EditRejectedError(
            path, "is already an evaluator copy; a copy cannot be stamped twice"
        )


class PanelRecords:
    """Panel rows mixed into EvaluationDocument; needs its connection, path and _commit_many."""

    _conn: sqlite3.Connection
    path: Path

    def panel_rows(self) -> list[audit.AuditRow]:
        """Every panel row of the trail, oldest first."""
        rows = [
            row
            for action in audit.PANEL_ACTIONS
            for row in audit.read_rows_by_action(self._conn, action)
        ]
        return sorted(rows, key=lambda row: row.seq)

    def copy_stamp(self) -> dict[str, Any] | None:
        """What made this document an evaluator's copy (its invitation, the lead row it was made
        at), or None for any other document."""
        return copy_stamp(self._conn)

    def record_panel(
        self, entries: list[tuple[str, str | None, dict[str, Any]]]
    ) -> tuple[int, str]:
        """Panel rows (action, target, payload) in one transaction: all of them or none. Returns
        the head after them. The payload is checked by core/panel before it gets here."""
        for action, _, _ in entries:
            if action not in audit.PANEL_ACTIONS:
                raise EditRejectedError(self.path, f"{action!r} is not a panel record")
        rows = [
            (action, target, None, json.dumps(payload, sort_keys=True, ensure_ascii=False))
            for action, target, payload in entries
        ]
        self._commit_many(rows)  # type: ignore[attr-defined]
        return self.head  # type: ignore[attr-defined,no-any-return]


def panel_row_words(action: str, payload: dict[str, Any]) -> str:
    """One line for `clusterbid audit` and the app's audit trail: what a panel row records."""
    invitation = payload.get("invitation", payload)
    who = f"{invitation.get('evaluator', '?')}, {invitation.get('role', '?')}"
    if action == audit.PANEL_INVITE:
        return f"invited {who} to the evaluation panel"
    if action == audit.PANEL_COPY:
        return (
            f"evaluator copy for {who}, made at row #{payload.get('lead_seq')} of "
            f"{payload.get('lead_file', 'the lead document')}"
        )
    judgement = payload.get("judgement", {})
    counts = (
        f"{len(judgement.get('weights', {}))} weights, "
        f"{sum(len(s) for s in judgement.get('scores', {}).values())} scores, "
        f"{sum(len(n) for n in judgement.get('notes', {}).values())} notes, "
        f"{sum(len(q) for q in judgement.get('questions', {}).values())} questions"
    )
    if action == audit.PANEL_JUDGEMENT:
        return f"{payload.get('evaluator')}'s judgement: {counts}"
    if action == audit.PANEL_MERGE:
        return (
            f"merged {payload.get('evaluator')}'s judgement ({counts}) from "
            f"{payload.get('copy_file')}, row #{payload.get('copy_seq')} of that copy"
        )
    dissent = len(payload.get("dissent", []))
    how = "the median accepted" if payload.get("median_accepted") else "agreed"
    bid, value = payload.get("bid"), float(payload.get("value", 0.0))
    words = payload.get("words", payload.get("item"))
    item = f"the {words}, {value:.1f}{'% of the total' if bid is None else ' of 10'}"
    return f"consensus on {item} ({how}); {dissent} dissent"
