"""Logs as providers really post them (issue 36 item 8), each shape built from the real public
2 x 8 H100 log (tests/data/nccl-tests/public): its figures are known from the file itself and
from the design notes (16 ranks on 2 hosts, 31 size rows, peak busbw 338.82 GB/s at 8 GiB)."""

from __future__ import annotations

import pytest

from clusterbid.core.bid import Capacity
from clusterbid.core.evidence import EvidenceParseError, read_evidence
from clusterbid.core.evidence.nccl_raw import NodeCount
from clusterbid.core.evidence.nccl_text import read_nccl_tests_text
from clusterbid.operations.evidence_attach import ReadingOptions, read_evidence_file

GIB = 2**30
PEAK, ROWS = 338.82, 31  # the 8 GiB row's out-of-place busbw; 8 B .. 8 GiB doubling
# A3 Mega: 8 NICs x 200 Gb/s = 200 GB/s per node (as in test_nccl_real_log).
A3_MEGA_NIC_GB_S = 8 * 200 / 8


@pytest.fixture(scope="module")
def log_lines(real_log_bytes: bytes) -> list[str]:
    return real_log_bytes.decode("utf-8").split("\n")


def _row_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip()[:1].isdigit() and "float" in line]


def _plateau(text: str, **kwargs: object):
    runs, skipped = read_nccl_tests_text(text, "shape.log", **kwargs)
    return runs, skipped


def test_rows_without_check_columns_are_read_and_flagged_unchecked(log_lines: list[str]) -> None:
    # nccl-tests built without the data check: the header and each row lack both #wrong columns.
    lines = list(log_lines)
    header = next(i for i, line in enumerate(lines) if "#wrong" in line)
    lines[header] = lines[header].replace("#wrong", "")
    for i in _row_lines(lines):
        tokens = lines[i].split()
        del tokens[12], tokens[8]  # the two #wrong values (13 tokens: size .. busbw #wrong x 2)
        lines[i] = "  ".join(tokens)
    (run,), skipped = _plateau("\n".join(lines))
    assert skipped == []
    assert len(run.rows) == ROWS and run.ranks == 16
    assert (run.plateau.busbw_gb_s, run.plateau.size_bytes) == (PEAK, 8 * GIB)
    assert run.rows[-1].in_place.busbw_gb_s == 337.35  # the 8 GiB row's in-place figure
    assert "validation_off" in run.flag_codes()
    assert "busbw_formula_mismatch" not in run.flag_codes()  # 180.71 x 2 x 15/16 = 338.83 ~ 338.82


def test_prose_hundreds_of_lines_after_the_table_is_set_aside(log_lines: list[str]) -> None:
    filler = [f"Step {n}: checked the cabling of rack {n % 7}." for n in range(300)]
    # Digits, then a type name: shaped like a row, it used to fail the whole file.
    prose = "8 x float sum runs were repeated on the second day with the same result."
    lines = log_lines + filler + [prose]
    (run,), skipped = _plateau("\n".join(lines))
    assert (run.plateau.busbw_gb_s, len(run.rows)) == (PEAK, ROWS)
    prose_line = len(lines)
    assert [s.line for s in skipped] == [prose_line]
    assert f"line {prose_line}" in skipped[0].reason and "expected 13 columns" in skipped[0].reason


def test_prose_right_after_rows_without_footer_ends_the_table(log_lines: list[str]) -> None:
    last_row = _row_lines(log_lines)[-1]
    lines = log_lines[: last_row + 1] + ["2 nodes, 16 GPUs in all, measured on the first of May."]
    (run,), skipped = _plateau("\n".join(lines))
    assert len(run.rows) == ROWS and run.plateau.busbw_gb_s == PEAK
    assert [s.line for s in skipped] == [last_row + 2]
    assert "not a result row" in skipped[0].reason


def test_log_in_an_issue_page_indented_and_fenced(log_lines: list[str]) -> None:
    page = [
        "# all_reduce slower than expected on the new racks",
        "",
        "# size of the problem",
        "We see the numbers below:",
        "",
        "```",
    ]
    page += ["    " + line for line in log_lines] + ["```", "", "> 1. is this expected?"]
    (run,), skipped = _plateau("\n".join(page))
    assert run.ranks == 16 and run.hosts == ("ztan-mig-235z", "ztan-mig-gq73")
    assert (run.plateau.busbw_gb_s, len(run.rows)) == (PEAK, ROWS)
    # The markdown heading starting with "size" is no column header: noted, not fatal.
    assert [s.line for s in skipped] == [3] and "column header not understood" in skipped[0].reason


def test_several_tables_one_damaged_the_others_read(log_lines: list[str]) -> None:
    damaged = list(log_lines)
    cut = _row_lines(damaged)[19]  # the 4 MiB row, cut after its algbw
    damaged[cut] = " ".join(damaged[cut].split()[:7])
    text = "\n".join(damaged + ["", "Second attempt, after the fix:", ""] + log_lines)
    (run,), skipped = _plateau(text)
    assert run.first_line > len(damaged)  # the second table's, which is whole
    assert (run.plateau.busbw_gb_s, len(run.rows)) == (PEAK, ROWS)
    assert [s.line for s in skipped] == [cut + 1]
    assert "expected 13 columns" in skipped[0].reason and "set aside" in skipped[0].reason
    # Both whole: two runs, nothing set aside.
    runs, skipped = _plateau("\n".join(log_lines + log_lines))
    assert [r.plateau.busbw_gb_s for r in runs] == [PEAK, PEAK] and skipped == []


def test_no_usable_table_is_refused_with_the_first_problem(log_lines: list[str]) -> None:
    damaged = list(log_lines)
    cut = _row_lines(damaged)[19]
    damaged[cut] = " ".join(damaged[cut].split()[:7])
    with pytest.raises(
        EvidenceParseError, match=rf"line {cut + 1}: expected 13 columns .*1 more table"
    ):
        _plateau("\n".join(damaged + damaged))


def test_reading_reports_what_was_set_aside(log_lines: list[str]) -> None:
    text = "\n".join(log_lines + ["8 x float sum runs were repeated."])
    reading = read_evidence(text.encode(), "shape.log")
    assert [e.value for e in reading.evidence] == [PEAK]
    assert any(note.startswith(f"line {len(log_lines) + 1} set aside") for note in reading.notes)


def _without_ranks(lines: list[str]) -> bytes:
    """The log with its device list and launcher lines taken out: rank count unknown."""
    kept = [line for line in lines if "Rank" not in line and not line.startswith(">")]
    return "\n".join(kept).encode()


def test_log_without_ranks_is_scaled_by_the_officers_nodes(tmp_path, log_lines: list[str]) -> None:
    path = tmp_path / "no_ranks.log"
    path.write_bytes(_without_ranks(log_lines))
    capacity = Capacity(
        gpu_model="H100-SXM", gpus_offered=64, gpus_per_node=8, largest_contiguous_block_gpus=64
    )
    reading = read_evidence_file(path, ReadingOptions(nodes=2), capacity=capacity)
    (item,) = reading.evidence
    assert (item.value, item.scale_gpus) == (PEAK, 2 * 8)
    (run,) = reading.nccl_runs
    assert {"ranks_unknown", "ranks_from_nodes"} <= set(run.flag_codes())
    assert "ranks_from_nodes" in item.description
    # Without the officer's node count the figure has no scale and is not used.
    assert read_evidence_file(path, ReadingOptions(), capacity=capacity).evidence == ()


def test_nic_check_from_the_bids_node_count_when_the_log_is_silent(
    tmp_path, log_lines: list[str]
) -> None:
    path = tmp_path / "no_ranks.log"
    path.write_bytes(_without_ranks(log_lines))
    two_nodes = Capacity(
        gpu_model="H100-SXM", gpus_offered=16, gpus_per_node=8, largest_contiguous_block_gpus=16
    )
    options = ReadingOptions(nic_aggregate_gb_s=A3_MEGA_NIC_GB_S)
    (run,) = read_evidence_file(path, options, capacity=two_nodes).nccl_runs
    (flag,) = [f for f in run.flags if f.code == "busbw_above_nic_aggregate"]
    assert "338.82 GB/s" in flag.message and "the bid's node count (2 nodes" in flag.message
    # With neither the log's nor the bid's node count, the check says it could not run.
    (alone,) = read_evidence(
        path.read_bytes(), "no_ranks.log", nic_aggregate_gb_s=A3_MEGA_NIC_GB_S
    ).nccl_runs
    assert "nic_check_skipped" in alone.flag_codes()


def test_given_node_count_without_per_node_gpus_gives_no_figure(log_lines: list[str]) -> None:
    reading = read_evidence(
        _without_ranks(log_lines), "no_ranks.log", nodes=NodeCount(2, "the officer")
    )
    assert reading.evidence == () and any("rank count unknown" in note for note in reading.notes)


def test_a_file_of_tables_set_aside_stays_within_a_second_and_100_mb(
    tmp_path, real_log_bytes: bytes
) -> None:
    """Each table set aside costs a note: 4,000 broken tables (under the 4,096-row limit, which
    counts their rows too) and 100,000 headings that read like no header (most of the lines of the
    largest NCCL_DEBUG=INFO log of test_nccl_hostile), then the real log, are read in under a CPU
    second and 100 MB, with a bounded list of notes."""
    from test_nccl_hostile import _parse_cost  # CPU seconds and peak memory of a child process

    broken = "#size count type redop root time algbw busbw time algbw busbw\n1 1 int8 x\n"
    heading = "# size of the problem\n"
    headings = 100_000
    path = tmp_path / "broken_tables.log"
    path.write_bytes(broken.encode() * 4_000 + heading.encode() * headings + real_log_bytes)
    code, stderr, cpu, peak_mib = _parse_cost(path)
    assert code == 0, stderr
    assert cpu < 1.0 and peak_mib < 100, (cpu, peak_mib)
    reading = read_evidence(path.read_bytes(), "broken_tables.log")
    assert [e.value for e in reading.evidence] == [PEAK]
    set_aside = [n for n in reading.notes if "set aside" in n]
    assert (
        len(set_aside) == 21
        and set_aside[-1] == f"and {4_000 + headings - 20:,} more line(s) set aside"
    )
