"""The real public 2x8 H100 (A3 Mega, TCPXO) all_reduce log, and Evidence built from it."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from clusterbid.core.errors import InputError
from clusterbid.core.evidence import (
    EvidenceGrade,
    EvidenceKind,
    parse_nccl_tests_text,
    sha256_hex,
    to_evidence,
)

# A3 Mega: 8 NICs x 200 Gb/s = 1600 Gb/s = 200 GB/s per node.
A3_MEGA_NIC_GB_S = 8 * 200 / 8


def _run(real_log_bytes: bytes, **kwargs: object):
    runs = parse_nccl_tests_text(
        real_log_bytes.decode("utf-8"), "all_reduce_2x8xH100_tcpxo.log", **kwargs
    )
    assert len(runs) == 1
    return runs[0]


def test_setup_from_rank_lines(real_log_bytes: bytes) -> None:
    run = _run(real_log_bytes)
    assert (
        run.collective == "all_reduce" and run.collective_from == "command"
    )  # "> ... all_reduce_perf"
    assert run.ranks == 16  # "#  Rank  0" .. "#  Rank 15"
    assert run.hosts == ("ztan-mig-235z", "ztan-mig-gq73")
    assert run.gpu_model == "NVIDIA H100 80GB HBM3"
    assert run.data_type == "float" and run.redop == "sum"


def test_rows_and_plateau(real_log_bytes: bytes) -> None:
    run = _run(real_log_bytes)
    assert len(run.rows) == 31  # 8 B .. 8 GiB doubling: 2**3 .. 2**33
    first, last = run.rows[0], run.rows[-1]
    assert (first.size_bytes, first.count, first.root) == (
        8,
        2,
        None,
    )  # row 1: "8  2  float  sum  -1"
    # row 31 of the log: 8589934592 ... 47535  180.71  338.82  0  47743  179.92  337.35  0
    assert last.size_bytes == 8589934592
    assert last.out_of_place.time_us == 47535 and last.out_of_place.algbw_gb_s == 180.71
    assert last.in_place.busbw_gb_s == 337.35 and last.in_place.wrong == 0
    assert run.plateau is not None
    assert run.plateau.busbw_gb_s == 338.82 and run.plateau.size_bytes == 8 * 2**30
    assert run.plateau.placement == "out_of_place"


def test_avg_line_is_only_a_note(real_log_bytes: bytes) -> None:
    run = _run(real_log_bytes)
    assert run.avg_busbw_line_gb_s == 70.742  # "# Avg bus bandwidth    : 70.742"
    assert run.out_of_bounds == 0
    assert run.plateau is not None and run.plateau.busbw_gb_s != run.avg_busbw_line_gb_s


def test_clean_log_has_no_flags_and_consistent_busbw(real_log_bytes: bytes) -> None:
    # 2(n-1)/n for n=16 is 1.875; e.g. row 31: 180.71 * 1.875 = 338.83 vs printed 338.82.
    assert _run(real_log_bytes).flags == ()


def test_busbw_above_nic_aggregate_on_two_nodes(real_log_bytes: bytes) -> None:
    run = _run(real_log_bytes, nic_aggregate_gb_s=A3_MEGA_NIC_GB_S)
    assert run.flag_codes() == ("busbw_above_nic_aggregate",)
    assert "NCCL_ALGO=Ring" in run.flags[0].message
    assert (
        "busbw_above_nic_aggregate" not in _run(real_log_bytes, nic_aggregate_gb_s=400).flag_codes()
    )


def test_to_evidence(real_log_bytes: bytes) -> None:
    run = _run(real_log_bytes, nic_aggregate_gb_s=A3_MEGA_NIC_GB_S)
    digest = sha256_hex(real_log_bytes)
    assert digest == hashlib.sha256(real_log_bytes).hexdigest()
    evidence = to_evidence(
        run, grade=EvidenceGrade.MEASURED_INDEPENDENT, measured_by="third_party",
        artefact_sha256=digest, artefact_name="all_reduce_2x8xH100_tcpxo.log", measured_on=dt.date(2024, 11, 5),
    )  # fmt: skip
    assert evidence.kind is EvidenceKind.ALLREDUCE_BUSBW
    assert evidence.value == 338.82 and evidence.unit == "GB/s" and evidence.scale_gpus == 16
    assert evidence.artefact_sha256 == digest
    assert "busbw_above_nic_aggregate" in evidence.description and "70.742" in evidence.description


def test_to_evidence_refusals(real_log_bytes: bytes) -> None:
    run = _run(real_log_bytes)
    with pytest.raises(InputError, match="provider_claim"):  # measured grade without artefact
        to_evidence(run, grade=EvidenceGrade.MEASURED_PROVIDER, measured_by="provider",
                    artefact_sha256=None, artefact_name=None)  # fmt: skip
    with pytest.raises(InputError, match="16 ranks"):
        to_evidence(run, grade=EvidenceGrade.PROVIDER_CLAIM, measured_by="provider",
                    artefact_sha256=None, artefact_name=None, scale_gpus=8)  # fmt: skip
