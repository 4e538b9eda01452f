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
    assert (
        main(
            [
                "memo",
                str(source),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "0",
            ]
        )
        == 0
    )  # anchored at #1, its export recorded as #2
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
    assert "intact as made; the evaluation changed since, at audit rows #3-#4" in first
    assert "not the one given" not in out and "Proven wrong" not in out
    assert all(
        f"bid {bid_id} is in the memo but not in the evaluation" in out for bid_id in last_two
    )


def test_another_evaluations_history_still_fails(tmp_path, capsys):
    _, memo = _memo(tmp_path, capsys)
    other = tmp_path / "other.clusterbid"
    EvaluationDocument.create(other, demo_evaluation()).close()
    with EvaluationDocument.open(other) as document:
        document.remove_bid(document.evaluation.bids[-1].id)
    assert main(["verify", str(memo), "--evaluation", str(other)]) != 0
    out = capsys.readouterr().out
    assert out.startswith("INVALID") and "not the one given" in out and "changed since" not in out


def test_a_signed_trusted_memo_stays_valid_after_the_evaluation_is_edited(
    tmp_path, capsys, monkeypatch
):
    from tests.core.memo_signing.pki import Authority

    source, memo = _memo(tmp_path, capsys)
    authority = Authority.create()
    p12 = authority.write_p12(tmp_path, "Ada Lovelace", "ada-passphrase")
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", "ada-passphrase")
    assert (
        main(["sign", str(memo), "--field", "1", "--p12", str(p12), "--evaluation", str(source)])
        == 0
    )
    with EvaluationDocument.open(source) as document:  # #3 records the signature: no edit
        assert document.audit_rows()[-1].action == "record_signature"
        document.remove_bid(document.evaluation.bids[-1].id)  # #4, the one edit
    capsys.readouterr()
    ca = authority.write_pem(tmp_path / "ca.pem")
    assert main(["verify", str(memo), "--evaluation", str(source), "--trust", str(ca)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("VALID")
    assert (
        "intact and signed as made; the evaluation changed since, at audit row #4 (1 change(s)"
        in first
    )
