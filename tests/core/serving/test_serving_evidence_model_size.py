"""A serving benchmark of another model than the service (issue 37, item 6): `--model-billions`.

Found by tests/validation/serving_through_product.py: Lambda's 70B vLLM run attached to an 8B
service was read as the 8B model running 9x slower (0.11x of the 8B row's published figure); with
the run's model stated, 0.82x.
"""

from __future__ import annotations

import json
from pathlib import Path

from test_serving_readers import VLLM_JSON

from clusterbid.cli import main
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument

# The run without its model_id: a size alone describes the model (a name is read from the file,
# test_serving_run_model.py).
UNNAMED_JSON = json.dumps({k: v for k, v in json.loads(VLLM_JSON).items() if k != "model_id"})
DEMO = (
    Path(__file__).resolve().parents[3] / "resources" / "examples" / "demo-serving-evaluation.json"
)


def _attached(tmp_path: Path, name: str, *extra: str) -> Evaluation:
    path = tmp_path / f"{name}.clusterbid"
    evaluation = Evaluation.model_validate(json.loads(DEMO.read_text(encoding="utf-8")))
    EvaluationDocument.create(path, evaluation, user="test").close()
    run = tmp_path / "vllm.json"
    run.write_text(UNNAMED_JSON, encoding="utf-8")
    args = ["serving-evidence", "attach", str(path), "quarry-h100", str(run), "--gpus", "4"]
    assert main([*args, *extra, "--user", "test"]) == 0
    with EvaluationDocument.open(path, user="test") as document:
        return document.evaluation


def test_the_run_s_model_size_is_kept_and_moves_the_engine_factor(tmp_path: Path) -> None:
    unstated = _attached(tmp_path, "unstated")
    small = _attached(tmp_path, "small", "--model-billions", "8")
    evidence = [b for b in small.bids if b.id == "quarry-h100"][0].evidence[-1]
    assert evidence.model_active_params_billions == 8

    # The same tokens/s from a model of 8B instead of the service's 70.6B reads 8.8x fewer weight
    # bytes per step, so the engine needed less of the GPU's bandwidth to reach it: a lower
    # efficiency than when the run is taken as the 70.6B service itself.
    def hbm(e: Evaluation) -> float:
        estimates = estimate_serving(e.workload, e.bids).bids  # type: ignore[arg-type]
        return next(x.hbm_efficiency for x, b in zip(estimates, e.bids) if b.id == "quarry-h100")

    assert hbm(small) < hbm(unstated)


def test_a_size_outside_the_field_is_refused_naming_it(tmp_path: Path, capsys) -> None:
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    for bad in ("0", "nan", "1e9"):
        args = ["serving-evidence", "parse", str(run), "--gpus", "4", "--model-billions", bad]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "model size" in err and "Traceback" not in err
