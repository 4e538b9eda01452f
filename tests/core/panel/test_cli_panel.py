"""`clusterbid panel` from the command line: the verbs run the operations and say what they did;
a refused copy or judgement exits 2 with the reason, never a traceback."""

from __future__ import annotations

from clusterbid.cli import main
from clusterbid.core.comparison_table import KeptTableDocument
from clusterbid.core.demo import demo_evaluation


def test_invite_judge_merge_status_and_consensus(tmp_path, capsys):
    lead = tmp_path / "lead.clusterbid"
    KeptTableDocument.create(lead, demo_evaluation()).close()
    assert (
        main(
            [
                "panel",
                "invite",
                str(lead),
                "--evaluator",
                "Ana Ruiz, Technical lead",
                "--evaluator",
                "Ben Okafor, Commercial",
                "-o",
                str(tmp_path / "out"),
                "--criterion",
                "Technical approach",
                "--weight-range",
                "Net plan cost=40-80",
            ]
        )
        == 0
    )
    assert "panel-ana-ruiz.clusterbid" in capsys.readouterr().out
    ana, ben = (
        tmp_path / "out" / "panel-ana-ruiz.clusterbid",
        tmp_path / "out" / "panel-ben-okafor.clusterbid",
    )
    assert main(["panel", "judge", str(ana), "--weight", "Net plan cost=90"]) == 2
    assert "outside the range the lead allowed (40-80)" in capsys.readouterr().err
    assert (
        main(
            [
                "panel",
                "judge",
                str(ana),
                "--weight",
                "Net plan cost=40",
                "--question",
                "prime-efa: Is the EFA fabric shared with other tenants?",
            ]
        )
        == 0
    )
    assert main(["panel", "judge", str(ben), "--weight", "Net plan cost=80"]) == 0
    capsys.readouterr()
    assert main(["panel", "merge", str(lead), str(ana), str(ben)]) == 0
    assert "Ben Okafor's judgement merged" in capsys.readouterr().out
    assert main(["panel", "merge", str(lead), str(ana)]) == 0
    assert "already merged (nothing written)" in capsys.readouterr().out
    assert (
        main(
            [
                "panel",
                "consensus",
                str(lead),
                "--criterion",
                "net plan cost",
                "--median",
                "--rationale",
                "Split the difference",
                "--dissent",
                "Ben Okafor: cost is what we buy",
                "--samples",
                "300",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["panel", "status", str(lead), "--samples", "300"]) == 0
    out = capsys.readouterr().out
    assert "Ben Okafor dissents on the weight of Net plan cost: cost is what we buy" in out
    assert "Questions on Hyperscale Prime, H100-SXM:\n  Ana Ruiz: Is the EFA fabric shared" in out
    assert main(["audit", str(lead)]) == 0
    trail = capsys.readouterr().out
    assert "panel_consensus weight of Net plan cost\n" in trail  # the row's target, in words
    # Ana 40 of 40+8+5+5+3+4+5 = 57.14%, Ben 80 of 110 = 72.73%; the median of two is their mean.
    assert (
        "consensus on the weight of Net plan cost, 64.9% of the total (the median accepted); 1 "
        "dissent" in trail
    )
    # Every policy weight is judged, the third-party provider rating's (issue 39) among them: 9.
    assert "merged Ana Ruiz's judgement (9 weights, 0 scores, 0 notes, 1 questions)" in trail
    assert main(["panel", "merge", str(lead), str(lead)]) == 2
    assert (
        "lead.clusterbid was not merged: it is not an evaluator's copy" in capsys.readouterr().err
    )
