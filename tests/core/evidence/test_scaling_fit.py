"""Scaling tables: the power-law fit recovers known exponents, reports its residual, warns far out."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence import EvidenceGrade, EvidenceKind, EvidenceParseError
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.evidence.scaling import parse_scaling_csv
from clusterbid.core.evidence.scaling_fit import extrapolate, fit_power_law, measured_efficiency

DATA = Path(__file__).resolve().parents[2] / "data" / "throughput"
SIZES = np.array([8, 16, 32, 64, 128, 256, 512, 1024], dtype=float)


@pytest.mark.parametrize("exponent", [1.0, 0.97, 0.93, 0.8])
def test_fit_recovers_a_known_exponent_exactly(exponent: float) -> None:
    fit = fit_power_law(SIZES, 1234.0 * SIZES**exponent)
    assert fit.exponent == pytest.approx(exponent, abs=1e-9)
    assert fit.coefficient == pytest.approx(1234.0, rel=1e-9)
    assert fit.rms_relative_error == pytest.approx(0.0, abs=1e-9)


def test_fit_recovers_the_exponent_through_noise_and_reports_the_residual() -> None:
    rng = np.random.default_rng(20250301)
    noise = rng.normal(0.0, 0.02, SIZES.size)  # 2% measurement noise
    fit = fit_power_law(SIZES, 500.0 * SIZES**0.95 * (1 + noise))
    assert fit.exponent == pytest.approx(0.95, abs=0.02)
    # The residual is the RMS of fitted/measured - 1: about the noise level, never zero.
    assert 0.005 < fit.rms_relative_error < 0.04


def test_residual_is_the_rms_relative_error_by_hand() -> None:
    # Two points on N^1 plus one 10% low at N=4: log-log least squares through (1,1),(2,2),(4,3.6).
    n, t = np.array([1.0, 2.0, 4.0]), np.array([1.0, 2.0, 3.6])
    fit = fit_power_law(n, t)
    x, y = np.log(n), np.log(t)
    b = ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()
    a = math.exp(y.mean() - b * x.mean())
    rms = math.sqrt(sum((a * ni**b / ti - 1) ** 2 for ni, ti in zip(n, t, strict=True)) / 3)
    assert fit.exponent == pytest.approx(b) and fit.rms_relative_error == pytest.approx(rms)


def test_efficiency_relative_to_the_smallest_size() -> None:
    fit = fit_power_law(SIZES, 100.0 * SIZES**0.93)
    # Per-GPU throughput at 64 vs 8 GPUs: (64/8)^(0.93-1) = 8^-0.07 = exp(-0.07 x 2.0794) = 0.8645
    assert fit.efficiency(64) == pytest.approx(8**-0.07, rel=1e-9)
    assert fit.efficiency(64) == pytest.approx(0.8645, abs=1e-4)
    eff = measured_efficiency(np.array([8.0, 64.0]), np.array([1000.0, 7200.0]))
    assert list(eff) == pytest.approx([1.0, 7200 / 64 / (1000 / 8)])  # 112.5 / 125 = 0.9


def test_example_table_mfu_and_efficiency_by_hand() -> None:
    table = parse_scaling_csv((DATA / "scaling.csv").read_text(), "scaling.csv")
    first, last = table.points[0], table.points[-1]
    assert (first.line, first.gpus, last.line, last.gpus) == (9, 8, 13, 512)
    assert first.mfu == pytest.approx(6 * 70e9 * 7912 / (8 * 989e12))  # = 0.4200
    assert last.mfu == pytest.approx(6 * 70e9 * 470_922 / (512 * 989e12))  # = 0.3906
    assert last.efficiency == pytest.approx((470_922 / 512) / (7912 / 8))  # = 0.930
    assert table.fit.base_gpus == 8 and table.fit.largest_gpus == 512 and table.flags == ()
    assert table.fit.rms_relative_error < 0.02


def test_extrapolation_warns_far_beyond_the_largest_measurement() -> None:
    fit = fit_power_law(SIZES, 100.0 * SIZES**0.95)
    near = extrapolate(fit, 2048)  # 2x the largest measured size
    assert near.warning is None
    assert near.tokens_per_second == pytest.approx(100.0 * 2048**0.95)
    far = extrapolate(fit, 8192)  # 8x
    assert far.warning is not None and "8x the largest measured size" in far.warning


def test_two_sizes_fit_exactly_and_say_so() -> None:
    fit = fit_power_law(np.array([8.0, 64.0]), np.array([1000.0, 7200.0]))
    assert fit.exponent == pytest.approx(math.log(7.2) / math.log(8))  # = 0.9493
    assert "residual says nothing" in (extrapolate(fit, 128).warning or "")


def test_poor_fit_and_superlinear_scaling_are_reported() -> None:
    collapse = fit_power_law(np.array([8.0, 16, 32, 64]), np.array([1000.0, 2000, 4000, 2000]))
    assert "do not trust" in (extrapolate(collapse, 64).warning or "")
    head = (
        "# model: m\n# active_params_b: 7\n# precision: bf16\n# gpu_model: H100-SXM\n# "
        "measured_by: provider\n"
    )
    # 7B on 8 H100s at 40,000 tokens/s is 6*7e9*40000/(8*989e12) = 21% MFU; at 64 GPUs 480,000 is N^1.09.
    table = parse_scaling_csv(head + "gpus,tokens_per_second\n8,40000\n64,480000\n", "s.csv")
    assert [f.code for f in table.flags] == ["superlinear_scaling"]


@pytest.mark.parametrize(
    ("name", "line", "fragment"),
    [
        ("scaling_duplicate.csv", 9, "8 GPUs already measured on line 7"),
        ("scaling_one_size.csv", None, "needs two or more GPU counts"),
        ("scaling_no_setup.csv", None, "missing '# active_params_b: ...'"),
    ],
)
def test_malformed_scaling_tables(name: str, line: int | None, fragment: str) -> None:
    with pytest.raises(EvidenceParseError) as caught:
        read_evidence((DATA / name).read_bytes(), name)
    assert caught.value.line == line and fragment in str(caught.value)


def test_one_evidence_item_per_size_and_calibration_takes_the_nearest() -> None:
    reading = read_evidence((DATA / "scaling.csv").read_bytes(), "scaling.csv")
    assert reading.format == "scaling-csv"
    assert [e.scale_gpus for e in reading.evidence] == [8, 16, 64, 256, 512]
    assert {e.kind for e in reading.evidence} == {EvidenceKind.TRAINING_MFU}
    # measured_by: buyer, but a typed table is a claim (issue 31: grades follow artefacts)
    assert {e.grade for e in reading.evidence} == {EvidenceGrade.PROVIDER_CLAIM}
    evaluation = demo_evaluation()  # the demo job runs on 512 GPUs
    assert evaluation.workload.job_gpus == 512
    bid = evaluation.bids[0]
    without_512 = tuple(e for e in reading.evidence if e.scale_gpus != 512)
    for items, nearest in ((reading.evidence, 512), (without_512, 256)):
        calibrated = bid.model_validate(
            {**bid.model_dump(), "evidence": [e.model_dump() for e in items]}
        )
        used = estimate_training(evaluation.workload, [calibrated]).bids[0].efficiency_evidence
        assert used is not None and used.scale_gpus == nearest
