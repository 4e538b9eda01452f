"""Issue 31, item 7: the memo lists the value of the buyer's own plan figures beside the evidence
worth asking for, in the same words as `clusterbid score` (their figures are worked by hand in
tests/core/uncertainty/test_plan_value*.py), and verify's re-render prints them as made."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty.decision import decide
from clusterbid.core.uncertainty.plan_value import plan_value_lines

SAMPLES = 4096


@pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed"
)
def test_the_memo_says_which_of_the_buyers_own_figures_matters_most(tmp_path, capsys):
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    memo = tmp_path / "memo.pdf"
    assert (
        main(
            [
                "memo",
                str(document),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                str(SAMPLES),
            ]
        )
        == 0
    )
    capsys.readouterr()
    text = " ".join(
        subprocess.run(["pdftotext", str(memo), "-"], capture_output=True, check=True)
        .stdout.decode()
        .split()
    )
    evaluation = demo_evaluation()
    decided, _ = decide(evaluation, SAMPLES, evaluation.policy.random_seed)
    sentences = plan_value_lines(decided)
    assert (
        len(sentences) == 2
    )  # the demo states one further run; the cost of capital is the default
    for sentence in sentences:
        said = f"Your own plan's {sentence[:1].lower()}{sentence[1:]}."
        assert " ".join(said.split()) in text, said
    assert "Your own plan's further runs in reserved time: 1 now, moved across 0 to 2" in text
