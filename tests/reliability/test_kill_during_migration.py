"""SIGKILL a process in the middle of upgrading a document: the old file stays whole and still upgrades."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clusterbid.core.store import (
    CURRENT_VERSION,
    EvaluationDocument,
    audit,
    schema,
    snapshot,
    verify_audit_chain,
)

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
BUILDERS = Path(__file__).resolve().parents[1] / "core" / "store"

# The child slows the last migration down after its statements ran (inside the transaction)
# and says so, so that the kill is certain to land mid-upgrade.
CHILD = textwrap.dedent(
    """
    import sys, time
    from clusterbid.core.store import EvaluationDocument, schema

    original = schema.apply_migration

    def slow(conn, migration):
        original(conn, migration)
        if migration.version == schema.CURRENT_VERSION:
            print("migrating", flush=True)
            time.sleep(60)

    schema.apply_migration = slow
    EvaluationDocument.open(sys.argv[1])
    """
)


def test_kill_during_migration_leaves_the_old_file_intact(tmp_path):
    sys.path.insert(0, str(BUILDERS))  # the store tests' builders, without depending on test order
    from builders import make_evaluation

    path = tmp_path / "old.clusterbid"
    evaluation = make_evaluation(3)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    schema.build_schema(conn, 1)
    snapshot.write_evaluation(conn, evaluation)
    audit.append(
        conn,
        (0, audit.GENESIS_HASH),
        who="old-app",
        action=audit.CREATE,
        target=None,
        old_json=None,
        new_json=snapshot.to_json(evaluation),
    )
    conn.execute("COMMIT")
    conn.close()
    before = path.read_bytes()

    script = tmp_path / "migrate.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(DESKTOP), str(BUILDERS)])}
    child = subprocess.Popen(
        [sys.executable, str(script), str(path)], stdout=subprocess.PIPE, env=env
    )
    try:
        assert child.stdout.readline() == b"migrating\n"
        assert path.with_name(path.name + "-journal").exists(), (
            "the upgrade should be inside a transaction"
        )
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()

    conn = sqlite3.connect(path)  # the first reader rolls the hot journal back
    assert conn.execute("PRAGMA user_version").fetchone() == (1,)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert "media_type" not in [row[1] for row in conn.execute("PRAGMA table_info(artefact)")]
    conn.close()
    assert path.read_bytes() == before
    with EvaluationDocument.open(path) as doc:
        assert doc.evaluation == evaluation
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone() == (CURRENT_VERSION,)
    conn.close()
    assert verify_audit_chain(path).ok
