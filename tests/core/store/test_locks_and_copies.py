"""A locked document or a recovery journal in a read-only folder is reported as what it is, and
`clusterbid copy` makes a whole copy even of a file a crash left mid-transaction."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from builders import make_bid, make_evaluation

from clusterbid.cli import main
from clusterbid.core.store import (
    EvaluationDocument,
    LockedDocumentError,
    fileformat,
    verify_audit_chain,
)


def test_a_locked_document_says_it_is_locked_not_damaged(tmp_path, monkeypatch, capsys):
    path = tmp_path / "e.clusterbid"
    EvaluationDocument.create(path, make_evaluation(2)).close()
    monkeypatch.setattr(fileformat, "BUSY_TIMEOUT_S", 0.05)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program in the middle of writing
    try:
        with pytest.raises(LockedDocumentError, match="is locked by another program"):
            EvaluationDocument.open(path)
        assert main(["score", str(path)]) == 2
        assert "damaged" not in capsys.readouterr().err
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_read_only_journal_is_named_as_such():
    error = fileformat.describe_open_error(
        fileformat.Path("x.clusterbid"),
        sqlite3.OperationalError("attempt to write a readonly database"),
    )
    assert "x.clusterbid-journal" in str(error) and "folder is read-only" in str(error)


def test_copy_right_after_a_crash_is_whole(tmp_path, capsys):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(2)) as doc:
        doc.add_bid(make_bid("kept"))
        committed = doc.evaluation
    # A crash mid-transaction: an uncommitted change in the file and its hot journal beside it.
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute(
        "PRAGMA cache_size = 1"
    )  # a one-page cache spills the change into the file itself
    writer.execute("BEGIN")
    writer.execute("DELETE FROM bid")
    writer.execute(
        "INSERT INTO artefact (name, sha256, size, content) VALUES ('x', 'y', 1, zeroblob(200000))"
    )
    shutil.copy(path, crashed / "e.clusterbid")
    shutil.copy(path.with_name(path.name + "-journal"), crashed / "e.clusterbid-journal")
    conn = sqlite3.connect(f"file:{crashed / 'e.clusterbid'}?immutable=1", uri=True)
    assert (
        conn.execute("SELECT count(*) FROM bid").fetchone()[0] == 0
    )  # the file alone is mid-change
    conn.close()
    writer.execute("ROLLBACK")
    writer.close()
    assert main(["copy", str(crashed / "e.clusterbid"), str(tmp_path / "copy.clusterbid")]) == 0
    with EvaluationDocument.open(tmp_path / "copy.clusterbid") as copy:
        assert copy.evaluation == committed
    assert verify_audit_chain(tmp_path / "copy.clusterbid").ok
    assert not (tmp_path / "copy.clusterbid-journal").exists()
