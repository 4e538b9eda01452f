"""Numbers too long for a float or for Python's int() are refused by name, never exit 70
(issue 35, item 4): a 400-digit GPU count in a scaling table, a 5,000-digit integer and a
400-digit figure in serving evidence, and a 5,000-digit row number in a document's recorded head."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from clusterbid.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "throughput"


def _run(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_400_digit_gpu_count_in_a_scaling_table_is_refused_with_its_line(tmp_path, capsys):
    lines = (DATA / "scaling.csv").read_text(encoding="utf-8").splitlines()
    first_row = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    cells = lines[first_row].split(",")
    lines[first_row] = ",".join(["9" * 400, *cells[1:]])
    table = tmp_path / "scaling.csv"
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = _run(capsys, "evidence", "parse", table)
    assert code == 2 and "internal error" not in out
    assert f"scaling.csv line {first_row + 1}: gpus must be above 0 and at most 1e+06" in out


def test_serving_evidence_with_a_5000_digit_integer_is_refused(tmp_path, capsys):
    run = tmp_path / "run.json"
    run.write_text(
        '{"output_throughput": 1200.5, "completed": ' + "9" * 5000 + "}", encoding="utf-8"
    )
    code, out = _run(capsys, "serving-evidence", "parse", "--gpus", "8", run)
    assert code == 2 and "internal error" not in out
    assert "run.json: holds a number that is too long" in out


def test_serving_evidence_with_a_figure_beyond_a_float_is_refused_naming_it(tmp_path, capsys):
    run = tmp_path / "run.json"
    run.write_text('{"output_throughput": ' + "9" * 400 + ', "completed": 10}', encoding="utf-8")
    code, out = _run(capsys, "serving-evidence", "parse", "--gpus", "8", run)
    assert (
        code == 2 and "output_throughput must be a positive number, found a 400-digit number" in out
    )


def test_a_5000_digit_row_number_in_the_recorded_head_fails_the_audit_in_words(tmp_path, capsys):
    document = tmp_path / "doc.clusterbid"
    assert main(["demo", str(document)]) == 0
    conn = sqlite3.connect(document, isolation_level=None)
    conn.execute(
        "UPDATE meta SET value = ? WHERE key = 'audit_head'", ("9" * 5000 + " " + "0" * 64,)
    )
    conn.close()
    capsys.readouterr()
    code, out = _run(capsys, "audit", document)
    assert code == 1 and "internal error" not in out
    assert "CHAIN BROKEN at row #1: the document's record of its last change is damaged" in out


def test_evidence_json_with_a_5000_digit_integer_says_the_number_is_too_long(tmp_path, capsys):
    # Both JSON evidence readers (nccl-tests -J and the throughput table) said only "ValueError".
    throughput = tmp_path / "throughput.json"
    throughput.write_text(
        '{"format": "clusterbid-throughput/1", "rows": [{"gpus": ' + "9" * 5000 + "}]}",
        encoding="utf-8",
    )
    nccl = tmp_path / "nccl.json"
    nccl.write_text('{"results": [{"size": ' + "9" * 5000 + "}]}", encoding="utf-8")
    for path, format_name in ((throughput, "throughput-json"), (nccl, "nccl-json")):
        code, out = _run(capsys, "evidence", "parse", "--format", format_name, path)
        assert code == 2 and "internal error" not in out
        assert f"{path.name}: holds a number that is too long" in out and "5000 digits" in out, out
