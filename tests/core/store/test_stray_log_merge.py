"""Issue 35 item 2: a stray write-ahead log is merged only when the officer confirms, never
blindly: both files are copied aside first, a merge whose result fails the open's checks puts
both back byte for byte, and a log that cannot belong to the document is refused untouched."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3

import pytest

from clusterbid.cli import main
from clusterbid.core.store import EvaluationDocument
from clusterbid.core.store.errors import DocumentError
from clusterbid.core.store.stray_log import KEPT_SUFFIX, merge_stray_log


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _in_wal_mode(tmp_path, statement: str):
    """The demo document in WAL mode with `statement` left in its log, as a crashed SQLite tool
    leaves them: file and log copied while the writer still holds them."""
    document = tmp_path / "doc.clusterbid"
    assert main(["demo", str(document)]) == 0
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    copy = scratch / document.name
    shutil.copy(document, copy)
    conn = sqlite3.connect(copy, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute(statement)
    shutil.copy(copy, document)
    shutil.copy(copy.with_name(copy.name + "-wal"), document.with_name(document.name + "-wal"))
    conn.close()
    return document, document.with_name(document.name + "-wal")


def test_a_log_that_forges_the_audit_head_is_not_kept_and_both_files_are_put_back(tmp_path):
    document, wal = _in_wal_mode(tmp_path, "UPDATE meta SET value = 'x' WHERE key = 'audit_head'")
    before = (_sha(document), _sha(wal))
    with pytest.raises(DocumentError, match="were not kept.*as they were"):
        merge_stray_log(document)
    assert (_sha(document), _sha(wal)) == before
    assert not list(tmp_path.glob(f"*{KEPT_SUFFIX}"))  # no copies left once restored


def test_a_log_that_changes_nothing_the_chain_holds_is_merged_and_both_copies_kept(tmp_path):
    document, wal = _in_wal_mode(tmp_path, "UPDATE meta SET value = value")
    kept = merge_stray_log(document)
    assert not wal.exists() and all(p.exists() for p in kept)
    with document.open("rb") as file:
        assert file.read(20)[18] == 1  # back in rollback-journal mode, as ClusterBid keeps it
    EvaluationDocument.open(document).close()  # and every verb opens it again


def test_a_log_beside_a_document_not_in_wal_mode_is_refused_untouched(tmp_path):
    document = tmp_path / "doc.clusterbid"
    assert main(["demo", str(document)]) == 0
    wal = document.with_name(document.name + "-wal")
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(28))
    before = (_sha(document), _sha(wal))
    with pytest.raises(DocumentError, match="cannot belong to it"):
        merge_stray_log(document)
    assert (_sha(document), _sha(wal)) == before
