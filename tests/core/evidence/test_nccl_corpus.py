"""One test per log variant of tests/data/nccl-tests/ (see its README.md), figures worked by hand.

Every expected busbw below is recomputed here from the algbw printed in the file and nccl-tests'
factor: all_reduce 2(n-1)/n, all_gather and reduce_scatter (n-1)/n (nccl-tests doc/PERFORMANCE.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from nccl_fixture_files import FIXTURES

from clusterbid.cli import main
from clusterbid.core.evidence.nccl_raw import NodeCount
from clusterbid.core.evidence.reading import fabric_claim_of, read_evidence, select_run

GIB, MIB = 2**30, 2**20


def all_reduce(algbw: float, ranks: int) -> float:
    return round(algbw * 2 * (ranks - 1) / ranks, 2)


def gather(algbw: float, ranks: int) -> float:
    return round(algbw * (ranks - 1) / ranks, 2)


@dataclass(frozen=True)
class Variant:
    file: str
    collective: str
    busbw: float  # the scored figure: plateau, or lower bound at the largest size
    size: int
    saturated: bool
    flags: frozenset[str]  # exactly the flags expected
    evidence: int  # items the cost model can use
    options: tuple = ()


VARIANTS = [
    # 128 MiB row: out-of-place algbw 96.00 on 16 ranks.
    Variant(
        "sweep_128m_2x8.log",
        "all_reduce",
        all_reduce(96.00, 16),
        128 * MIB,
        False,
        frozenset({"sweep_below_1gib"}),
        1,
    ),
    # Wiki page: 512 MiB row, out-of-place algbw 160.00 on 16 ranks; prose "1. ..." ignored.
    Variant(
        "wiki_512m_ib_info.md",
        "all_reduce",
        all_reduce(160.00, 16),
        512 * MIB,
        False,
        frozenset({"sweep_below_1gib"}),
        1,
    ),
    # rccl-tests all_gather, 8 ranks: 16 GiB out-of-place algbw 336.00.
    Variant(
        "rccl_all_gather_mi300x.log",
        "all_gather",
        gather(336.00, 8),
        16 * GIB,
        True,
        frozenset(),
        0,
    ),
    # rccl-tests reduce_scatter pasted with single spaces: 4 GiB out-of-place algbw 310.40.
    Variant(
        "rccl_reduce_scatter_wiki.md",
        "reduce_scatter",
        gather(310.40, 8),
        4 * GIB,
        True,
        frozenset(),
        0,
    ),
    # Over TCP sockets while the bid offers NDR400 InfiniBand: 8 GiB algbw 13.60 on 16 ranks.
    Variant(
        "socket_2x8.log",
        "all_reduce",
        all_reduce(13.60, 16),
        8 * GIB,
        True,
        frozenset({"ran_over_sockets"}),
        1,
        (("fabric", "IB-NDR400"),),
    ),
    # No rank list and no launcher line: the bid's node count (2) drives the NIC check.
    Variant(
        "nvls_2x8_no_ranks.log",
        "all_reduce",
        all_reduce(250.40, 16),
        8 * GIB,
        True,
        frozenset({"ranks_unknown", "busbw_above_nic_aggregate"}),
        0,
        (("nodes", 2), ("nic", 400.0)),
    ),
]


def _read(variant: Variant, data: bytes | None = None):
    opts = dict(variant.options)
    return read_evidence(
        data if data is not None else (FIXTURES / variant.file).read_bytes(), variant.file,
        fabric=fabric_claim_of(opts["fabric"], True) if "fabric" in opts else None,
        nodes=NodeCount(opts["nodes"], "the bid") if "nodes" in opts else None,
        nic_aggregate_gb_s=opts.get("nic"),
    )  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.file for v in VARIANTS])
def test_variant_reads_to_the_hand_computed_figure(variant: Variant) -> None:
    reading = _read(variant)
    (run,) = reading.nccl_runs
    assert run.collective == variant.collective
    assert (run.plateau.busbw_gb_s, run.plateau.size_bytes, run.plateau.saturated) == (
        variant.busbw,
        variant.size,
        variant.saturated,
    )
    assert set(run.flag_codes()) == variant.flags
    assert len(reading.evidence) == variant.evidence
    if variant.evidence:
        assert reading.evidence[0].value == variant.busbw
        assert reading.evidence[0].grade.value == "measured_provider"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.file for v in VARIANTS])
def test_windows_line_endings_and_bom_read_the_same(variant: Variant) -> None:
    raw = (FIXTURES / variant.file).read_bytes()
    mangled = b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n")
    (run,) = _read(variant, mangled).nccl_runs
    assert (run.plateau.busbw_gb_s, set(run.flag_codes())) == (variant.busbw, variant.flags)


def test_nccl_info_topology_of_the_wiki_page() -> None:
    (run,) = _read(VARIANTS[1]).nccl_runs
    topo = run.topology
    assert (topo.network, topo.gpudirect_rdma, topo.coll_channels, topo.nvls) == (
        "IB",
        True,
        32,
        True,
    )


def test_sockets_flag_names_the_bid_fabric_and_gdr_off_is_flagged() -> None:
    (run,) = _read(VARIANTS[4]).nccl_runs
    assert run.topology.network == "Socket" and run.topology.coll_channels == 2
    (flag,) = run.flags
    assert "TCP sockets (NET/Socket)" in flag.message and "IB-NDR400" in flag.message
    text = (FIXTURES / "wiki_512m_ib_info.md").read_text(encoding="utf-8")
    no_gdr = text.replace("GPU Direct RDMA Enabled", "GPU Direct RDMA Disabled").replace(
        "/GDRDMA", ""
    )
    reading = read_evidence(no_gdr.encode(), "no-gdr.md", fabric=fabric_claim_of("IB-NDR400", True))
    assert reading.nccl_runs[0].topology.gpudirect_rdma is False
    assert "gdr_off" in reading.nccl_runs[0].flag_codes()


def test_nic_check_says_when_no_node_count_is_known() -> None:
    reading = read_evidence(
        (FIXTURES / "nvls_2x8_no_ranks.log").read_bytes(), "x.log", nic_aggregate_gb_s=400.0
    )
    codes = reading.nccl_runs[0].flag_codes()
    assert "nic_check_skipped" in codes and "busbw_above_nic_aggregate" not in codes
    flagged = _read(VARIANTS[5]).nccl_runs[0]
    (flag,) = [f for f in flagged.flags if f.code == "busbw_above_nic_aggregate"]
    # 250.40 x 30/16 = 469.50 GB/s > 400 GB/s, node count from the bid.
    assert "469.5 GB/s at 8 GiB" in flag.message and "from the bid" in flag.message


def test_rccl_starred_check_value_is_flagged() -> None:
    text = (FIXTURES / "rccl_all_gather_mi300x.log").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("  1073741824"))
    starred = text.replace(row, row[: row.rindex("0")] + "1*")
    (run,) = read_evidence(starred.encode(), "starred.log").nccl_runs
    assert {"error_starred", "wrong_nonzero"} <= set(run.flag_codes())
    assert run.rows[1].in_place.wrong == 1


def test_several_runs_in_one_file_are_each_addressable(capsys) -> None:
    # multiple_runs.log: an all_reduce run, then an all_gather run, 16 ranks each. The all_gather's
    # 8 GiB row prints algbw 187.08: busbw 187.08 x 15/16 = 175.39, printed 175.38 (rounding).
    multi = FIXTURES / "multiple_runs.log"
    reading = read_evidence(multi.read_bytes(), "multi.log")
    assert [run.collective for run in reading.nccl_runs] == ["all_reduce", "all_gather"]
    second = select_run(reading, 2)
    assert second.nccl_runs == (reading.nccl_runs[1],) and second.evidence == ()
    assert abs(second.nccl_runs[0].plateau.busbw_gb_s - 187.08 * 15 / 16) < 0.01
    first = select_run(reading, 1)
    assert (
        first.evidence == reading.evidence[:1] and first.evidence[0].value == 664.62
    )  # 354.46 x 30/16 = 664.61
    assert main(["evidence", "parse", str(multi), "--run", "2"]) == 0
    out = capsys.readouterr().out
    assert "Run 2 (line 35): all_gather" in out and "Run 1" not in out
    assert main(["evidence", "parse", str(multi), "--run", "9"]) == 2
    assert "run 9 asked for, the file holds 2 run(s)" in capsys.readouterr().err


def test_topology_reaches_the_evidence_description() -> None:
    (item,) = _read(VARIANTS[1]).evidence
    assert (
        "NCCL INFO: network IB, GPUDirect RDMA on, 32 coll channels, NVLS available"
        in item.description
    )


def test_a_log_without_nccl_info_lines_says_it_cannot_confirm_the_bids_fabric() -> None:
    """Issue 38 item 7: the public TCPXO log (tests/data/nccl-tests/public, no NCCL_DEBUG=INFO
    lines) attached to an InfiniBand bid is graded, but not without a word about the fabric."""
    log = (FIXTURES / "public" / "all_reduce_2x8xH100_tcpxo.log").read_bytes()
    assert b"NCCL INFO" not in log
    (run,) = read_evidence(log, "tcpxo.log", fabric=fabric_claim_of("IB-NDR400", True)).nccl_runs
    (flag,) = [f for f in run.flags if f.code == "fabric_unconfirmed"]
    assert "no NCCL_DEBUG=INFO lines" in flag.message and "IB-NDR400" in flag.message
    # Without a bid to hold it against there is no fabric to confirm, and no flag.
    (plain,) = read_evidence(log, "tcpxo.log").nccl_runs
    assert "fabric_unconfirmed" not in plain.flag_codes()


def test_a_run_over_gpudirect_tcpx_did_not_measure_an_infiniband_bid() -> None:
    text = (FIXTURES / "wiki_512m_ib_info.md").read_text(encoding="utf-8")
    tcpx = text.replace("Using network IB", "Using network GPUDirectTCPX").replace(
        "NET/IB", "NET/GPUDirectTCPX"
    )
    (run,) = read_evidence(
        tcpx.encode(), "tcpx.md", fabric=fabric_claim_of("IB-NDR400", True)
    ).nccl_runs
    assert run.topology.network == "GPUDirectTCPX"
    (flag,) = [f for f in run.flags if f.code == "other_fabric"]
    assert "runs over TCP-Ethernet" in flag.message and "IB-NDR400" in flag.message
    # The same run held against an Ethernet bid is what it says it is: no fabric flag.
    (ethernet,) = read_evidence(
        tcpx.encode(), "tcpx.md", fabric=fabric_claim_of("TCP-Ethernet", False)
    ).nccl_runs
    assert not {"other_fabric", "fabric_unconfirmed"} & set(ethernet.flag_codes())
