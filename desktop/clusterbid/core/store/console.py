"""Plain-text rendering of an audit report for the terminal (`clusterbid audit PATH`)."""

from __future__ import annotations

import json

from clusterbid.core.store import audit
from clusterbid.core.store.audit import AuditRow
from clusterbid.core.store.panel_lock import panel_row_words
from clusterbid.core.store.verify import AuditReport

# The most anchors the app lists: enough to see the last few memos, short enough to read.
RECENT_ANCHORS = 5

MAX_VALUE_CHARS = 70
MAX_CHANGES_SHOWN = 12


def _short(value: object) -> str:
    text = (
        json.dumps(value, ensure_ascii=False, sort_keys=True)
        if not isinstance(value, str)
        else value
    )
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def _flatten(value: object, prefix: str = "") -> dict[str, object]:
    if isinstance(value, dict):
        flat: dict[str, object] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def _changes(old_json: str | None, new_json: str | None) -> list[str]:
    """Field-level differences, so a correction reads as `price: 2.5 -> 2.4`, not two JSON blobs."""
    old = _flatten(json.loads(old_json)) if old_json else {}
    new = _flatten(json.loads(new_json)) if new_json else {}
    lines = [
        f"{key}: {_short(old.get(key))} -> {_short(new.get(key))}"
        for key in sorted(old.keys() | new.keys())
        if old.get(key) != new.get(key)
    ]
    if len(lines) > MAX_CHANGES_SHOWN:
        lines = lines[:MAX_CHANGES_SHOWN] + [
            f"... and {len(lines) - MAX_CHANGES_SHOWN} more fields"
        ]
    return lines


def _details(row: AuditRow) -> list[str]:
    try:
        if row.action == audit.CREATE:
            created = json.loads(row.new_json or "{}")
            return [f"title: {_short(created.get('title'))}, {len(created.get('bids', []))} bids"]
        if row.action == audit.ADD_BID:
            bid = json.loads(row.new_json or "{}")
            return [f"provider: {_short(bid.get('quote', {}).get('provider'))}"]
        if row.action == audit.REMOVE_BID:
            return ["(the removed bid is kept in this row's old value)"]
        if row.action in (audit.REPLACE_BID, audit.SET_WORKLOAD, audit.SET_POLICY):
            return _changes(row.old_json, row.new_json) or ["(no field changed)"]
        if row.action == audit.EDIT:
            edit = json.loads(row.new_json or "{}")
            steps = [
                f"{step.get('action')} {step.get('target') or ''}".rstrip()
                for step in edit.get("steps", [])
            ]
            shown = [f"  {s}" for s in steps[:MAX_CHANGES_SHOWN]]
            if len(steps) > MAX_CHANGES_SHOWN:
                shown.append(f"  ... and {len(steps) - MAX_CHANGES_SHOWN} more parts")
            return [f"{_short(edit.get('label'))}: {len(steps)} parts in one change", *shown]
        if row.action in audit.PANEL_ACTIONS:
            return [panel_row_words(row.action, json.loads(row.new_json or "{}"))]
        return [
            f"{key}: {_short(value)}"
            for key, value in sorted(json.loads(row.new_json or "{}").items())
        ]
    except (ValueError, AttributeError, TypeError):
        return ["(value is not readable JSON)"]


def format_audit(report: AuditReport) -> str:
    """The whole trail, oldest first, then the verdict on the chain."""
    lines = [f"Audit trail of {report.path.name}: {len(report.rows)} recorded changes", ""]
    for row in report.rows:
        marker = "  <-- BROKEN" if row.seq == report.first_broken else ""
        target = f" {row.target}" if row.target else ""
        lines.append(f"#{row.seq:<5} {row.at}  {row.who}  {row.action}{target}{marker}")
        lines.extend(f"         {detail}" for detail in _details(row))
    lines.append("")
    if report.ok:
        lines.append(
            f"Chain verified: all {len(report.rows)} rows intact; the trail accounts for the "
            "current evaluation."
        )
    else:
        where = f" at row #{report.first_broken}" if report.first_broken is not None else ""
        lines.append(f"CHAIN BROKEN{where}: {report.reason}")
    if report.left_beside:
        lines.append(
            f"Note: {', '.join(report.left_beside)} lies beside the document (an unfinished change "
            "after a crash, or a stray file). The audit read the document as it is on disk without "
            "it and left both untouched. "
            + (
                # an editing open refuses a -wal by name (fileformat.open_connection); SQLite
                # rolls a hot -journal back, which is the crash recovery it exists for
                "Opening the document for editing refuses a write-ahead log: move it aside to "
                "open the document as it is."
                if any(name.endswith("-wal") for name in report.left_beside)
                else "Opening the document for editing finishes the recovery (the unfinished "
                "change is rolled back)."
            )
        )
    return "\n".join(lines + _anchor_lines(report))


def _anchor_lines(report: AuditReport) -> list[str]:
    """The head a memo made now would record, and the rows earlier memos were made at."""
    if not report.rows:
        return []
    last = report.rows[-1]
    lines = [
        "",
        f"Head: row #{last.seq}, hash {last.hash}. A memo made now records this head; "
        "`clusterbid verify MEMO --evaluation` checks that the trail still holds it.",
    ]
    anchors = recent_anchors(report.rows)
    if anchors:
        lines += [
            "Memos made from this document (newest first):",
            *(f"  {line}" for line in anchors),
        ]
    return lines


def recent_anchors(rows: tuple[AuditRow, ...], limit: int = RECENT_ANCHORS) -> list[str]:
    """The last memos exported from a trail and the row each was anchored at, newest first, as lines."""
    lines = []
    for row in reversed(rows):
        if row.action != audit.RECORD_MEMO_EXPORTED or not row.new_json:
            continue
        try:
            payload = json.loads(row.new_json)
        except ValueError:
            continue
        anchor = payload.get("anchor") if isinstance(payload, dict) else None
        at = row.at[:16].replace("T", " ")
        where = (
            f"anchored at row #{anchor['seq']} ({str(anchor['hash'])[:12]}...)"
            if isinstance(anchor, dict) and "seq" in anchor and "hash" in anchor
            else "no anchor recorded"
        )
        lines.append(f"{payload.get('file_name', '?')}: {where}; exported {at} by {row.who}")
        if len(lines) == limit:
            break
    return lines
