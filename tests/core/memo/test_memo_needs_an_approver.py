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
