"""Files from elsewhere: anything that is not a genuine, current, intact document is refused with a message."""

from __future__ import annotations

import os
import sqlite3

import pytest
from builders import make_bid, make_evaluation
from tests.refusal_cost import refusal_cost

from clusterbid.core.errors import InputError
from clusterbid.core.store import (
    CorruptDocumentError,
    DocumentError,
    EvaluationDocument,
    NewerDocumentError,
    NotADocumentError,
    UnsafeDocumentError,
    verify_audit_chain,
)

OPEN_SETUP = "from clusterbid.core.store import EvaluationDocument"


@pytest.fixture
def genuine(tmp_path):
    path = tmp_path / "genuine.clusterbid"
    with EvaluationDocument.create(path, make_evaluation(2), user="alice") as doc:
        for i in range(40):  # enough pages that a truncation cuts real data
            doc.add_bid(make_bid(f"extra-{i}"))
        doc.attach_artefact("big.log", os.urandom(200_000))
    return path


def tamper(path, *statements):
    conn = sqlite3.connect(path, isolation_level=None)
    for sql in statements:
        conn.execute(sql)
    conn.close()


def refused(path, error_type, message):
    with pytest.raises(error_type, match=message) as caught:
        EvaluationDocument.open(path)
    assert isinstance(caught.value, InputError) and str(caught.value).startswith(f"{path.name}: ")
    # The same open again in a child of its own, for its CPU (refusal_cost says why not here).
    cost = refusal_cost(OPEN_SETUP, "EvaluationDocument.open(ARGS[0])", str(path))
    assert cost.refused_with(error_type) and cost.message == str(caught.value)
    assert cost.cpu_seconds < 2, "refusing a hostile file must not spin"
    return caught.value


@pytest.mark.parametrize("size", [0, 10, 100, 4096, 1_000_000])
def test_random_bytes_with_the_right_extension(tmp_path, size):
    path = tmp_path / "random.clusterbid"
    path.write_bytes(os.urandom(size))
    refused(path, NotADocumentError, "not an SQLite database")


def test_sqlite_magic_followed_by_garbage(tmp_path):
    path = tmp_path / "garbage.clusterbid"
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
    refused(path, CorruptDocumentError, "could not be read \\(file is not a database\\)")


@pytest.mark.parametrize("fraction", [0.9, 0.5, 0.2, 0.01])
def test_truncated_document(genuine, fraction):
    data = genuine.read_bytes()
    genuine.write_bytes(data[: int(len(data) * fraction)])
    refused(
        genuine, CorruptDocumentError, "damaged .*could not be read|failed SQLite's integrity check"
    )


def test_document_from_a_newer_version(genuine):
    tamper(genuine, "PRAGMA user_version = 99")
    error = refused(genuine, NewerDocumentError, "made by a newer ClusterBid")
    assert "update the app" in str(error) and "format 99" in str(error)


def test_sqlite_file_of_another_application(tmp_path):
    path = tmp_path / "other.clusterbid"
    tamper(path, "CREATE TABLE contacts (name TEXT)", "PRAGMA application_id = 305419896")
    refused(path, NotADocumentError, "another program \\(application_id 0x12345678")
    plain = tmp_path / "plain.clusterbid"
    tamper(plain, "CREATE TABLE t (x)")
    refused(plain, NotADocumentError, "application_id 0x00000000")


def test_document_with_a_malicious_trigger_is_refused_before_it_can_fire(genuine):
    tamper(genuine, "CREATE TRIGGER wipe AFTER INSERT ON bid BEGIN DELETE FROM artefact; END")
    refused(genuine, UnsafeDocumentError, "unknown trigger 'wipe'")
    with pytest.raises(UnsafeDocumentError):
        verify_audit_chain(genuine)
    conn = sqlite3.connect(genuine)
    assert conn.execute("SELECT count(*) FROM artefact").fetchone() == (1,)
    conn.close()


def test_document_with_our_trigger_replaced_is_refused(genuine):
    tamper(
        genuine,
        "DROP TRIGGER audit_append_only_update",
        "CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit BEGIN SELECT 1; END",
    )
    refused(genuine, UnsafeDocumentError, "altered trigger 'audit_append_only_update'")


def test_document_with_the_guard_removed_is_refused(genuine):
    tamper(genuine, "DROP TRIGGER audit_append_only_delete")
    refused(
        genuine, UnsafeDocumentError, "audit-trail guard removed \\(audit_append_only_delete\\)"
    )


def test_document_with_a_view_is_refused(genuine):
    tamper(genuine, "CREATE VIEW bid_summary AS SELECT bid_id FROM bid")
    refused(genuine, UnsafeDocumentError, "unknown view 'bid_summary'")


def test_document_with_an_extra_table_is_refused(genuine):
    tamper(genuine, "CREATE TABLE stash (x)")
    refused(genuine, UnsafeDocumentError, "unknown table 'stash'")


def test_document_with_a_missing_table_is_refused(genuine):
    tamper(genuine, "DROP TABLE artefact")
    refused(genuine, CorruptDocumentError, "missing part of its schema \\(artefact")


def test_document_whose_data_no_longer_validates(genuine):
    tamper(genuine, 'UPDATE bid SET bid_json = \'{"id": "x"}\' WHERE position = 1')
    refused(genuine, CorruptDocumentError, "does not validate")


def test_document_never_finished_being_created(tmp_path):
    path = tmp_path / "half.clusterbid"
    tamper(path, "PRAGMA application_id = 1128417604")
    refused(path, CorruptDocumentError, "never completely created")


def test_missing_file_and_folder(tmp_path):
    refused(tmp_path / "absent.clusterbid", DocumentError, "no such file")
    folder = tmp_path / "folder.clusterbid"
    folder.mkdir()
    refused(folder, NotADocumentError, "is a folder, not a file")


def test_document_with_a_damaged_page_in_the_middle(genuine):
    data = bytearray(genuine.read_bytes())
    page = 4096
    data[3 * page : 4 * page] = os.urandom(page)
    genuine.write_bytes(bytes(data))
    refused(
        genuine, CorruptDocumentError, "damaged .*could not be read|failed SQLite's integrity check"
    )


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE bid SET bid_json = CAST(bid_json AS BLOB) WHERE position = 2",
        "UPDATE evaluation SET header_json = CAST(header_json AS BLOB)",
        "UPDATE bid SET bid_json = X'7B7D' WHERE position = 1",  # '{}' as two raw bytes
    ],
)
def test_document_whose_stored_text_became_another_type(genuine, statement):
    # One flipped bit in a record header turns a text column into a blob (found by the fuzz test
    # of flipped bytes): SQLite hands it back as bytes, which must be refused, never crash on.
    tamper(genuine, statement)
    refused(
        genuine, CorruptDocumentError, "row is not text; the file was altered outside ClusterBid"
    )
