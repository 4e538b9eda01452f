"""The memo's short evidence section: the measurements worth asking for (the same value of
information as the CLI prints) and each issued request's state, read from the document."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence_request.summary import asks
from clusterbid.core.uncertainty.value_of_information import value_of_information


@pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed"
)
def test_the_memo_lists_what_to_ask_for_and_the_refused_request(tmp_path, capsys):
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    assert (
        main(
            [
                "request-evidence",
                str(document),
                "--bid",
                "cumulus-roce",
                "-o",
                str(tmp_path / "pack"),
                "--samples",
                "20000",
            ]
        )
        == 0
    )
    pack = json.loads(next((tmp_path / "pack").glob("*.json")).read_text(encoding="utf-8"))
    refused = next(r["request_id"] for r in pack["requests"] if r["input"] == "baseline_mfu")
    assert (
        main(
            [
                "request-evidence",
                str(document),
                "--refused",
                refused,
                "--reason",
                "no slot before March",
            ]
        )
        == 0
    )
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
                "20000",
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
    assert "Evidence worth asking for, and requests made" in text
    evaluation = demo_evaluation()
    top = asks(evaluation, value_of_information(evaluation, 20000, evaluation.policy.random_seed))[
        0
    ]
    assert top.text in text
    assert (
        f"Request {refused} to Cumulus Compute" in text and "refused (no slot before March)" in text
    )
