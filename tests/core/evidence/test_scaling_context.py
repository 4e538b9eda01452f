"""A scaling table carries its own context into every evidence item it gives (issue 36 item 3):
before, the CSV's GPU, precision and model lines were read and then dropped, so an A100 table
calibrated an H100 bid while the same figures as a throughput CSV were refused."""

from __future__ import annotations

import pytest

from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence import EvidenceParseError
from clusterbid.core.evidence.reading import read_evidence


def _table(gpu: str, precision: str = "bf16", extra: str = "") -> bytes:
    # MFU 50% on A100 (312 TFLOP/s dense BF16) at 8 GPUs for a 70B model: 0.5 x 8 x 312e12 / (6 x
    # 70e9) = 2,971 tokens/s; on H100 (989) the same rows are 15.8%, still a plausible run.
    return (
        f"# model: llama-70b\n# active_params_b: 70\n# precision: {precision}\n# gpu_model: {gpu}\n"
        f"# measured_by: provider\n{extra}gpus,tokens_per_second\n8,2971\n64,23000\n512,180000\n"
    ).encode()


def _calibrate(data: bytes):
    reading = read_evidence(data, "scaling.csv")
    evaluation = demo_evaluation()
    bid = next(b for b in evaluation.bids if b.capacity.gpu_model == "H100-SXM")
    with_table = bid.model_validate(
        {**bid.model_dump(), "evidence": [e.model_dump() for e in reading.evidence]}
    )
    return reading, estimate_training(evaluation.workload, [with_table]).bids[0]


def test_every_row_records_the_table_s_gpu_precision_model_and_flops_basis():
    reading, _ = _calibrate(_table("H100-SXM"))
    for item in reading.evidence:
        assert (item.gpu_model, item.precision, item.model_active_params_billions) == (
            "H100-SXM",
            "bf16",
            70,
        )
        assert item.mfu_flops_basis == "6n"  # tokens/s x 6 x active parameters over the dense peak


def test_an_a100_table_cannot_calibrate_an_h100_bid():
    _, refused = _calibrate(_table("A100-80GB-SXM"))
    assert refused.efficiency_evidence is None
    assert any(
        "measured on A100-80GB-SXM, the bid offers H100-SXM" in n for n in refused.calibration_notes
    )
    _, used = _calibrate(_table("H100-SXM"))
    assert used.efficiency_evidence is not None and used.efficiency_evidence.gpu_model == "H100-SXM"


def test_an_fp8_table_cannot_calibrate_a_bf16_workload():
    _, refused = _calibrate(_table("H100-SXM", precision="fp8"))
    assert refused.efficiency_evidence is None
    assert any(
        "was measured at fp8, the workload runs bf16" in n for n in refused.calibration_notes
    )


def test_the_layout_lines_travel_with_the_rows_and_a_bad_one_names_its_line():
    layout = (
        "# sequence_length: 4096\n# tensor_parallel: 8\n# pipeline_parallel: 4\n# "
        "global_batch_sequences: 1024\n"
    )
    reading, _ = _calibrate(_table("H100-SXM", extra=layout))
    item = reading.evidence[0]
    assert (
        item.sequence_length,
        item.tensor_parallel,
        item.pipeline_parallel,
        item.global_batch_sequences,
    ) == (4096, 8, 4, 1024)
    with pytest.raises(EvidenceParseError) as caught:
        read_evidence(_table("H100-SXM", extra="# tensor_parallel: eight\n"), "scaling.csv")
    assert caught.value.line == 6 and "tensor_parallel" in str(caught.value)
