"""Issue 17 variants seen in the wild: a header without the last check title, node count from the launcher.

Variants of the public log are derived here from its bytes (tests/data/nccl-tests/public/SOURCES.md);
its expected plateau, 338.82 GB/s at 8 GiB, is the figure printed in the log's own 8 GiB row.
"""

from __future__ import annotations

import pytest

from clusterbid.core.evidence import parse_nccl_tests_text

HEADER = (
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time "
    "  algbw   busbw #wrong"
)


def _rows() -> str:
    # 16 ranks, all_reduce: busbw = algbw * 2 * 15 / 16; algbw 250.67 GB/s -> busbw 470.01 GB/s;
    # time (us) = size / (250.67e9 B/s) * 1e6.
    lines = []
    for size, time_us in ((2**30, 4283.5), (2**31, 8567.0), (2**32, 17134.0), (2**33, 34268.1)):
        half = f"{time_us:8.1f}  250.67  470.01      0"
        lines.append(f"  {size:>11}  {size // 4:>12}     float     sum      -1  {half}  {half}")
    return "\n".join(lines)


def _log(command: str) -> str:
    return (
        f"{command}\n# nThread 1 nGpus 1 minBytes 1073741824 maxBytes "
        f"8589934592\n{HEADER}\n{_rows()}\n"
        "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 470.01\n"
    )


def test_header_without_trailing_wrong_title_reads_like_the_full_header(
    real_log_bytes: bytes,
) -> None:
    text = real_log_bytes.decode("utf-8")
    full = "busbw #wrong     time   algbw   busbw #wrong"
    assert full in text
    (run,) = parse_nccl_tests_text(
        text.replace(full, full.removesuffix(" #wrong")), "old-build.log"
    )
    assert (run.plateau.busbw_gb_s, run.plateau.size_bytes) == (338.82, 8 * 2**30)
    assert all(row.in_place.wrong == 0 for row in run.rows)


@pytest.mark.parametrize("command", [
    "$ srun --nodes=2 --ntasks-per-node=8 ./build/all_reduce_perf -b 1G -e 8G -f 2 -g 1",
    "> mpirun --hostfile hosts \\\n>    -np 16 \\\n>    -npernode 8 \\\n>    "
    "./build/all_reduce_perf -b 1G -e 8G -f 2",
    "torchrun --nnodes 2 --nproc-per-node 8 all_reduce_perf -b 1G -e 8G",
])  # fmt: skip
def test_two_nodes_from_the_command_line_flag_busbw_above_the_nic_aggregate(command: str) -> None:
    (run,) = parse_nccl_tests_text(_log(command), "h100.log", nic_aggregate_gb_s=400)
    assert run.ranks is None  # no rank list: the node count can only come from the command line
    (flag,) = [f for f in run.flags if f.code == "busbw_above_nic_aggregate"]
    assert "470.01 GB/s" in flag.message and "from the log's command line" in flag.message


@pytest.mark.parametrize(
    "command",
    [
        "$ ./build/all_reduce_perf -b 1G -e 8G -f 2 -g 8",  # one node, or unknown: no 2-node claim
        "$ mpirun -np 24 -npernode 8 ./build/all_reduce_perf -b 1G -e 8G",  # 3 nodes
    ],
)
def test_no_nic_flag_without_a_two_node_count(command: str) -> None:
    (run,) = parse_nccl_tests_text(_log(command), "h100.log", nic_aggregate_gb_s=400)
    assert "busbw_above_nic_aggregate" not in {f.code for f in run.flags}


def test_rank_list_wins_and_is_named(real_log_bytes: bytes) -> None:
    (run,) = parse_nccl_tests_text(
        real_log_bytes.decode("utf-8"), "real.log", nic_aggregate_gb_s=300
    )
    (flag,) = [f for f in run.flags if f.code == "busbw_above_nic_aggregate"]
    assert "338.82 GB/s" in flag.message and "from the log's rank list" in flag.message
