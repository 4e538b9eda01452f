"""Issue 39 item 5, before award: the training request's runs returned on the scale ladder are
fitted and carried to the job's size, shown in the request's status beside the step time the
evaluation scores the bid at."""

from __future__ import annotations

import json
import math

from tests.core.acceptance.test_results import HEADER

from clusterbid.cli import main
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.store import EvaluationDocument


def test_the_ladders_returned_rows_are_fitted_in_the_request_status(tmp_path, capsys):
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    args = ["--bid", "northwind-ib", "-o", str(tmp_path / "pack"), "--samples", "2000"]
    assert main(["request-evidence", str(document), *args]) == 0
    pack = json.loads(next((tmp_path / "pack").glob("*.json")).read_text(encoding="utf-8"))
    training = next(r for r in pack["requests"] if r["input"] == "baseline_mfu")
    name = training["runs"][0]["return_as"]
    returned = tmp_path / name
    # The 32- and 64-GPU rungs at the workload's layout (TP 8, PP 4, sequence 4,096).
    returned.write_text(
        HEADER + "llama-70b,70,bf16,4096,8,4,1,32,30000,,4194304,H100-SXM,provider,2026-11-20\n"
        "llama-70b,70,bf16,4096,8,4,2,64,57000,,4194304,H100-SXM,provider,2026-11-20\n",
        encoding="utf-8",
    )
    assert main(["evidence", "attach", str(document), "northwind-ib", str(returned)]) == 0
    capsys.readouterr()
    assert main(["request-evidence", str(document), "--status"]) == 0
    out = capsys.readouterr().out
    b = math.log2(57_000 / 30_000)  # two points fix the power law
    at_job = 57_000 * (512 / 64) ** b
    assert f"scaling fit over the runs on 32, 64 GPUs: throughput grows as N^{b:.3f}" in out
    assert f"predicts {at_job:,.0f} tokens/s, a step of {4_194_304 / at_job:.3f} s" in out
    with EvaluationDocument.open(document) as doc:  # the figure it is set beside, as scored now
        step = next(
            s.estimate.step_s for s in score_evaluation(doc.evaluation).scores
            if s.bid.id == "northwind-ib"
        )  # fmt: skip
    assert f"against {step:.3f} s scored (the step time the evaluation scores this bid at)" in out
