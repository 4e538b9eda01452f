"""A serving benchmark of another model carries its engine factor by the run's own model shape
(issue 37 item 6): KV cache bytes per token from layers x KV heads x head dim, weights from the
parameters, all-reduces from layers x hidden size (resources/catalog/models.toml).

Figures by hand from the models' published config.json files: Llama 3 8B has 32 layers and 8 KV
heads of 128, Llama 3 70B 80 layers and 8 KV heads of 128, Llama 2 7B 32 layers and 32 KV heads
(no grouped-query attention).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serving_builders import serving_bid_dict, serving_workload
from test_serving_readers import VLLM_JSON

from clusterbid.cli import main
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_evidence_shape import scalars_at_run
from clusterbid.core.costmodel.serving_inputs import ServingScalars
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.evidence.serving_models import find_model

LLAMA3_8B = dict(total_params_billions=8.03, num_layers=32, kv_heads=8, head_dim=128)


def test_kv_cache_per_token_follows_each_model_s_config() -> None:
    # 2 (K and V) x layers x KV heads x head dim x 2 bytes (BF16).
    assert find_model("Llama-3-8B").kv_bytes_per_token(2) == 2 * 32 * 8 * 128 * 2 == 131_072
    assert find_model("Llama-3-70B").kv_bytes_per_token(2) == 2 * 80 * 8 * 128 * 2 == 327_680
    # Llama 2 7B, about the size of Llama 3 8B, holds 4x its KV cache per token: size alone
    # cannot give it.
    assert find_model("Llama-2-7B").kv_bytes_per_token(2) == 524_288 == 4 * 131_072


def test_names_are_read_as_files_and_officers_write_them() -> None:
    for name in (
        "meta-llama/Meta-Llama-3.1-70B-Instruct",
        "neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8",
        "nvidia/Llama-3.3-70B-Instruct-FP8",
        "llama3-70b",
    ):
        assert find_model(name).id == "Llama-3.1-70B", name
    assert find_model("llama2-70b-99.9").id == "Llama-2-70B"  # MLPerf's benchmark name
    assert find_model("gpt-4") is None and find_model(None) is None


def _evidence(**fields) -> dict:
    return {
        "kind": "serving_decode_throughput",
        "scale_gpus": 1,
        "batch_size": 64,
        "unit": "tokens/s",
        "grade": "provider_claim",
        "gpu_model": "H200-SXM",
        "precision": "fp8",
        "kv_cache_precision": "bf16",
        "prompt_tokens": 200,
        "output_tokens": 200,
        **fields,
    }


def test_the_run_is_worked_out_with_its_own_model() -> None:
    w = ServingScalars.from_workload(serving_workload(**LLAMA3_8B))
    run = scalars_at_run(w, Evidence.model_validate(_evidence(value=1, model_name="Llama-3.1-70B")))
    assert run.kv_bytes_per_token == 327_680  # the 70B's, not the 8B service's 131,072
    assert run.weight_bytes == pytest.approx(70.6e9 * 1)  # FP8: one byte per parameter
    assert run.active_params == pytest.approx(70.6e9)
    assert (run.num_layers, run.hidden_size, run.kv_heads) == (80, 8192, 8)


def _solved_hbm(**fields) -> float:
    workload = serving_workload(**LLAMA3_8B)
    bid = Bid.model_validate(serving_bid_dict(gpu="H200-SXM", evidence=[_evidence(**fields)]))
    return estimate_serving(workload, [bid]).bids[0].hbm_efficiency


def test_an_engine_factor_measured_on_70b_carries_to_an_8b_service() -> None:
    # A Llama 3 70B FP8 run on one H200 (4.8 TB/s, 1,979 dense FP8 TFLOP/s) at 64 sequences of
    # 200 + 200 tokens, its engine at 0.8x the assumed 70% HBM and 50% compute efficiency:
    bandwidth, flops = 4.8e12 * 0.7 * 0.8, 1979e12 * 0.5 * 0.8
    weights_s = 70.6e9 / bandwidth  # 26.27 ms
    compute_s = 2 * 70.6e9 * 64 * (1 + 200 / 200) / flops  # 22.83 ms, hidden under the weights
    kv_s = 64 * 327_680 * (200 + 200 / 2) / bandwidth  # 2.34 ms at mean context 300
    step_s = max(weights_s, compute_s) + kv_s  # one GPU: no all-reduce
    tokens_per_s = 64 / step_s  # 2,237 tokens/s
    assert tokens_per_s == pytest.approx(2237.3, rel=1e-4)
    named = _solved_hbm(value=tokens_per_s, model_name="Llama-3.1-70B")
    assert named == pytest.approx(0.7 * 0.8, rel=1e-6)
    # Given by size alone, the run's KV cache is taken as the 8B service's (131,072 bytes per
    # token): the step's KV read is 0.94 ms instead of 2.34, so the engine reads as slower.
    k = (70.6e9 + 64 * 131_072 * 300) / (4.8e12 * 0.7) / step_s
    assert k == pytest.approx(0.7607, abs=1e-4)
    assert _solved_hbm(value=tokens_per_s, model_active_params_billions=70.6) == pytest.approx(
        0.7 * k, rel=1e-6
    )


def _parse(tmp_path: Path, data: dict, *extra: str) -> int:
    run = tmp_path / "vllm.json"
    run.write_text(json.dumps(data), encoding="utf-8")
    return main(["serving-evidence", "parse", str(run), "--gpus", "4", "--json", *extra])


def test_the_file_s_model_is_recorded_and_an_unknown_one_left_unstated(tmp_path, capsys) -> None:
    data = json.loads(VLLM_JSON)  # model_id neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8
    assert _parse(tmp_path, data) == 0
    evidence = json.loads(capsys.readouterr().out)
    assert evidence["model_name"] == "Llama-3.1-70B"
    assert evidence["model_active_params_billions"] == 70.6
    assert _parse(tmp_path, data | {"model_id": "acme/secret-model"}) == 0
    evidence = json.loads(capsys.readouterr().out)
    assert evidence["model_name"] is None and evidence["model_active_params_billions"] is None


def test_an_unknown_or_contradicted_model_is_refused_in_words(tmp_path, capsys) -> None:
    data = json.loads(VLLM_JSON)
    assert _parse(tmp_path, data, "--model", "gpt-4") == 2
    err = capsys.readouterr().err
    assert "the run's model 'gpt-4' is not in the model catalog" in err
    assert "Llama-3.1-8B" in err and "Traceback" not in err
    assert _parse(tmp_path, data, "--model-billions", "8") == 2
    err = capsys.readouterr().err
    assert "named Llama-3.1-70B (70.6 billion parameters)" in err and "8 billion" in err
    # The officer's name wins over the file's.
    assert _parse(tmp_path, data, "--model", "Llama-2-70B") == 0
    assert json.loads(capsys.readouterr().out)["model_name"] == "Llama-2-70B"


def test_a_model_the_catalog_lacks_is_said_in_the_bid_s_notes() -> None:
    # A document written by hand (or by a later catalog) may name a model this catalog lacks: the
    # run is then worked out as the service's model, and the notes say so instead of staying silent.
    workload = serving_workload(**LLAMA3_8B)
    evidence = _evidence(value=2000.0, model_name="Acme-13B")
    bid = Bid.model_validate(serving_bid_dict(gpu="H200-SXM", evidence=[evidence]))
    notes = " ".join(estimate_serving(workload, [bid]).bids[0].calibration_notes)
    assert "The run's model Acme-13B is not in the model catalog" in notes
    named = Bid.model_validate(
        serving_bid_dict(gpu="H200-SXM", evidence=[evidence | {"model_name": "Llama-3.1-70B"}])
    )
    assert "model catalog" not in " ".join(
        estimate_serving(workload, [named]).bids[0].calibration_notes
    )
