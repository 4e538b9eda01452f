"""`clusterbid memo`: writes the PDF, records the export in a .clusterbid audit trail, refuses bad input."""

from __future__ import annotations

import hashlib
import json

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.store import EvaluationDocument


def test_memo_from_a_document_is_recorded_in_its_audit_trail(tmp_path, capsys):
    source = tmp_path / "round.clusterbid"
    EvaluationDocument.create(source, demo_evaluation()).close()
    memo = tmp_path / "memo.pdf"
    code = main(
        ["memo", str(source), "-o", str(memo), "--approver", "Ada Lovelace, CFO", "--samples", "0"]
    )
    assert code == 0, capsys.readouterr().err
    with EvaluationDocument.open(source) as document:
        created, last = document.audit_rows()
    assert last.action == "record_memo_exported"
    assert json.loads(last.new_json) == {
        "file_name": "memo.pdf",
        "sha256": hashlib.sha256(memo.read_bytes()).hexdigest(),
        "anchor": {"seq": 1, "hash": created.hash},
    }


def test_override_without_justification_exits_2_with_the_reason(tmp_path, capsys):
    source = tmp_path / "demo.json"
    source.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    memo = tmp_path / "memo.pdf"
    code = main(
        ["memo", str(source), "-o", str(memo), "--override", "prime-efa", "--samples", "0"]
        + ["--approver", "Ada Lovelace, CFO"]  # (without one, that refusal comes first)
    )
    assert code == 2
    assert "needs a written justification" in capsys.readouterr().err
    assert not memo.exists()


def test_an_approver_without_a_role_exits_2(tmp_path, capsys):
    source = tmp_path / "demo.json"
    source.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    code = main(["memo", str(source), "-o", str(tmp_path / "m.pdf"), "--approver", "Ada Lovelace"])
    assert code == 2
    assert '"Name, Role"' in capsys.readouterr().err


def test_a_decision_date_that_is_not_a_date_exits_2_naming_the_option(tmp_path, capsys):
    source = tmp_path / "demo.json"
    source.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    memo = tmp_path / "m.pdf"
    code = main(
        ["memo", str(source), "-o", str(memo), "--samples", "0", "--decision-date", "1 Dec 2026"]
    )
    assert code == 2
    assert (
        "--decision-date '1 Dec 2026': give the approval meeting's date as YYYY-MM-DD"
        in capsys.readouterr().err
    )
    assert not memo.exists()
