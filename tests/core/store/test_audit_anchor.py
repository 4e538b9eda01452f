"""The memo anchors the document's audit chain: a rewritten chain, a forged row or a rollback of the
document passes `clusterbid audit` (the head lives in the same file) but fails `verify --evaluation`."""

from __future__ import annotations

import io
import shutil
import sqlite3

import pytest
from builders import make_bid
from pyhanko.pdf_utils.reader import PdfFileReader

from clusterbid.cli import main
from clusterbid.core.memo.anchor_check import anchor_problems, memo_anchor
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.inputs import parse_memo_inputs
from clusterbid.core.store import EvaluationDocument, verify_audit_chain
from clusterbid.core.store.anchor import AuditAnchor
from clusterbid.core.store.audit import row_hash
from clusterbid.core.store.console import recent_anchors
from clusterbid.core.store.schema import GUARD_TRIGGERS


def _last_row(path) -> tuple[int, str]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        conn.close()


def _memo(path, pdf_path) -> bytes:
    assert (
        main(
            [
                "memo",
                str(path),
                "-o",
                str(pdf_path),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "0",
            ]
        )
        == 0
    )
    return pdf_path.read_bytes()


@pytest.fixture
def edited(tmp_path, evaluation):
    """A document with a creation row and one ordinary edit, so there is history to rewrite."""
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, evaluation, user="ann") as doc:
        doc.add_bid(make_bid("bid-9"))
    return path


def test_the_memo_carries_the_head_it_was_made_from_and_the_export_row_names_it(edited, tmp_path):
    head_before_export = _last_row(edited)
    pdf = _memo(edited, tmp_path / "m.pdf")
    attached = parse_memo_inputs(
        read_attached_inputs(PdfFileReader(io.BytesIO(pdf), strict=False)).raw
    )
    assert attached["audit_anchor"] == {"seq": head_before_export[0], "hash": head_before_export[1]}
    assert memo_anchor(pdf) == AuditAnchor(*head_before_export)
    assert anchor_problems(pdf, edited) == []
    with EvaluationDocument.open(edited) as doc:
        rows = doc.audit_rows()
    assert rows[-1].action == "record_memo_exported" and rows[-1].seq == head_before_export[0] + 1
    listed = recent_anchors(rows)
    assert len(listed) == 1 and listed[0].startswith(
        f"m.pdf: anchored at row #{head_before_export[0]} "
    )


def _rewrite_first_row(path, who: str) -> None:
    """What an attacker with the file does: drop the guard, edit row 1, recompute every hash and the head."""
    conn = sqlite3.connect(path, isolation_level=None)
    triggers = dict(
        conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    )
    for name in GUARD_TRIGGERS:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE audit SET who = ? WHERE seq = 1", (who,))
    previous = "0" * 64
    for seq, at, who_, action, target, old, new in conn.execute(
        "SELECT seq, at, who, action, target, old_json, new_json FROM audit ORDER BY seq"
    ).fetchall():
        content = {
            "seq": seq,
            "at": at,
            "who": who_,
            "action": action,
            "target": target,
            "old_json": old,
            "new_json": new,
        }
        previous = row_hash(previous, content)
        conn.execute("UPDATE audit SET hash = ? WHERE seq = ?", (previous, seq))
        last = seq
    conn.execute("UPDATE meta SET value = ? WHERE key = 'audit_head'", (f"{last} {previous}",))
    for name in GUARD_TRIGGERS:
        conn.execute(triggers[name])
    conn.close()


def test_a_recomputed_chain_passes_the_audit_but_not_the_memo_anchor(edited, tmp_path):
    pdf = _memo(edited, tmp_path / "m.pdf")
    anchor = memo_anchor(pdf)
    _rewrite_first_row(edited, who="mallory")
    assert verify_audit_chain(edited).ok  # the document alone cannot show the rewrite
    problems = anchor_problems(pdf, edited)
    assert len(problems) == 1
    assert f"row #{anchor.seq} has hash" in problems[0] and "rewritten" in problems[0]


def test_a_rolled_back_document_fails_the_anchor(edited, tmp_path):
    older = tmp_path / "older.clusterbid"
    shutil.copyfile(edited, older)  # a copy from before the last edit
    with EvaluationDocument.open(edited) as doc:
        doc.add_bid(make_bid("bid-10"))
    pdf = _memo(edited, tmp_path / "m.pdf")
    shutil.copyfile(older, edited)  # the document is put back as it was
    assert verify_audit_chain(edited).ok
    problems = anchor_problems(pdf, edited)
    assert len(problems) == 1 and "has no row #3 (it ends at #2)" in problems[0]


def test_verify_against_the_document_fails_on_a_rewrite_and_says_why(edited, tmp_path, capsys):
    pdf_path = tmp_path / "m.pdf"
    _memo(edited, pdf_path)
    main(["verify", str(pdf_path), "--evaluation", str(edited)])
    assert "audit row" not in capsys.readouterr().out  # unsigned, but the anchor holds
    _rewrite_first_row(edited, who="mallory")
    assert main(["verify", str(pdf_path), "--evaluation", str(edited)]) == 1
    assert "the trail was rewritten since" in capsys.readouterr().out


def test_a_memo_made_from_json_cannot_be_tied_to_a_document(evaluation, edited, tmp_path):
    source = tmp_path / "e.json"
    source.write_text(evaluation.model_dump_json(), encoding="utf-8")
    pdf = _memo(source, tmp_path / "m.pdf")
    attached = parse_memo_inputs(
        read_attached_inputs(PdfFileReader(io.BytesIO(pdf), strict=False)).raw
    )
    assert "audit_anchor" not in attached  # a JSON evaluation has no history to anchor
    problems = anchor_problems(pdf, edited)
    assert len(problems) == 1 and "records no audit anchor" in problems[0]


@pytest.mark.parametrize(
    "value",
    [
        {"seq": 0, "hash": "a" * 64},
        {"seq": 2, "hash": "A" * 64},
        {"seq": "2", "hash": "a" * 64},
        [2, "a" * 64],
    ],
)
def test_a_malformed_anchor_is_refused(value):
    with pytest.raises(ValueError, match="malformed"):
        AuditAnchor.from_json(value)
