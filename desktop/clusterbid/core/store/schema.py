"""The .clusterbid file format: application id, ordered schema migrations, the expected schema."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cache

# "CBID" in ASCII (0x43424944). `file(1)` and SQLite tools show it, and it tells a ClusterBid
# document from any other SQLite file before a single table is read. Never change it.
APPLICATION_ID = 0x43424944

# The guard triggers are part of our own schema: they make the audit table append-only inside
# SQLite itself, so even a bug in this package cannot rewrite history.
GUARD_TRIGGERS = ("audit_append_only_update", "audit_append_only_delete")


@dataclass(frozen=True)
class Migration:
    """One step from `version - 1` to `version`; statements run inside the caller's transaction."""

    version: int
    summary: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "evaluation header, bids as JSON, hash-chained audit trail, evidence artefacts",
        (
            "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
            # Evaluation and bids are kept as their JSON so that model fields added later need
            # no migration; only what we query by (bid id, order) gets a column.
            "CREATE TABLE evaluation (singleton INTEGER PRIMARY KEY CHECK (singleton = 1),"
            " header_json TEXT NOT NULL)",
            "CREATE TABLE bid (position INTEGER PRIMARY KEY, bid_id TEXT NOT NULL UNIQUE, bid_json "
            "TEXT NOT NULL)",
            "CREATE TABLE audit (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, who TEXT NOT NULL,"
            " action TEXT NOT NULL, target TEXT, old_json TEXT, new_json TEXT, hash TEXT NOT NULL)",
            "CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit"
            " BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END",
            "CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit"
            " BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END",
            "CREATE TABLE artefact (id INTEGER PRIMARY KEY, bid_id TEXT, name TEXT NOT NULL,"
            " sha256 TEXT NOT NULL, size INTEGER NOT NULL CHECK (size >= 0), content BLOB NOT "
            "NULL)",
        ),
    ),
    Migration(
        2,
        "artefact media types; indexes for the audit history of one bid and artefact look-up by "
        "hash",
        (
            "ALTER TABLE artefact ADD COLUMN media_type TEXT NOT NULL DEFAULT "
            "'application/octet-stream'",
            "CREATE INDEX audit_by_target ON audit (target, seq)",
            "CREATE INDEX artefact_by_sha256 ON artefact (sha256)",
        ),
    ),
    Migration(
        3,
        "the approver registry, kept as audit rows (approver_add, approver_key, approver_retire); "
        "an "
        "index to read them and the trust anchors by action. The new format number keeps an older "
        "ClusterBid from taking these rows for an unknown action and the trail for a broken one",
        ("CREATE INDEX audit_by_action ON audit (action, seq)",),
    ),
    Migration(
        4,
        "checkpoints (checkpoint.py): a `checkpoint` audit row every few hundred rows and the "
        "state it "
        "records, kept in its own table, so that opening replays only the rows since the last one. "
        "The new format number keeps an older ClusterBid from taking a checkpoint row for an "
        "unknown "
        "action; an upgraded document has no checkpoint until its next commit past the interval",
        (
            "CREATE TABLE checkpoint (seq INTEGER PRIMARY KEY, header_json TEXT NOT NULL,"
            " bids_json TEXT NOT NULL, ids_json TEXT NOT NULL)",
        ),
    ),
    Migration(
        5,
        "evaluation panels (core/panel/), kept as audit rows (panel_invite, panel_copy, "
        "panel_judgement, "
        "panel_merge, panel_consensus). No table changes: the new format number keeps an older "
        "ClusterBid from taking these rows for an unknown action and the trail for a broken one",
        (),
    ),
)

CURRENT_VERSION = MIGRATIONS[-1].version


def apply_migration(conn: sqlite3.Connection, migration: Migration) -> None:
    """Run one migration's statements; the caller owns the transaction and user_version."""
    for statement in migration.statements:
        conn.execute(statement)


def build_schema(conn: sqlite3.Connection, version: int = CURRENT_VERSION) -> None:
    """Create the schema of `version` in an empty database, inside the caller's transaction."""
    for migration in MIGRATIONS[:version]:
        apply_migration(conn, migration)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {version}")


SchemaEntry = tuple[str, str, str, str | None]  # type, name, table, sql


def read_schema(conn: sqlite3.Connection) -> set[SchemaEntry]:
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    # sqlite_stat* tables appear after ANALYZE and carry no code, so they are not a threat.
    return {tuple(row) for row in rows if not row[1].startswith("sqlite_stat")}


@cache
def expected_schema(version: int) -> frozenset[SchemaEntry]:
    """The exact schema a genuine document of `version` has, built by replaying the migrations."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        build_schema(conn, version)
        return frozenset(read_schema(conn))
    finally:
        conn.close()
