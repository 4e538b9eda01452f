"""A busbw figure flagged above the NIC aggregate is kept out of the cost model unless overridden (issue 17)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.conftest import workload_dict
from tests.core.uncertainty.helpers import evaluation, evidence, no_failure_bid

from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.evidence import parse_nccl_tests_text
from clusterbid.core.evidence.nccl_evidence import to_evidence


def _estimate(busbw_item: dict):
    # 16 GPUs on two 8-GPU nodes, so a 16-rank busbw run spans nodes and measures the scale-out fabric.
    bid = no_failure_bid("b1")
    bid["evidence"] = [busbw_item]
    workload = workload_dict(
        total_params_billions=7,
        active_params_billions=7,
        job_gpus=16,
        tensor_parallel=8,
        pipeline_parallel=1,
    )
    doc = evaluation([bid], workload=workload)
    (estimate,) = estimate_training(doc.workload, doc.bids).bids
    return estimate


def test_flagged_figure_keeps_the_spec_busbw_and_says_so() -> None:
    clean = _estimate(evidence("allreduce_busbw", 470.0, 16))
    assert clean.node_busbw_gb_s == pytest.approx(
        470.0
    )  # unflagged: the measurement replaces the spec
    spec = clean.spec_node_busbw_gb_s
    assert spec != pytest.approx(470.0)
    flagged = _estimate(
        evidence("allreduce_busbw", 470.0, 16) | {"suspect": "above the 400 GB/s NIC aggregate"}
    )
    assert flagged.node_busbw_gb_s == pytest.approx(spec)
    assert flagged.busbw_evidence is None
    assert any(
        "470 GB/s not used (flagged: above the 400 GB/s NIC aggregate)" in n
        for n in flagged.calibration_notes
    )


def test_override_is_recorded_and_uses_the_figure() -> None:
    item = evidence("allreduce_busbw", 470.0, 16) | {
        "suspect": "above NIC",
        "suspect_override": "NVLS SHARP switch",
    }
    used = _estimate(item)
    assert used.node_busbw_gb_s == pytest.approx(470.0)
    assert used.busbw_evidence.suspect_override == "NVLS SHARP switch"


def test_override_without_a_flag_is_refused() -> None:
    with pytest.raises(ValidationError, match="this figure is not flagged"):
        _estimate(evidence("allreduce_busbw", 470.0, 16) | {"suspect_override": "why not"})


def test_parser_flag_becomes_the_suspect_reason(real_log_bytes: bytes) -> None:
    # The public 2-node log peaks at 338.82 GB/s; a 300 GB/s NIC aggregate makes it suspect, 400 does not.
    text = real_log_bytes.decode("utf-8")
    for nic, expect_suspect in ((300, True), (400, False)):
        (run,) = parse_nccl_tests_text(text, "real.log", nic_aggregate_gb_s=nic)
        item = to_evidence(
            run,
            grade="measured_provider",
            measured_by="provider",
            artefact_sha256="0" * 64,
            artefact_name="real.log",
        )
        assert (item.suspect is not None) is expect_suspect
        assert item.suspect is None or "338.82 GB/s" in item.suspect
