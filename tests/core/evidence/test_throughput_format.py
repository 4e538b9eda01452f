"""Training-throughput evidence (CSV and JSON): MFU by hand, flags, grades and malformed files."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest

from clusterbid.core.evidence import EvidenceGrade, EvidenceKind, EvidenceParseError
from clusterbid.core.evidence.provenance import grade_for
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.evidence.throughput_readers import parse_throughput_csv, parse_throughput_json

DATA = Path(__file__).resolve().parents[2] / "data" / "throughput"
H100_DENSE_BF16 = (
    989e12  # NVIDIA H100 SXM datasheet: 1,979 TFLOPS BF16 "with sparsity", dense is half
)


def _read(name: str, **kwargs: object):
    return read_evidence((DATA / name).read_bytes(), name, **kwargs)


def test_mfu_from_tokens_per_second_by_hand() -> None:
    table = parse_throughput_csv((DATA / "good.csv").read_text(), "good.csv")
    first = table.results[0]
    # good.csv line 3: 70B active, 480,000 tokens/s on 512 H100s.
    assert first.row.line == 3
    assert first.mfu == pytest.approx(
        6 * 70e9 * 480_000 / (512 * H100_DENSE_BF16), rel=1e-12
    )  # = 0.3981
    assert first.mfu == pytest.approx(0.3981, abs=1e-4)
    assert first.flags == ()


def test_step_time_becomes_tokens_per_second_then_mfu() -> None:
    second = parse_throughput_csv((DATA / "good.csv").read_text(), "good.csv").results[1]
    tokens = 2_097_152 / 35.2  # global batch tokens / step time = 59,578 tokens/s
    assert second.tokens_per_second == pytest.approx(tokens)
    assert second.mfu == pytest.approx(
        6 * 70e9 * tokens / (64 * H100_DENSE_BF16), rel=1e-12
    )  # = 0.3953


def test_stated_dense_mfu_is_kept() -> None:
    third = parse_throughput_csv((DATA / "good.csv").read_text(), "good.csv").results[2]
    assert third.tokens_per_second is None and third.mfu == 0.41


def test_json_reads_the_same_rows_as_csv() -> None:
    from_csv = parse_throughput_csv((DATA / "good.csv").read_text(), "good.csv").results
    from_json = parse_throughput_json((DATA / "good.json").read_text(), "good.json").results
    assert [r.mfu for r in from_json] == [r.mfu for r in from_csv]
    assert [r.row.measured_by for r in from_json] == ["third_party", "provider", "provider"]


def test_evidence_items_carry_provenance_and_the_file_hash() -> None:
    data = (DATA / "good.csv").read_bytes()
    reading = read_evidence(data, "good.csv")
    assert reading.format == "throughput-csv"
    first, second, third = reading.evidence
    assert {item.artefact_sha256 for item in reading.evidence} == {hashlib.sha256(data).hexdigest()}
    assert (
        first.kind is EvidenceKind.TRAINING_MFU
        and first.unit == "fraction"
        and first.scale_gpus == 512
    )
    assert (first.measured_by, first.measured_on) == ("third_party", dt.date(2025, 2, 14))
    # Issue 31: a typed summary row is a claim, whoever measured it and with the file kept.
    assert first.grade is EvidenceGrade.PROVIDER_CLAIM and first.measured_by == "third_party"
    assert second.grade is EvidenceGrade.PROVIDER_CLAIM and second.scale_gpus == 64
    assert "typed summary" in first.description
    assert third.measured_on is None and third.value == 0.41


def _flags_by_model(name: str = "flags.csv") -> dict[str, tuple[str, ...]]:
    return {
        r.row.model: r.flag_codes()
        for r in parse_throughput_csv((DATA / name).read_text(), name).results
    }


def test_flags() -> None:
    flags = _flags_by_model()
    assert flags["sparse-only"] == ("mfu_sparse_denominator",)
    assert flags["unstated-only"] == ("mfu_denominator_unstated",)
    assert flags["layout-off"] == ("parallelism_mismatch",)  # 8 x 4 x 8 = 256, not 512
    assert flags["too-good"] == (
        "mfu_implausible",
    )  # 6 * 70e9 * 17000 / (8 * 989e12) = 0.902 > 0.85
    assert flags["half-stated"] == ("mfu_mismatch",)  # stated 0.199 vs 0.398 recomputed: half
    assert flags["basis-unstated"] == (
        "mfu_flops_basis_unstated",
    )  # used as stated, count not said


def test_sparse_denominator_doubles_and_tokens_override_stated_mfu() -> None:
    results = {
        r.row.model: r
        for r in parse_throughput_csv((DATA / "flags.csv").read_text(), "flags.csv").results
    }
    # 0.21 of the 1,978 TFLOP/s sparse peak is 0.21 * 1978 / 989 = 0.42 of the dense peak.
    assert results["sparse-only"].mfu == pytest.approx(0.21 * 1978 / 989)
    assert results["unstated-only"].mfu == 0.45
    assert results["too-good"].mfu == pytest.approx(6 * 70e9 * 17_000 / (8 * H100_DENSE_BF16))
    assert results["half-stated"].mfu == pytest.approx(6 * 70e9 * 480_000 / (512 * H100_DENSE_BF16))
    assert "about half" in results["half-stated"].flags[0].message


@pytest.mark.parametrize(
    ("name", "line", "fragment"),
    [
        ("bad_number.csv", 4, "tokens_per_second"),  # line 3 is blank, line 4 says 'fast'
        ("missing_column.csv", 1, "missing column(s): gpus"),
        ("short_row.csv", 3, "expected 11 cells"),
        ("unknown_gpu.csv", 2, "unknown GPU model 'H100-PCIe-Turbo'"),
        ("step_without_batch.csv", 2, "needs global_batch_tokens"),
        ("per_gpu_tokens.csv", 2, "impossible"),  # 4.8M tokens/s on 512 H100s would be 398% MFU
        ("truncated.json", 3, "not valid JSON"),
        ("bad_field.json", None, "rows[1].gpus"),
    ],
)
def test_malformed_files_name_file_line_and_problem(
    name: str, line: int | None, fragment: str
) -> None:
    with pytest.raises(EvidenceParseError) as caught:
        _read(name)
    assert caught.value.source == name and caught.value.line == line
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(name + (f" line {line}:" if line else ":"))


def test_a100_has_no_fp8_peak() -> None:
    text = (
        "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,tokens_per_second,gpu_model,measured_by\n"
        "m,7,fp8,4096,1,1,8,8,20000,A100-80GB-SXM,buyer\n"
    )
    with pytest.raises(EvidenceParseError, match="line 2: precision: A100-80GB-SXM has no fp8"):
        parse_throughput_csv(text, "a100.csv")


def test_future_date_and_unknown_measurer_are_refused() -> None:
    header = (
        "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,mfu,mfu_denominator,"
        "gpu_model,measured_by,measured_on\n"
    )
    with pytest.raises(EvidenceParseError, match="line 2: measured_on 2999-01-01 is in the future"):
        parse_throughput_csv(
            header + "m,7,bf16,4096,1,1,8,8,0.4,dense_peak,H100-SXM,buyer,2999-01-01\n", "f.csv"
        )
    with pytest.raises(
        EvidenceParseError, match="line 2: measured_by must be one of buyer, third_party, provider"
    ):
        parse_throughput_csv(
            header + "m,7,bf16,4096,1,1,8,8,0.4,dense_peak,H100-SXM,vendor,\n", "f.csv"
        )


def test_conflicting_measured_by_option_is_refused() -> None:
    with pytest.raises(
        EvidenceParseError,
        match="line 3: the file says measured_by third_party, but buyer was given",
    ):
        _read("good.csv", measured_by="buyer")


@pytest.mark.parametrize(
    ("measured_by", "sha", "grade"),
    [
        ("buyer", "a" * 64, EvidenceGrade.MEASURED_INDEPENDENT),
        ("third_party", "a" * 64, EvidenceGrade.MEASURED_INDEPENDENT),
        ("provider", "a" * 64, EvidenceGrade.MEASURED_PROVIDER),
        ("provider", None, EvidenceGrade.PROVIDER_CLAIM),
        ("buyer", None, EvidenceGrade.PROVIDER_CLAIM),
    ],
)
def test_grade_rule(measured_by: str, sha: str | None, grade: EvidenceGrade) -> None:
    assert grade_for(measured_by, sha) is grade


RESOURCES = Path(__file__).resolve().parents[3] / "resources"


@pytest.mark.parametrize(
    "name", ["training-throughput.csv", "training-throughput.json", "scaling-table.csv"]
)
def test_documented_examples_read_cleanly(name: str) -> None:
    reading = read_evidence((RESOURCES / "examples" / "evidence" / name).read_bytes(), name)
    assert reading.flags() == () and reading.evidence


def test_every_column_is_documented() -> None:
    from clusterbid.core.evidence.throughput_readers import COLUMNS

    doc = (RESOURCES / "evidence-formats.md").read_text(encoding="utf-8")
    assert [c for c in COLUMNS if f"`{c}`" not in doc] == []
