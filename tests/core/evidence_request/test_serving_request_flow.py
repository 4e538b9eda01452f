"""A serving request issued from a document and answered there: `request-evidence` writes the
letter and JSON (the export training uses) and keeps the pack; a returned vLLM result named after
the request and attached with `serving-evidence attach` is matched to it; the state follows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from clusterbid.cli import main
from clusterbid.core.documents import read_evaluation
from clusterbid.core.evidence_request.model import RequestPack
from clusterbid.core.store import EvaluationDocument

sys.path.insert(0, str(Path(__file__).parents[1] / "serving"))
from test_serving_readers import VLLM_JSON  # noqa: E402  (a real vLLM result, shared)

EXAMPLES = Path(__file__).parents[3] / "resources" / "examples"
BID = "quarry-h100"


def _issue(tmp_path: Path) -> tuple[Path, RequestPack]:
    document = tmp_path / "serving.clusterbid"
    evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    EvaluationDocument.create(document, evaluation, user="test").close()
    args = ["request-evidence", str(document), "--bid", BID, "-o", str(tmp_path / "out")]
    args += ["--issued-on", "2026-11-26", "--deadline", "2026-12-10", "--user", "test"]
    assert main(args) == 0
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == [
        f"{BID}-evidence-request-2026-11-26.json",
        f"{BID}-evidence-request-2026-11-26.md",
    ]
    data = (tmp_path / "out" / written[0]).read_text(encoding="utf-8")
    return document, RequestPack.model_validate(json.loads(data))


def test_a_returned_benchmark_is_matched_to_its_request_and_its_state_shown(tmp_path, capsys):
    document, pack = _issue(tmp_path)
    (request,) = pack.requests
    capsys.readouterr()
    assert main(["request-evidence", str(document), "--status", "--today", "2026-11-27"]) == 0
    assert f"{request.request_id} {BID} (" in capsys.readouterr().out  # kept: open, nothing yet

    returned = tmp_path / request.runs[0].return_as  # "CBR-..._c1.json", as the letter asks
    returned.write_text(VLLM_JSON, encoding="utf-8")
    attach = ["serving-evidence", "attach", str(document), BID, str(returned), "--gpus", "2"]
    assert main([*attach, "--user", "test"]) == 0
    said = capsys.readouterr().out
    assert f"Request {request.request_id} (" in said and "partly answered" in said

    assert main(["request-evidence", str(document), "--status", "--today", "2026-11-27"]) == 0
    status = capsys.readouterr().out
    # One of the ladder's runs is on file: partly answered, the others still to come.
    runs = len(request.runs)
    assert "partly answered on 2026-" in status
    assert f"1 of {runs} runs on file; still to come: {request.runs[1].return_as}" in status


def test_a_file_naming_another_bids_request_does_not_answer_it(tmp_path, capsys):
    document, pack = _issue(tmp_path)
    returned = tmp_path / pack.requests[0].runs[0].return_as
    returned.write_text(VLLM_JSON, encoding="utf-8")
    capsys.readouterr()
    attach = ["serving-evidence", "attach", str(document), "helio-h200", str(returned)]
    assert main([*attach, "--gpus", "2", "--user", "test"]) == 0
    said = capsys.readouterr().out
    assert f"of bid {BID}, not helio-h200: it does not answer it" in said
