"""`clusterbid serving-evidence parse/attach` on a vLLM result, and refusals that change nothing."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from test_serving_readers import VLLM_JSON

from clusterbid.cli import main
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument, verify_audit_chain

DEMO = (
    Path(__file__).resolve().parents[3] / "resources" / "examples" / "demo-serving-evaluation.json"
)


def _document(tmp_path: Path) -> Path:
    path = tmp_path / "serving.clusterbid"
    evaluation = Evaluation.model_validate(json.loads(DEMO.read_text(encoding="utf-8")))
    EvaluationDocument.create(path, evaluation, user="test").close()
    return path


def test_parse_prints_the_evidence_and_exits_2_on_a_bad_file(tmp_path: Path, capsys) -> None:
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    assert main(["serving-evidence", "parse", str(run), "--gpus", "4", "--json"]) == 0
    evidence = json.loads(capsys.readouterr().out)
    assert (evidence["batch_size"], evidence["scale_gpus"], evidence["grade"]) == (
        256,
        4,
        "measured_provider",
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"output_throughput": "fast"}', encoding="utf-8")
    assert main(["serving-evidence", "parse", str(bad), "--gpus", "4"]) == 2
    assert "bad.json" in capsys.readouterr().err


def test_attach_stores_the_file_and_the_evidence_in_one_step(tmp_path: Path, capsys) -> None:
    path = _document(tmp_path)
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    args = [
        "serving-evidence",
        "attach",
        str(path),
        "quarry-h100",
        str(run),
        "--gpus",
        "4",
        "--measured-by",
        "buyer",
    ]
    assert main([*args, "--user", "test"]) == 0
    out = capsys.readouterr().out
    # The run's 205/197-token requests and 76 ms per token differ from the 1,000/600 service at 30 ms.
    assert out.count("Note:") == 3
    with EvaluationDocument.open(path) as document:
        (item,) = next(b for b in document.evaluation.bids if b.id == "quarry-h100").evidence
        assert item.artefact_sha256 == hashlib.sha256(run.read_bytes()).hexdigest()
        assert item.grade.value == "measured_independent"
    assert verify_audit_chain(path).ok
    # A bid that does not exist: refused, the document unchanged.
    assert main(["serving-evidence", "attach", str(path), "nobody", str(run), "--gpus", "4"]) == 2
