"""The approver registry is audit rows: replayed to any row, checked as it is read, and part of
the hash chain (issue 30, item 4). The memo-level checks are in tests/core/memo_signing."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3

import pytest

from clusterbid.cli import main
from clusterbid.core.store import CorruptDocumentError, EditRejectedError, EvaluationDocument, audit
from clusterbid.core.store.approvers import ApproverKey

ADA_CERT, ADA_KEY, GRACE_KEY = "a" * 64, "b" * 64, "c" * 64


def test_the_registry_replays_to_the_row_asked_for(document):
    document.add_approver(
        "Ada Lovelace",
        "CFO",
        "ada@example.org",
        [ApproverKey(ADA_CERT, ADA_KEY)],
        dt.date(2026, 2, 1),
    )
    document.add_approver(
        "Grace Hopper", "CTO", "", [ApproverKey("", GRACE_KEY)], dt.date(2026, 3, 1)
    )
    document.retire_approver("ada  LOVELACE, cfo", dt.date(2026, 12, 31))
    rows = document.audit_rows()
    assert [r.action for r in rows] == ["create", "approver_add", "approver_add", "approver_retire"]
    assert list(document.approver_registry(1)) == []
    assert list(document.approver_registry(2)) == ["ada lovelace|cfo"]
    assert document.approver_registry(3)["ada lovelace|cfo"].retired is None
    ada = document.approver_registry()["ada lovelace|cfo"]
    assert (ada.retired_on, ada.retired.seq, ada.valid_from) == ("2026-12-31", 4, "2026-02-01")
    assert ada.holds({ADA_KEY}) and not ada.holds({GRACE_KEY})
    assert document.audit_now().ok


def test_a_key_without_a_sha256_an_entry_without_a_key_or_a_comma_in_a_name_is_refused(document):
    with pytest.raises(ValueError, match="needs a SHA-256"):
        ApproverKey.from_json({"certificate_sha256": "not hex", "public_key_sha256": ""})
    with pytest.raises(EditRejectedError, match="give the approver's certificate"):
        document.add_approver("Ada Lovelace", "CFO", "", [], dt.date(2026, 2, 1))
    with pytest.raises(
        EditRejectedError,
        match="the approver's name must be text of 1-200 characters without a comma",
    ):
        document.add_approver(
            "Lovelace, Ada", "CFO", "", [ApproverKey(ADA_CERT, "")], dt.date(2026, 2, 1)
        )
    assert [r.action for r in document.audit_rows()] == ["create"]


def test_a_registry_row_written_outside_clusterbid_is_a_corrupt_document_not_a_crash(
    doc_path, document, capsys
):
    document.close()
    conn = sqlite3.connect(doc_path, isolation_level=None)
    conn.execute("BEGIN")
    # A chained row (the audit passes: records are not replayed) whose payload has no keys.
    audit.append(
        conn,
        audit.read_head(conn),
        who="mallory",
        action=audit.APPROVER_ADD,
        target="Mallory, CFO",
        old_json=None,
        new_json=json.dumps({"name": "Mallory", "role": "CFO"}),
    )
    conn.execute("COMMIT")
    conn.close()
    with (
        EvaluationDocument.open(doc_path) as opened,
        pytest.raises(
            CorruptDocumentError, match=r"registry row #2 \(approver_add\) cannot be read"
        ),
    ):
        opened.approver_registry()
    assert main(["approvers", str(doc_path), "--list"]) == 2
    assert "holds an approver registry that cannot be read" in capsys.readouterr().err
