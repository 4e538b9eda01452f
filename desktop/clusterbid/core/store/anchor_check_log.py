"""`clusterbid audit DOC --against LOG`: the trail held against the anchors logged outside it."""

from __future__ import annotations

import json
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.safe_read import read_regular
from clusterbid.core.store.anchor_log import ANCHORED_ACTIONS, MAX_LOG_BYTES, Anchor, document_id
from clusterbid.core.store.audit import AuditRow

FIELDS = set(Anchor.__dataclass_fields__)


def read_anchor_log(path: Path) -> list[Anchor]:
    """Every anchor in the log at `path`; InputError naming the file and line otherwise."""
    try:
        raw = read_regular(path, MAX_LOG_BYTES)
    except FileNotFoundError:
        raise InputError(
            f"--against {path}: no such file (no memo, signature or decision was logged there yet)"
        ) from None
    except OSError as exc:
        raise InputError(f"--against {path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_LOG_BYTES:
        raise InputError(
            f"--against {path}: larger than {MAX_LOG_BYTES // 2**20} MiB; not an anchor log"
        )
    anchors = []
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or set(data) != FIELDS:
                raise ValueError("not the fields of an anchor")
            anchors.append(Anchor(**data))
        except (ValueError, TypeError) as exc:
            raise InputError(
                f"--against {path} line {number}: not an anchor ({str(exc)[:80]})"
            ) from None
    return anchors


def _what(anchor: Anchor) -> str:
    return f"{anchor.action.replace('_', ' ')} by {anchor.who} at {anchor.at[:19]}"


def check_against_log(
    rows: tuple[AuditRow, ...], log: list[Anchor], log_name: str, file_name: str
) -> tuple[list[str], list[str]]:
    """(problems, facts) in words: roll-backs, rewrites and rows under a name its log lacks."""
    this = document_id(rows)
    mine = [anchor for anchor in log if anchor.document == this]
    # The id is the first row's hash, so a rewrite from row 1 changes it: anchors of a document
    # of the same name under another id are that rewrite, or another file that shares the name.
    namesakes = {
        anchor.document for anchor in log if anchor.file == file_name and anchor.document != this
    }
    last = rows[-1].seq if rows else 0
    problems = _rolled_back_or_rewritten(rows, mine, log_name, last)
    problems += _added_under_an_owners_name(rows, log, mine, log_name)
    if namesakes:
        problems.append(
            f"{log_name} holds anchors of {len(namesakes)} other document(s) named {file_name} "
            "whose "
            "first row is not this one's: this document's history was rewritten from its first "
            "row, or another file shares the name (audit that one against the log to tell)"
        )
    return problems, _anchored_facts(mine, log_name, last)


def _rolled_back_or_rewritten(
    rows: tuple[AuditRow, ...], mine: list[Anchor], log_name: str, last: int
) -> list[str]:
    """Each anchored row the trail no longer holds (a roll-back) or holds with another hash."""
    by_seq = {row.seq: row for row in rows}
    problems = []
    for anchor in mine:
        row = by_seq.get(anchor.seq)
        if row is None:
            problems.append(
                f"row #{anchor.seq} ({_what(anchor)}) is in {log_name} but the trail ends at "
                f"#{last}: the document was rolled back to an older copy"
            )
        elif row.hash != anchor.hash:
            problems.append(
                f"row #{anchor.seq} ({_what(anchor)}) has another hash than {log_name} holds: the "
                "trail was rewritten at or before that row since"
            )
    return problems


def _added_under_an_owners_name(
    rows: tuple[AuditRow, ...], log: list[Anchor], mine: list[Anchor], log_name: str
) -> list[str]:
    """Rows of an anchored kind under the log keeper's name that their own log never saw."""
    logged = {(anchor.seq, anchor.hash) for anchor in mine}
    owners = {anchor.who for anchor in log}  # whoever keeps this log records their own rows in it
    return [
        f"row #{row.seq} records a {row.action.replace('_', ' ')} by {row.who}, whose "
        f"anchor log {log_name} does not hold it: it was added under that name by someone "
        "else, or on another computer (check that computer's log)"
        for row in rows
        if row.action in ANCHORED_ACTIONS
        and row.who in owners
        and (row.seq, row.hash) not in logged
    ]


def _anchored_facts(mine: list[Anchor], log_name: str, last: int) -> list[str]:
    """How much of this document the log holds, and which later rows it cannot vouch for yet."""
    if not mine:
        return [
            f"{log_name} holds no anchor of this document (no memo, signature or decision was "
            "logged)"
        ]
    newest = max(mine, key=lambda anchor: anchor.seq)
    facts = [
        f"{len(mine)} anchored row(s) of this document in {log_name}; the last, #{newest.seq}, "
        f"{_what(newest)}"
    ]
    if last > newest.seq:
        facts.append(
            f"rows #{newest.seq + 1}-#{last} came after it and are not anchored yet: a "
            "roll-back "
            "to any of them, or a rewrite of them, shows only once a later memo is logged"
        )
    return facts
