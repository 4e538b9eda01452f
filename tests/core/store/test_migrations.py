"""Schema migrations: every earlier format opens and upgrades; a failed upgrade leaves the old file."""

from __future__ import annotations

import json
import sqlite3

import pytest
from builders import make_bid, make_evaluation

from clusterbid.core.store import (
    CURRENT_VERSION,
    DocumentWriteError,
    EvaluationDocument,
    audit,
    schema,
    snapshot,
    verify_audit_chain,
)


def make_old_document(path, version):
    """Write a document exactly as a ClusterBid of format `version` would have, with one artefact."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    schema.build_schema(conn, version)
    evaluation = make_evaluation(3)
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
    sha256 = "01d09d19c2139a46aebfb577780d123d7396e97201bc7ead210a2ebff8239dee"  # of b"old\n"
    conn.execute(
        "INSERT INTO artefact (bid_id, name, sha256, size, content) VALUES (?, ?, ?, ?, ?)",
        ("bid-1", "old.log", sha256, 4, b"old\n"),
    )
    # Format 1 had no media types, so its attach rows did not record one.
    head = audit.read_head(conn)
    audit.append(
        conn,
        head,
        who="old-app",
        action=audit.ATTACH_ARTEFACT,
        target="bid-1",
        old_json=None,
        new_json=json.dumps({"name": "old.log", "sha256": sha256, "size": 4, "bid_id": "bid-1"}),
    )
    conn.execute("COMMIT")
    conn.close()
    return evaluation


def columns(path, table):
    conn = sqlite3.connect(path)
    try:
        return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
    finally:
        conn.close()


def indexes(path):
    conn = sqlite3.connect(path)
    try:
        return {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        }
    finally:
        conn.close()


def user_version(path):
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_migrations_are_numbered_in_order():
    assert [m.version for m in schema.MIGRATIONS] == list(range(1, CURRENT_VERSION + 1))
    assert CURRENT_VERSION >= 2


@pytest.mark.parametrize("version", range(1, CURRENT_VERSION))
def test_every_earlier_format_upgrades_to_the_current_one(tmp_path, version):
    path = tmp_path / f"v{version}.clusterbid"
    evaluation = make_old_document(path, version)
    assert user_version(path) == version
    assert ("media_type" in columns(path, "artefact")) == (version >= 2)
    assert ("audit_by_action" in indexes(path)) == (version >= 3)

    with EvaluationDocument.open(path, user="new-app") as doc:
        assert doc.evaluation == evaluation
        assert doc.artefacts()[0].media_type == "application/octet-stream"
        assert doc.artefact_bytes(1) == b"old\n"
        doc.add_bid(make_bid("after-upgrade"))
        info = doc.attach_artefact("new.csv", b"a,b\n", media_type="text/csv")
    assert user_version(path) == CURRENT_VERSION
    assert "media_type" in columns(path, "artefact")
    assert "audit_by_action" in indexes(
        path
    )  # format 3: the registry and trust anchors read by action
    # The upgraded file is indistinguishable from one created by the current version.
    conn = sqlite3.connect(path)
    assert schema.read_schema(conn) == set(schema.expected_schema(CURRENT_VERSION))
    conn.close()
    report = verify_audit_chain(path)
    assert report.ok and [r.who for r in report.rows] == [
        "old-app",
        "old-app",
        "new-app",
        "new-app",
    ]
    with EvaluationDocument.open(path) as doc:
        assert doc.artefacts()[-1] == info


def test_a_failed_upgrade_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "v1.clusterbid"
    make_old_document(path, 1)
    before = path.read_bytes()
    broken = schema.Migration(
        CURRENT_VERSION + 1,
        "fails half way",
        ("CREATE TABLE half_done (x)", "INSERT INTO no_such_table VALUES (1)"),
    )
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, broken))
    monkeypatch.setattr(schema, "CURRENT_VERSION", CURRENT_VERSION + 1)
    with pytest.raises(
        DocumentWriteError, match="could not be upgraded from format 1 .* the file is unchanged"
    ):
        EvaluationDocument.open(path)
    monkeypatch.undo()
    assert user_version(path) == 1
    assert "media_type" not in columns(path, "artefact")
    assert path.read_bytes() == before
    with EvaluationDocument.open(path) as doc:  # and the real upgrade still works afterwards
        assert len(doc.evaluation.bids) == 3


def test_verify_reads_an_old_format_without_upgrading_it(tmp_path):
    path = tmp_path / "v1.clusterbid"
    make_old_document(path, 1)
    assert verify_audit_chain(path).ok
    assert user_version(path) == 1
