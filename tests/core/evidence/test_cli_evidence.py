"""`clusterbid evidence parse` and `evidence attach` on the real log, our fixtures and bad files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evidence import EvidenceGrade
from clusterbid.core.store import EvaluationDocument, verify_audit_chain

DATA = Path(__file__).resolve().parents[2] / "data"
REAL_LOG = DATA / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"


def test_parse_real_log_text(capsys) -> None:
    assert main(["evidence", "parse", str(REAL_LOG)]) == 0
    out = capsys.readouterr().out
    assert "nccl-tests text output" in out
    assert (
        "all_reduce, float sum, 16 ranks, 2 hosts (ztan-mig-235z, ztan-mig-gq73), NVIDIA H100 80GB "
        "HBM3" in out
    )
    assert "31 size rows from 8 B to 8 GiB" in out
    assert "busbw plateau: 338.82 GB/s at 8 GiB (out-of-place)" in out
    assert "70.742 GB/s (a note only" in out
    assert "Flags: none" in out
    assert (
        "all-reduce bus bandwidth 338.82 GB/s at 16 GPUs, from the provider (" in out
        and "): measured by the provider" in out
    )


def test_parse_real_log_json_with_nic_aggregate_and_buyer(capsys) -> None:
    # A3 Mega: 8 NICs x 200 Gb/s = 200 GB/s per node; 338.82 GB/s on 2 nodes is above it.
    argv = [
        "evidence",
        "parse",
        str(REAL_LOG),
        "--json",
        "--nic-aggregate-gb-s",
        "200",
        "--measured-by",
        "buyer",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    run = out["nccl_runs"][0]
    assert (run["ranks"], len(run["hosts"]), run["rows"]) == (16, 2, 31)
    assert run["plateau"]["busbw_gb_s"] == 338.82 and run["plateau"]["size_bytes"] == 8 * 2**30
    assert [f["code"] for f in out["flags"]] == ["busbw_above_nic_aggregate"]
    (item,) = out["evidence"]
    assert (
        item["grade"] == EvidenceGrade.MEASURED_INDEPENDENT.value and item["measured_by"] == "buyer"
    )
    assert item["artefact_sha256"] == hashlib.sha256(REAL_LOG.read_bytes()).hexdigest()


def test_parse_scaling_table_extrapolates_with_warning(capsys) -> None:
    assert (
        main(["evidence", "parse", str(DATA / "throughput" / "scaling.csv"), "--job-gpus", "4096"])
        == 0
    )
    out = capsys.readouterr().out
    assert "scaling table (CSV)" in out and "5 sizes" in out
    assert "RMS relative residual" in out
    assert "WARNING: the job's 4,096 GPUs are 8x the largest measured size (512)" in out


def test_parse_throughput_shows_flags_and_grades(capsys) -> None:
    assert main(["evidence", "parse", str(DATA / "throughput" / "flags.csv")]) == 0
    out = capsys.readouterr().out
    for code in (
        "mfu_sparse_denominator",
        "mfu_denominator_unstated",
        "parallelism_mismatch",
        "mfu_implausible",
    ):
        assert f"[{code}]" in out
    # A typed table is a claim whoever measured (issue 31), said in words, not the format's ids.
    assert "a claim without raw data" in out or "provider's claim, no raw data" in out
    assert "provider_claim" not in out


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (DATA / "nccl-tests" / "truncated.log", "truncated.log line 61: expected 13 columns"),
        (DATA / "throughput" / "bad_number.csv", "bad_number.csv line 4: tokens_per_second"),
        (DATA / "throughput" / "does-not-exist.csv", "does-not-exist.csv: cannot be read"),
    ],
)
def test_bad_files_exit_2_with_file_line_and_problem(path: Path, expected: str, capsys) -> None:
    assert main(["evidence", "parse", str(path)]) == 2
    captured = capsys.readouterr()
    assert expected in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_forced_wrong_format_is_a_clear_error(capsys) -> None:
    assert main(["evidence", "parse", str(REAL_LOG), "--format", "throughput-csv"]) == 2
    assert "all_reduce_2x8xH100_tcpxo.log line 3: unknown column" in capsys.readouterr().err


def _document(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "eval.clusterbid"
    EvaluationDocument.create(path, demo_evaluation(), user="test").close()
    return path


def test_attach_adds_evidence_and_artefact_in_one_audited_step(tmp_path: Path, capsys) -> None:
    path = _document(tmp_path)
    assert (
        main(["evidence", "attach", str(path), "northwind-ib", str(REAL_LOG), "--user", "test"])
        == 0
    )
    with EvaluationDocument.open(path) as document:
        bid = next(b for b in document.evaluation.bids if b.id == "northwind-ib")
        (item,) = bid.evidence
        assert item.value == 338.82 and item.scale_gpus == 16
        (artefact,) = document.artefacts()
        assert (
            artefact.sha256
            == item.artefact_sha256
            == hashlib.sha256(REAL_LOG.read_bytes()).hexdigest()
        )
        assert [row.action for row in document.audit_rows()][-2:] == [
            "attach_artefact",
            "replace_bid",
        ]
    assert verify_audit_chain(path).ok
    # The same file twice would count the same measurement twice.
    assert main(["evidence", "attach", str(path), "northwind-ib", str(REAL_LOG)]) == 2
    assert "already holds evidence from this file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("bid_id", "file"),
    [
        ("northwind-ib", DATA / "nccl-tests" / "truncated.log"),  # parse fails
        ("northwind-ib", DATA / "throughput" / "per_gpu_tokens.csv"),  # MFU above 100%
        (
            "northwind-ib",
            DATA / "nccl-tests" / "all_gather.log",
        ),  # parses, but no all_reduce figure
        ("no-such-bid", REAL_LOG),  # parses, but the bid is unknown
    ],
)
def test_failed_attach_changes_nothing(tmp_path: Path, bid_id: str, file: Path, capsys) -> None:
    path = _document(tmp_path)
    before = path.read_bytes()
    with EvaluationDocument.open(path) as document:
        audit_before = document.audit_rows()
    assert main(["evidence", "attach", str(path), bid_id, str(file)]) == 2
    assert capsys.readouterr().err.startswith("clusterbid: error: ")
    assert path.read_bytes() == before
    with EvaluationDocument.open(path) as document:
        assert document.audit_rows() == audit_before and document.artefacts() == ()


def test_score_reports_the_grade_of_the_evidence_it_used(tmp_path: Path, capsys) -> None:
    path = _document(tmp_path)
    assert (
        main(
            [
                "evidence",
                "attach",
                str(path),
                "northwind-ib",
                str(DATA / "throughput" / "scaling.csv"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["score", str(path), "--json"]) == 0
    bid = next(
        b for b in json.loads(capsys.readouterr().out)["bids"] if b["bid_id"] == "northwind-ib"
    )
    mfu = next(a for a in bid["assumptions"] if a["name"] == "Baseline MFU")
    # The demo job runs on 512 GPUs: the table's 512-GPU row (scaling.csv line 13) is the nearest.
    # A typed scaling table is a claim even from the buyer (issue 31: grades follow artefacts).
    assert mfu["source"].startswith(
        "claimed: training MFU at 512 GPUs, a claim without raw data, graded as a provider's "
        "claim, by the buyer on 2025-03-01"
    )
    sha = hashlib.sha256((DATA / "throughput" / "scaling.csv").read_bytes()).hexdigest()
    assert f"artefact sha256 {sha[:12]}..." in mfu["source"]
    # The table gives no sequence, layout or batch lines: said beside the figure (issue 36).
    assert mfu["source"].endswith(
        "the run does not record its sequence length, layout (TP and PP), global batch: "
        "graded lower and drawn wider"
    )


def test_measured_on_is_recorded_and_a_future_date_refused(capsys) -> None:
    assert main(["evidence", "parse", str(REAL_LOG), "--json", "--measured-on", "2024-11-05"]) == 0
    assert json.loads(capsys.readouterr().out)["evidence"][0]["measured_on"] == "2024-11-05"
    assert main(["evidence", "parse", str(REAL_LOG), "--measured-on", "2999-01-01"]) == 2
    assert "measured_on 2999-01-01 is in the future" in capsys.readouterr().err


def test_attach_of_a_flagged_figure_records_the_override_only_when_given(
    tmp_path: Path, capsys
) -> None:
    # The real 2-node log peaks at 338.82 GB/s: above a 300 GB/s NIC aggregate, so it is suspect.
    for folder, extra, override in (
        ("plain", [], None),
        ("override", ["--use-flagged", "SHARP switches, checked"], "SHARP switches, checked"),
    ):
        path = _document(tmp_path / folder)
        with EvaluationDocument.open(path) as document:
            target = document.evaluation.bids[0].id
        args = [
            "evidence",
            "attach",
            str(path),
            target,
            str(REAL_LOG),
            "--nic-aggregate-gb-s",
            "300",
            *extra,
        ]
        assert main(args) == 0
        out = capsys.readouterr().out
        assert ("kept out of the cost model" in out) is (override is None)
        with EvaluationDocument.open(path) as document:
            (item,) = next(b for b in document.evaluation.bids if b.id == target).evidence
            assert "338.82 GB/s" in item.suspect and item.suspect_override == override


def test_attach_holds_the_log_against_the_bid_fabric(tmp_path: Path, capsys) -> None:
    # northwind-ib offers InfiniBand; socket_2x8.log ran over NET/Socket (tests/data/nccl-tests/README.md).
    path = _document(tmp_path)
    with EvaluationDocument.open(path) as document:
        bid = next(b for b in document.evaluation.bids if b.id == "northwind-ib")
    from clusterbid.core.catalog import default_catalog

    assert default_catalog().fabric(bid.fabric.technology).rdma
    log = DATA / "nccl-tests" / "socket_2x8.log"
    assert main(["evidence", "attach", str(path), "northwind-ib", str(log), "--user", "test"]) == 0
    out = capsys.readouterr().out
    assert (
        "[ran_over_sockets] NCCL used TCP sockets (NET/Socket), yet the bid offers "
        + bid.fabric.technology
        in out
    )
