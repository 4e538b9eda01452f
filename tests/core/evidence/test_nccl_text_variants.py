"""Every text layout nccl-tests has printed, from the hand-written fixtures in tests/data."""

from __future__ import annotations

import pytest
from nccl_fixture_files import fixture_text

from clusterbid.core.evidence import EvidenceParseError, parse_nccl_tests_text, to_evidence
from clusterbid.core.evidence.model import EvidenceGrade


def parse(name: str, **kwargs: object):
    return parse_nccl_tests_text(fixture_text(name), name, **kwargs)


def test_old_format_error_column_without_root() -> None:
    (run,) = parse("old_error_no_root.log")
    assert run.collective == "all_reduce" and run.ranks == 8 and run.hosts == ("dgx1-01",)
    assert run.gpu_model == "Tesla V100-SXM2-32GB"  # old rank lines have no "Group"
    last = run.rows[-1]  # last row: 1073741824 268435456 float sum 7789.4 137.85 241.23 0e+00 ...
    assert last.root is None and last.redop == "sum"
    assert last.out_of_place.max_error == 0.0 and last.out_of_place.wrong is None
    assert run.plateau is not None and (run.plateau.busbw_gb_s, run.plateau.size_bytes) == (
        241.23,
        2**30,
    )
    assert run.flags == ()


def test_wrong_column_na_means_unchecked() -> None:
    (run,) = parse("wrong_na.log")
    assert all(r.out_of_place.wrong is None and r.in_place.wrong is None for r in run.rows)
    assert run.flag_codes() == ("validation_off",)
    assert run.nccl_tests_version == "2.13.10"


def test_exponent_times() -> None:
    (run,) = parse("exponent_values.log")
    # row 4 prints its time as 1.1e+07 (8 GiB at 0.81 GB/s = 8589934592 / 0.81e3 us ~ 1.06e7)
    assert run.rows[3].out_of_place.time_us == 1.1e7 and run.rows[4].in_place.time_us == 2.1e7
    assert run.ranks == 2 and len(run.hosts) == 2
    # busbw == algbw for 2 ranks (2(n-1)/n = 1); 0.81 at every size >= 1 GiB, first wins.
    assert (
        run.plateau is not None
        and run.plateau.busbw_gb_s == 0.81
        and run.plateau.size_bytes == 2**30
    )
    assert (
        "busbw_above_nic_aggregate"
        not in parse("exponent_values.log", nic_aggregate_gb_s=25)[0].flag_codes()
    )


def test_nccl_info_lines_interleaved() -> None:
    (run,) = parse("nccl_info_interleaved.log")
    assert (
        len(run.rows) == 5 and run.ranks == 4
    )  # 16M, 64M, 256M, 1G, 4G despite INFO/WARN lines between
    assert [r.size_bytes for r in run.rows] == [2**24, 2**26, 2**28, 2**30, 2**32]
    assert run.flags == ()


def test_markdown_fence_and_indentation() -> None:
    (run,) = parse("markdown_fenced.md")
    assert run.collective == "all_reduce" and run.ranks == 4 and len(run.rows) == 6
    assert run.plateau is not None and run.plateau.busbw_gb_s == 56.78  # last row, out-of-place


def test_quoted_with_markdown_blockquote() -> None:
    quoted = "\n".join("> " + line for line in fixture_text("old_error_no_root.log").split("\n"))
    (run,) = parse_nccl_tests_text(quoted, "quoted.md")
    assert len(run.rows) == 6 and run.ranks == 8


def test_launcher_prefixes() -> None:
    tagged = "\n".join("[1,0]<stdout>:" + line for line in fixture_text("wrong_na.log").split("\n"))
    (run,) = parse_nccl_tests_text(tagged, "tagged.log")
    assert len(run.rows) == 3 and run.ranks == 8


def test_no_prelude_infers_collective_and_flags_unknown_ranks() -> None:
    (run,) = parse("no_prelude.log")
    # count x 4 bytes == size and redop sum, root -1: only all_reduce prints that
    assert run.collective == "all_reduce" and run.collective_from == "columns"
    assert run.ranks is None and run.hosts == () and run.flag_codes() == ("ranks_unknown",)
    with pytest.raises(ValueError, match="no '#  Rank' lines"):
        to_evidence(
            run,
            grade=EvidenceGrade.PROVIDER_CLAIM,
            measured_by="provider",
            artefact_sha256=None,
            artefact_name=None,
        )
    evidence = to_evidence(run, grade=EvidenceGrade.PROVIDER_CLAIM, measured_by="provider",
                           artefact_sha256=None, artefact_name=None, scale_gpus=8)  # fmt: skip
    assert evidence.scale_gpus == 8


def test_rows_only_paste_without_header() -> None:
    rows = [line for line in fixture_text("no_prelude.log").split("\n") if line[:1] == " "]
    (run,) = parse_nccl_tests_text("\n".join(rows), "rows.txt", collective_hint="all_reduce")
    assert len(run.rows) == 6 and run.collective_from == "hint"
    assert "missing_footer" in run.flag_codes()


def test_multiple_runs_in_one_file() -> None:
    first, second = parse("multiple_runs.log")
    assert (first.collective, second.collective) == ("all_reduce", "all_gather")
    assert (
        first.first_line == 1
        and second.first_line is not None
        and second.first_line > first.rows[-1].line
    )
    assert len(first.rows) == len(second.rows) == 4 and first.ranks == second.ranks == 16
    assert first.flags == () and second.flags == ()


def test_all_gather_alltoall_broadcast() -> None:
    (gather,) = parse("all_gather.log")
    assert gather.collective == "all_gather" and len(gather.hosts) == 8
    # all_gather prints the per-rank count: 8589934592 B / 4 B / 8 ranks = 268435456
    assert gather.rows[-1].count == 268435456 and gather.rows[-1].redop == "none"
    (alltoall,) = parse("alltoall.log")
    assert (
        alltoall.collective == "alltoall"
        and alltoall.gpu_model == "NVIDIA B200"
        and alltoall.flags == ()
    )
    (broadcast,) = parse("broadcast.log")
    assert broadcast.collective == "broadcast" and {r.root for r in broadcast.rows} == {0}
    assert broadcast.flags == ()  # busbw == algbw for broadcast, checked on every row


def test_columns_cannot_tell_all_gather_from_alltoall() -> None:
    text = "\n".join(l for l in fixture_text("alltoall.log").split("\n") if "_perf" not in l)
    (run,) = parse_nccl_tests_text(text, "alltoall-nocmd.log")
    assert run.collective is None and "collective_unknown" in run.flag_codes()
    (hinted,) = parse_nccl_tests_text(text, "alltoall-nocmd.log", collective_hint="alltoall")
    assert hinted.collective == "alltoall" and hinted.flags == ()


def test_truncated_file_names_the_line() -> None:
    with pytest.raises(
        EvidenceParseError,
        match=r"^truncated\.log line 61: expected 13 columns .* found 7 .*truncated",
    ):
        parse("truncated.log")


def test_malformed_row_names_line_and_columns() -> None:
    expected = ("malformed_row.log line 49: expected 13 columns (size count type redop root time algbw busbw "
                "#wrong time algbw busbw #wrong), found 7")  # fmt: skip
    with pytest.raises(EvidenceParseError) as caught:
        parse("malformed_row.log")
    assert str(caught.value) == expected and caught.value.line == 49


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "no nccl-tests result rows"),
        ("hello\nworld\n", "no nccl-tests result rows"),
        ("# Avg bus bandwidth    : 70.742 \n", "only the '# Avg bus bandwidth' summary"),
        ("#  size count type foo\n", "line 1: column header not understood"),
        (
            "# Out of bounds values : many\n",
            "line 1: '# Out of bounds values' is not followed by a count",
        ),
    ],
)
def test_clear_messages(text: str, problem: str) -> None:
    with pytest.raises(EvidenceParseError, match=problem):
        parse_nccl_tests_text(text, "x.log")


def test_red_flags_from_edited_values() -> None:
    base = fixture_text("wrong_na.log")
    # Stop the sweep at 256 MiB: no plateau.
    short = "\n".join(
        l for l in base.split("\n") if not l.lstrip().startswith(("1073741824", "4294967296"))
    )
    assert "sweep_below_1gib" in parse_nccl_tests_text(short, "short.log")[0].flag_codes()
    # Inflate one busbw: 2(n-1)/n no longer holds for 8 ranks.
    edited = fixture_text("old_error_no_root.log").replace("241.23", "299.99")
    assert "busbw_formula_mismatch" in parse_nccl_tests_text(edited, "edited.log")[0].flag_codes()
    failed = fixture_text("broadcast.log").replace(
        "# Out of bounds values : 0 OK", "# Out of bounds values : 3 FAILED"
    )
    failed = failed.replace("282.35       0", "282.35      12", 1)
    codes = parse_nccl_tests_text(failed, "failed.log")[0].flag_codes()
    assert "out_of_bounds" in codes and "wrong_nonzero" in codes
