"""Opening a .clusterbid file safely: refuse what is not ours, check integrity, migrate."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from clusterbid.core.safe_read import NotARegularFile, open_regular
from clusterbid.core.store import audit, schema
from clusterbid.core.store.errors import (
    CorruptDocumentError,
    DocumentError,
    DocumentWriteError,
    LockedDocumentError,
    NewerDocumentError,
    NotADocumentError,
    UnsafeDocumentError,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
SUFFIX = ".clusterbid"
BUSY_TIMEOUT_S = 5.0


RECOVERY_SUFFIXES = ("-journal", "-wal", "-shm")


def can_take_writes(path: Path) -> bool:
    """The document and its folder (where SQLite writes its journal) accept writes: False on a
    read-only file, folder or medium (access() reports EROFS even to root)."""
    path = Path(path)
    return os.access(path, os.W_OK) and os.access(path.resolve().parent, os.W_OK)


def read_only_refusal(path: Path, what: str) -> str | None:
    """Why `what` cannot be recorded in the document at `path`, said before anything is written."""
    if can_take_writes(path):
        return None
    return (
        f"{Path(path).name} cannot be written (a read-only file, folder or medium), so {what} "
        "could not "
        "be recorded in its audit trail; nothing was written. Copy it somewhere writable "
        f"(`clusterbid copy {Path(path).name} COPY.clusterbid`) and use the copy"
    )


def recovery_files(path: Path) -> list[Path]:
    """Files SQLite would read beside the document (a crash's journal, or a stray WAL)."""
    return [p for p in (path.with_name(path.name + s) for s in RECOVERY_SUFFIXES) if p.exists()]


def _connect(path: Path, mode: str, immutable: bool = False) -> sqlite3.Connection:
    # A URI with an explicit mode stops sqlite3 from silently creating a missing file.
    # immutable=1 reads the file exactly as it is: no lock, no journal rolled back, no WAL merged.
    uri = f"{path.resolve().as_uri()}?mode={mode}" + ("&immutable=1" if immutable else "")
    # check_same_thread=False: the app commits on its commit lane's thread (gui/commit_lane.py),
    # which holds a lock around each write; the connection is never used by two threads at once.
    conn = sqlite3.connect(
        uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_S, check_same_thread=False
    )
    # trusted_schema=OFF first: no schema object may call functions with side effects.
    conn.execute("PRAGMA trusted_schema = OFF")
    if mode != "ro":
        # A rollback journal (not WAL) keeps the document one self-contained file that can be
        # copied to a USB stick at any moment; FULL sync makes each commit durable on return.
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("PRAGMA synchronous = FULL")
    return conn


def create_connection(path: Path) -> sqlite3.Connection:
    """Open a new, empty database at `path`; the caller builds the schema in one transaction."""
    try:
        # O_EXCL: never overwrite an existing document, even if it appears between check and use.
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except FileExistsError:
        raise DocumentError(
            path, "a file with this name already exists; choose another name"
        ) from None
    except OSError as exc:
        raise DocumentWriteError(path, f"cannot be created ({exc.strerror})") from None
    try:
        return _connect(path, "rw")
    except sqlite3.Error as exc:
        path.unlink(missing_ok=True)
        raise DocumentWriteError(path, f"cannot be created ({exc})") from None


def _check_header(path: Path) -> None:
    if not path.exists():
        raise DocumentError(path, "no such file")
    try:
        with open_regular(path) as handle:  # a device or FIFO is refused by name, never read
            header = handle.read(100)
    except NotARegularFile as exc:
        raise NotADocumentError(path, str(exc.strerror)) from None
    except OSError as exc:
        raise DocumentError(path, f"cannot be read ({exc.strerror})") from None
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise NotADocumentError(path, "is not a ClusterBid document (it is not an SQLite database)")


def _check_identity(path: Path, conn: sqlite3.Connection) -> int:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id != schema.APPLICATION_ID:
        raise NotADocumentError(
            path,
            "is an SQLite database made by another program (application_id "
            f"0x{app_id & 0xFFFFFFFF:08X}, "
            f"a ClusterBid document has 0x{schema.APPLICATION_ID:08X}); it was not opened",
        )
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > schema.CURRENT_VERSION:
        raise NewerDocumentError(
            path,
            f"was made by a newer ClusterBid (document format {version}; this app reads up to "
            f"{schema.CURRENT_VERSION}): update the app to open it",
        )
    if version < 1:
        raise CorruptDocumentError(
            path, "was never completely created (no schema version); it holds no evaluation"
        )
    return version


# The tables an open reads whole. The audit table's history is read from the last checkpoint on
# (a damaged page on that path fails the read and the open says so); its pages are checked in full
# by `clusterbid audit`, `verify` and the app's Audit Trail, which read all of it. Checking every
# audit page at each open made opening grow with history (66 of 68 ms at 10,000 edits).
TABLES_AN_OPEN_READS = ("sqlite_schema", "meta", "evaluation", "bid", "artefact", "checkpoint")


def page_problem(path: Path, conn: sqlite3.Connection, *, whole_history: bool = True) -> str | None:
    """What SQLite's integrity check finds in every page (`whole_history`) or in the tables an open
    reads, or a file shorter than its header says; None when nothing."""
    if whole_history:
        checks = ["PRAGMA integrity_check(5)"]
    else:
        present = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema")}
        checks = [
            f'PRAGMA integrity_check("{table}")'
            for table in TABLES_AN_OPEN_READS
            if table in present or table == "sqlite_schema"
        ]
    problems = [row[0] for check in checks for row in conn.execute(check) if row[0] != "ok"]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    if not problems and path.stat().st_size < pages * size:
        problems = [f"the file ends at {path.stat().st_size:,} bytes of {pages * size:,}"]
    return "failed SQLite's integrity check: " + "; ".join(problems[:5]) if problems else None


def check_schema(path: Path, conn: sqlite3.Connection, version: int) -> set[str]:
    """Refuse foreign or altered schema objects; return the names of our guard triggers that are missing."""
    actual = schema.read_schema(conn)
    expected = schema.expected_schema(version)
    expected_by_name = {entry[1]: entry for entry in expected}
    for kind, name, _table, _sql in sorted(actual - expected, key=str):
        what = "altered" if name in expected_by_name else "unknown"
        if kind in ("trigger", "view"):
            raise UnsafeDocumentError(
                path,
                f"carries an {what} {kind} {name!r} that ClusterBid did not create; a {kind} can "
                "run hidden "
                "SQL when the document is read or edited, so the file was refused",
            )
        raise UnsafeDocumentError(
            path, f"has an {what} {kind} {name!r} that ClusterBid did not create; refused"
        )
    missing = {entry[1] for entry in expected - actual}
    absent_structure = missing - set(schema.GUARD_TRIGGERS)
    if absent_structure:
        raise CorruptDocumentError(
            path, f"is missing part of its schema ({', '.join(sorted(absent_structure))})"
        )
    return missing


def _migrate(path: Path, conn: sqlite3.Connection, version: int) -> None:
    # All pending steps in one transaction: a crash or kill leaves the file at its old version.
    try:
        conn.execute("BEGIN IMMEDIATE")
        for migration in schema.MIGRATIONS[version:]:
            schema.apply_migration(conn, migration)
        conn.execute(f"PRAGMA user_version = {schema.CURRENT_VERSION}")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise DocumentWriteError(
            path,
            f"could not be upgraded from format {version} to {schema.CURRENT_VERSION} ({exc}); the "
            "file is unchanged",
        ) from None


def open_connection(
    path: Path,
    *,
    migrate: bool = True,
    allow_missing_guard: bool = False,
    read_only: bool = False,
    whole_history: bool = False,
) -> sqlite3.Connection:
    """Open an existing document after every safety check; migrate it to the current format.
    `read_only`: the file is read as it lies on disk and never written, journal and WAL included
    (audit and verify); nothing is migrated. The pages of the tables an open reads are checked (it
    replays from the last checkpoint); `whole_history` (the audit): every page of the file."""
    path = Path(path)
    _check_header(path)
    stray = path.with_name(path.name + "-wal")
    if not read_only and stray.exists():
        # Our documents keep a rollback journal and never write a WAL: one beside the file was put
        # there, and opening for editing would merge it in for good. The user decides, by name.
        raise DocumentError(
            path,
            f"has a write-ahead log beside it ({stray.name}) that ClusterBid never writes; "
            "opening it for editing would merge that file's changes in. `clusterbid audit` "
            "shows the document without it; move the file aside to open the document as it "
            "is, or, if you know where it came from, open the document in the app, which offers "
            "to merge it (keeping both files aside and checking the result)",
        )
    writable = not read_only and os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    migrate = migrate and not read_only
    conn: sqlite3.Connection | None = None
    try:
        conn = _connect(path, "rw" if writable else "ro", immutable=read_only)
        version = _check_identity(path, conn)
        if problem := page_problem(path, conn, whole_history=whole_history):
            raise CorruptDocumentError(path, problem)
        missing_guard = check_schema(path, conn, version)
        if missing_guard and not allow_missing_guard:
            raise UnsafeDocumentError(
                path,
                "has had its audit-trail guard removed ("
                + ", ".join(sorted(missing_guard))
                + "); refused",
            )
        if migrate and version < schema.CURRENT_VERSION:
            if not writable:
                raise DocumentWriteError(
                    path,
                    "is read-only and in an older format; copy it somewhere writable to upgrade it",
                )
            _migrate(path, conn, version)
        return conn
    except DocumentError:
        if conn is not None:
            conn.close()
        raise
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # damaged schema text decodes as neither
        if conn is not None:
            conn.close()
        raise describe_open_error(path, exc) from None


def describe_open_error(path: Path, exc: sqlite3.Error | UnicodeDecodeError) -> DocumentError:
    """Say what is really wrong: a lock or a read-only recovery journal is not a damaged file."""
    text = str(exc).lower()
    journal = path.with_name(path.name + "-journal")
    if "locked" in text or "busy" in text:
        return LockedDocumentError(
            path,
            f"is locked by another program (another ClusterBid window, a backup or "
            f"sync tool) that is writing to it ({exc}); close it there and try again",
        )
    if "readonly" in text or "read-only" in text or (journal.exists() and "unable to open" in text):
        return DocumentWriteError(
            path,
            f"holds an unfinished change (a crash left {journal.name}) that must be "
            f"undone before it can be read, but its folder is read-only ({exc}): copy "
            f"the file and {journal.name} together to a writable folder and open it there",
        )
    return CorruptDocumentError(
        path, f"is damaged or not a ClusterBid document and could not be read ({exc})"
    )


def document_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def read_whole_trail(path: Path, conn: sqlite3.Connection) -> tuple[audit.AuditRow, ...]:
    """Every audit row, once every page of the file is checked: a damaged page in old history,
    which an open does not read, is refused here by the file's name, never a raw SQLite error."""
    if problem := page_problem(path, conn):
        raise CorruptDocumentError(path, problem)
    try:
        return audit.read_rows(conn)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise CorruptDocumentError(path, f"its audit trail cannot be read ({exc})") from None
