"""`clusterbid verify --evaluation DOC.clusterbid` after the evaluation was edited: the memo is
still the decision as signed, and the report names the edit rows after the memo's anchor; an
evaluation whose history does not hold the memo's row still fails (issue 38, item 2)."""

from __future__ import annotations

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.store import EvaluationDocument


def _memo(tmp_path, capsys):
    source, memo = tmp_path / "round.clusterbid", tmp_path / "memo.pdf"
    EvaluationDocument.create(source, demo_evaluation()).close()  # one row: #1, create
    assert main(["memo", str(source), "-o", str(memo), "--approver", "Ada Lovelace, CFO",
                 "--samples", "0"]) == 0  # anchored at #1, its export recorded as #2
    capsys.readouterr()
    return source, memo


def test_edits_after_the_memo_are_named_not_called_an_alteration(tmp_path, capsys):
    source, memo = _memo(tmp_path, capsys)
    with EvaluationDocument.open(source) as document:
        last_two = [bid.id for bid in document.evaluation.bids[-2:]]
        for bid_id in last_two:  # rows #3 and #4
            document.remove_bid(bid_id)
    main(["verify", str(memo), "--evaluation", str(source)])
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("INDETERMINATE")  # unsigned, so not proven; never INVALID
    assert "intact and signed as made; the evaluation changed since, at audit rows #3-#4" in first
    assert "not the one given" not in out and "Proven wrong" not in out
    assert all(f"bid {bid_id} is in the memo but not in the evaluation" in out for bid_id in last_two)


def test_another_evaluations_history_still_fails(tmp_path, capsys):
    _, memo = _memo(tmp_path, capsys)
    other = tmp_path / "other.clusterbid"
    EvaluationDocument.create(other, demo_evaluation()).close()
    with EvaluationDocument.open(other) as document:
        document.remove_bid(document.evaluation.bids[-1].id)
    assert main(["verify", str(memo), "--evaluation", str(other)]) != 0
    out = capsys.readouterr().out
    assert out.startswith("INVALID") and "not the one given" in out and "changed since" not in out
