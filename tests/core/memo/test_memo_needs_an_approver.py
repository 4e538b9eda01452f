"""A memo with no approver would have no signature field: export refuses it (issue 22)."""

from __future__ import annotations

import pytest

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.memo.render import render_memo
from clusterbid.core.scoring import score_evaluation


def test_cli_memo_without_approver_exits_2_saying_how_to_add_one(tmp_path, capsys):
    source = tmp_path / "demo.json"
    source.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    memo = tmp_path / "memo.pdf"
    assert main(["memo", str(source), "-o", str(memo), "--samples", "0"]) == 2
    err = capsys.readouterr().err
    assert "names no approver" in err and '--approver "Name, Role"' in err
    assert not memo.exists()


@pytest.mark.parametrize("approvers", [[], [("", "")], [("  ", "CFO")]])
def test_render_refuses_no_approver_or_an_empty_row(approvers):
    with pytest.raises(InputError, match="approver"):
        render_memo(score_evaluation(demo_evaluation()), approvers=approvers)


@pytest.mark.parametrize(
    "approvers", [[], [("Ada Lovelace", "")], [("Ada Lovelace", "CFO"), ("ada lovelace", "COO")]]
)
def test_the_export_refuses_before_any_memo_work_starts(tmp_path, monkeypatch, approvers):
    """The refusal came after the scoring, the Monte Carlo and the pages (1.5 s of a 1.5 s run):
    the approvers are checked first, so nothing is scored or drawn for a memo that cannot be made."""
    from clusterbid.core.memo import making
    from clusterbid.operations import memo_export
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    started = []
    monkeypatch.setattr(making, "make_memo", lambda *a, **k: started.append(1))
    choices = memo_export.MemoChoices(approvers, "", None, None, 0)
    with pytest.raises(InputError, match="approver"):
        memo_export.export_memo(
            memo_export.MemoSource(demo_evaluation()),
            choices,
            tmp_path / "memo.pdf",
            no_progress,
            NEVER_CANCELLED,
        )
    assert not started and not (tmp_path / "memo.pdf").exists()
