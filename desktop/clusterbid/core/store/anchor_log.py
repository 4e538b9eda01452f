"""History anchored outside the file: an append-only log of the rows that decide.

The audit chain's head lives in the document itself, so whoever holds the file can rewrite rows
and recompute every hash after them, append a decision under someone else's name, or put back an
older copy, and the chain still verifies. Each memo export, signature and award decision
therefore also appends one line to a log outside the document: the document's id (the hash of
its first row, unique to it), the row's number and hash, who, when, and the memo's SHA-256.
`clusterbid audit DOC --against LOG` then finds what the file alone cannot show:
- a roll-back: a logged row is gone from the trail (an older copy was put back);
- a rewrite: a logged row is there with another hash (the trail was recomputed since);
- a decision, memo or signature row under a name whose own log does not hold it.

The log is a per-user file by default (CLUSTERBID_ANCHOR_LOG names another); with
CLUSTERBID_ANCHOR_FOLDER set (an organisation's shared folder) each line also goes to that
folder's file for this user, which the document's holder does not control. Lines are appended
with O_APPEND and fsync'ed; a log that cannot be written never blocks the record (the row is
already committed) but the caller is told, and says so.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from clusterbid.core.store.audit import (
    COUNTERSIGN,
    RECORD_DECISION,
    RECORD_MEMO_EXPORTED,
    RECORD_SIGNATURE,
    AuditRow,
)
from clusterbid.core.user_folder import per_user_data_folder

LOG_ENV, FOLDER_ENV = "CLUSTERBID_ANCHOR_LOG", "CLUSTERBID_ANCHOR_FOLDER"
ANCHORED_ACTIONS = (RECORD_DECISION, RECORD_MEMO_EXPORTED, RECORD_SIGNATURE, COUNTERSIGN)
MAX_LOG_BYTES = 64 * 1024 * 1024  # about 200,000 anchors; a larger file is not our log


def default_log_path() -> Path:
    """The per-user log: CLUSTERBID_ANCHOR_LOG, else the platform's per-user data folder."""
    if os.environ.get(LOG_ENV):
        return Path(os.environ[LOG_ENV])
    return per_user_data_folder() / "anchors.jsonl"


def document_id(rows: tuple[AuditRow, ...]) -> str | None:
    """The hash of the document's first row: it covers the creation time and content."""
    return rows[0].hash if rows else None


@dataclass(frozen=True)
class Anchor:
    document: str
    file: str
    seq: int
    hash: str
    action: str
    who: str
    at: str
    memo_sha256: str | None = None


def _targets() -> list[Path]:
    targets = [default_log_path()]
    if os.environ.get(FOLDER_ENV):
        from clusterbid.core.store.audit import default_user

        targets.append(Path(os.environ[FOLDER_ENV]) / f"anchors-{default_user()}.jsonl")
    return targets


def _append_line(path: Path, line: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    descriptor = os.open(path, flags, 0o600)  # never waits on a FIFO named as the log
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a plain file")
        os.write(descriptor, line)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def append_anchor(
    file_name: str, first_row_hash: str, row: AuditRow, memo_sha256: str | None
) -> list[str]:
    """Log `row` (already committed); the problems in words ([] when every log took it)."""
    if row.action not in ANCHORED_ACTIONS:
        return []
    anchor = Anchor(
        first_row_hash, file_name, row.seq, row.hash, row.action, row.who, row.at, memo_sha256
    )
    line = (json.dumps(anchor.__dict__, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
    problems = []
    for target in _targets():
        try:
            _append_line(target, line)
        except OSError as exc:
            problems.append(
                f"row #{row.seq} could not be added to the anchor log {target} "
                f"({exc.strerror or exc}); the document keeps it, the log does not"
            )
    return problems
