"""Hostile or oversized inputs are refused early: exit 2, a message naming the file and the
limit, and at most 1 s and 100 MB more than the same command on a small file (issue 18's bar),
measured on a separate process by `run_cli` (peak RSS from wait4)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hostile_files import run_cli, write_repeated, write_xlsx

from clusterbid.cli import main

MAX_EXTRA_SECONDS = 1.0
MAX_EXTRA_MB = 100.0


def _deep(folder: Path) -> Path:
    return write_repeated(folder / "deep.json", "", "[", 100_000, "]" * 100_000)


def _long_number(folder: Path) -> Path:
    return write_repeated(
        folder / "number.json", '[{"id": "a", "quote": {"provider": ', "9", 5_000, "}}]"
    )


def _sparse(folder: Path, name: str, size: int) -> Path:
    path = folder / name
    with path.open("wb") as out:
        out.truncate(size)  # a 300 MB file without writing 300 MB: only its size is ever looked at
    return path


def _tampered_document(folder: Path) -> Path:
    path = folder / "bad-utf8.clusterbid"
    assert main(["demo", str(path)]) == 0
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "UPDATE bid SET bid_json = CAST(? AS TEXT) WHERE position = 1", (b'{"id": "\xff"}',)
    )
    conn.close()
    return path


CASES = {
    "JSON nested 100,000 deep (bids)": (
        lambda d: ["import-bids", _deep(d).name],
        "nested too deeply",
    ),
    "JSON nested 100,000 deep (evaluation)": (
        lambda d: ["score", _deep(d).name],
        "nested too deeply",
    ),
    "JSON nested 100,000 deep (workload)": (
        lambda d: ["estimate", "--workload", _deep(d).name, "--bid", "deep.json"],
        "nested too deeply",
    ),
    "a 5,000-digit integer (bids)": (
        lambda d: ["import-bids", _long_number(d).name],
        "number that is too long",
    ),
    "a 5,000-digit integer (evaluation)": (
        lambda d: ["score", _long_number(d).name],
        "number that is too long",
    ),
    "a 300 MB workload JSON": (
        lambda d: [
            "estimate",
            "--workload",
            _sparse(d, "huge.json", 300_000_000).name,
            "--bid",
            "huge.json",
        ],
        "larger than the 16,777,216-byte limit",
    ),
    "a 60 MB JSON array": (
        lambda d: [
            "import-bids",
            write_repeated(d / "array.json", "[", "0,", 30_000_000, "0]").name,
        ],
        "over the 16,777,216-byte limit",
    ),
    "a 15 MB JSON array of tiny values": (
        lambda d: ["import-bids", write_repeated(d / "tiny.json", "[", "0,", 7_500_000, "0]").name],
        "the limit is 2,000,000",
    ),
    "an XLSX cell of 100 MB (3 MB zipped)": (
        lambda d: ["import-bids", write_xlsx(d / "cell.xlsx", 1, 1, 100_000_000).name],
        "cell A1 in xl/worksheets/sheet1.xml holds over 1,000 characters",
    ),
    "an XLSX of 9.5 million characters in cells under the cell limit": (
        lambda d: ["import-bids", write_xlsx(d / "many.xlsx", 5_000, 2, 950).name],
        "over 8,000,000 characters, the limit for one sheet",
    ),
    "a CSV header of a million columns": (
        lambda d: ["import-bids", write_repeated(d / "wide.csv", "", "c,", 1_000_000, "c\n").name],
        "line 1 is 2,000,001 characters long",
    ),
    "a JSON sheet nested 100,000 deep into a document": (
        lambda d: ["import", "doc.clusterbid", _deep(d).name],
        "nested too deeply",
    ),
    "a document holding invalid UTF-8": (
        lambda d: ["score", _tampered_document(d).name],
        "cannot be read",
    ),
    "a 300 MB file given as a memo to verify": (
        lambda d: ["verify", _sparse(d, "huge-memo.pdf", 300_000_000).name],
        "huge-memo.pdf: larger than 209,715,200 bytes; not a memo PDF",
    ),
    "a 300 MB file given as a memo to sign": (
        lambda d: [
            "sign",
            _sparse(d, "huge-sign.pdf", 300_000_000).name,
            "--field",
            "1",
            "--p12",
            "none.p12",
        ],
        "huge-sign.pdf: larger than 209,715,200 bytes; not a memo PDF",
    ),
}


@pytest.fixture(scope="module")
def small_sheet(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("baseline")
    assert main(["export-template", str(folder / "small.csv")]) == 0
    return folder


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_input_is_refused_cheaply(tmp_path, small_sheet, case):
    build, expected = CASES[case]
    assert main(["demo", str(tmp_path / "doc.clusterbid")]) == 0
    args = build(tmp_path)
    # The baseline is the same interpreter, imports and CLI on a small valid sheet; both are
    # measured in CPU seconds of the child, which a busy machine does not inflate.
    baseline = run_cli(["import-bids", "small.csv"], small_sheet)
    run = run_cli(args, tmp_path)
    assert run.exit_code == 2, run.stderr
    assert expected in run.stderr and "Traceback" not in run.stderr
    assert run.cpu_seconds < baseline.cpu_seconds + MAX_EXTRA_SECONDS, (
        f"{run.cpu_seconds:.2f} CPU s (baseline {baseline.cpu_seconds:.2f} CPU s)"
    )
    assert run.peak_rss_mb < baseline.peak_rss_mb + MAX_EXTRA_MB, (
        f"{run.peak_rss_mb:.0f} MB (baseline {baseline.peak_rss_mb:.0f} MB)"
    )
