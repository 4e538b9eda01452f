"""Bad input gets a message naming the field and the rule; the CLI exits non-zero, no traceback."""

from __future__ import annotations

import json

import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.cli import main


def _score(tmp_path, document, capsys) -> tuple[int, str]:
    path = tmp_path / "evaluation.json"
    path.write_text(
        document if isinstance(document, str) else json.dumps(document), encoding="utf-8"
    )
    code = main(["score", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.err


CASES = [
    (
        "negative price",
        evaluation_dict([bid_dict(terms={"price_per_gpu_hour": "-3"})]),
        ["bids[0].terms.price_per_gpu_hour", "greater than 0"],
    ),
    (
        "zero GPUs",
        evaluation_dict([bid_dict(capacity={"gpus_offered": 0})]),
        ["bids[0].capacity.gpus_offered", "greater than or equal to 1"],
    ),
    (
        "block above offered",
        evaluation_dict([bid_dict(capacity={"largest_contiguous_block_gpus": 1024})]),
        [
            "bids[0].capacity",
            "largest_contiguous_block_gpus (1024) cannot exceed gpus_offered (512)",
        ],
    ),
    (
        "unknown GPU",
        evaluation_dict([bid_dict(capacity={"gpu_model": "H900"})]),
        ["bids[0].capacity.gpu_model", "unknown GPU model 'H900'", "H100-SXM"],
    ),
    (
        "unknown fabric",
        evaluation_dict([bid_dict(fabric={"technology": "Carrier pigeon"})]),
        ["bids[0].fabric.technology", "unknown fabric"],
    ),
    (
        "DP does not divide",
        evaluation_dict(workload=workload_dict(job_gpus=500)),
        ["workload", "job_gpus (500) must be a multiple of TP x PP x CP", "= 32"],
    ),
    (
        "batch does not divide",
        evaluation_dict(workload=workload_dict(global_batch_tokens=1000 * 4096)),
        ["workload", "global batch (1000 sequences)"],
    ),
    (
        "duplicate ids",
        evaluation_dict([bid_dict("same"), bid_dict("same")]),
        ["bid id 'same' is used twice"],
    ),
    (
        "currency without rate",
        evaluation_dict([bid_dict(terms={"price_per_gpu_hour": "2", "currency": "EUR"})]),
        ["priced in EUR", "policy.exchange_rates.EUR"],
    ),
    (
        "unknown field",
        evaluation_dict([bid_dict(capacity={"gpus_offerd": 5})]),
        ["bids[0].capacity.gpus_offerd", "Extra inputs are not permitted"],
    ),
    (
        "missing field",
        evaluation_dict(workload={k: v for k, v in workload_dict().items() if k != "job_gpus"}),
        ["workload.job_gpus", "Field required"],
    ),
]


@pytest.mark.parametrize("name, document, expected", CASES, ids=[c[0] for c in CASES])
def test_cli_names_field_and_rule(tmp_path, capsys, name, document, expected):
    code, err = _score(tmp_path, document, capsys)
    assert code == 2
    for fragment in expected:
        assert fragment in err, (fragment, err)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(tmp_path, capsys, token):
    text = json.dumps(evaluation_dict(workload=workload_dict(baseline_mfu=0.4)))
    text = text.replace('"baseline_mfu": 0.4', f'"baseline_mfu": {token}')
    code, err = _score(tmp_path, text, capsys)
    assert code == 2
    assert "workload.baseline_mfu" in err and "finite number" in err


def test_nan_price_string_is_refused(tmp_path, capsys):
    code, err = _score(
        tmp_path, evaluation_dict([bid_dict(terms={"price_per_gpu_hour": "NaN"})]), capsys
    )
    assert code == 2 and "bids[0].terms.price_per_gpu_hour" in err


def test_malformed_json_names_line_and_column(tmp_path, capsys):
    code, err = _score(tmp_path, '{"title": "x",\n  "bids": [,]}', capsys)
    assert code == 2
    assert "line 2 column 12" in err and "not valid JSON" in err


def test_missing_file_and_binary_file(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    binary = tmp_path / "garbage.json"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    assert main(["score", str(binary)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_mfu_evidence_above_one_is_explained(tmp_path, capsys):
    evidence = {
        "kind": "training_mfu",
        "scale_gpus": 64,
        "value": 42,
        "unit": "fraction",
        "grade": "provider_claim",
    }
    code, err = _score(tmp_path, evaluation_dict([bid_dict(evidence=[evidence])]), capsys)
    assert code == 2 and "enter 0.42 for 42%" in err


def test_estimate_reports_bad_workload_file(tmp_path, capsys):
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps(workload_dict(tensor_parallel=0)))
    bid = tmp_path / "b.json"
    bid.write_text(json.dumps(bid_dict()))
    assert main(["estimate", "--workload", str(workload), "--bid", str(bid)]) == 2
    err = capsys.readouterr().err
    assert "w.json" in err and "tensor_parallel" in err
