"""Audit and verify read a document as it lies on disk and never write it (issue 35, item 2):
a stray write-ahead log beside a document was merged into it by `clusterbid audit`, then deleted,
changing the file for good. Also: bytes flipped under the rows are a damaged file in words."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3

from clusterbid.cli import main
from clusterbid.core.store import EvaluationDocument


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stray_wal(tmp_path):
    """A -wal file holding a forged row, made on a copy in WAL mode and put beside the original."""
    document = tmp_path / "doc.clusterbid"
    assert main(["demo", str(document)]) == 0
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    copy = scratch / document.name
    shutil.copy(document, copy)
    conn = sqlite3.connect(copy, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("UPDATE meta SET value = 'forged' WHERE key = 'audit_head'")
    wal = copy.with_name(copy.name + "-wal")
    shutil.copy(wal, document.with_name(document.name + "-wal"))  # copied while the writer holds it
    conn.close()
    return document


def test_audit_leaves_a_stray_wal_and_the_document_untouched_and_says_so(tmp_path, capsys):
    document = _stray_wal(tmp_path)
    wal = document.with_name(document.name + "-wal")
    before, wal_before = _sha(document), _sha(wal)
    capsys.readouterr()
    code = main(["audit", str(document)])
    out = capsys.readouterr().out
    assert code == 0, out  # the file on disk is the demo as made: its chain holds
    assert _sha(document) == before and wal.exists() and _sha(wal) == wal_before
    assert f"Note: {wal.name} lies beside the document" in out and "left both untouched" in out


def test_verify_against_a_document_reads_it_without_writing(tmp_path):
    document = _stray_wal(tmp_path)
    before = _sha(document)
    with EvaluationDocument.open(document, read_only=True) as opened:
        assert len(opened.evaluation.bids) == 6
    assert _sha(document) == before and document.with_name(document.name + "-wal").exists()


def test_verify_names_a_stray_wal_and_leaves_both_files_as_they_were(tmp_path):
    from clusterbid.core.memo.signoff_trust import signoff_trust

    document = _stray_wal(tmp_path)
    wal = document.with_name(document.name + "-wal")
    before, wal_before = _sha(document), _sha(wal)
    trust = signoff_trust(
        b"%PDF-1.7\n%%EOF\n", [], evaluation=document
    )  # what verify --evaluation reads
    assert _sha(document) == before and _sha(wal) == wal_before
    assert any(
        f"{wal.name} lies beside {document.name}" in note and "without it" in note
        for note in trust.notes
    ), trust.notes


def test_a_header_value_that_is_not_utf8_is_a_damaged_file_in_words(tmp_path, capsys):
    document = tmp_path / "doc.clusterbid"
    assert main(["demo", str(document)]) == 0
    conn = sqlite3.connect(document, isolation_level=None)
    conn.execute(
        "UPDATE meta SET value = CAST(? AS TEXT) WHERE key = 'audit_head'", (b"1 \xd5\xff",)
    )
    conn.close()
    capsys.readouterr()
    code = main(["audit", str(document)])
    out = capsys.readouterr().out
    assert code == 1 and "the document is damaged and its trail cannot be read" in out


def test_a_schema_page_with_broken_text_is_a_damaged_file_for_score_and_audit(tmp_path, capsys):
    """The fuzzer's case: flipped bytes in the schema's SQL text made every open raise
    UnicodeDecodeError (exit 70). Now both verbs say the file is damaged (exit 2)."""
    document = tmp_path / "doc.clusterbid"
    assert main(["demo", str(document)]) == 0
    data = bytearray(document.read_bytes())
    at = data.index(b"CREATE TABLE") + len(b"CREATE ")
    data[at : at + 2] = b"\xd5\xff"  # not UTF-8; same length, so the page stays well-formed
    document.write_bytes(bytes(data))
    capsys.readouterr()
    for verb in ("score", "audit"):
        code = main([verb, str(document)])
        err = capsys.readouterr().err
        assert code == 2 and "is damaged or not a ClusterBid document" in err, (verb, err)


def test_opening_for_editing_refuses_a_stray_wal_and_leaves_both_files(tmp_path, capsys):
    """Merging is the user's decision: an editing open names the file and changes nothing."""
    document = _stray_wal(tmp_path)
    wal = document.with_name(document.name + "-wal")
    before, wal_before = _sha(document), _sha(wal)
    capsys.readouterr()
    assert main(["score", str(document), "--samples", "100"]) == 2
    assert f"has a write-ahead log beside it ({wal.name})" in capsys.readouterr().err
    assert _sha(document) == before and _sha(wal) == wal_before
    wal.rename(tmp_path / "set-aside.wal")  # the user's choice: open the document as it is
    with EvaluationDocument.open(document) as opened:
        assert opened.audit_report.ok
