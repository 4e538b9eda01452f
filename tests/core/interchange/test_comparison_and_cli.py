"""Comparison export layout, header parsing, and the export-template / import-bids CLI verbs."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from decimal import Decimal

import openpyxl
import pytest

from clusterbid.cli import main
from clusterbid.core.interchange import bid_columns, export_table, parse_header, write_template_csv


def test_comparison_xlsx_keeps_types_and_column_order(tmp_path):
    rows = [
        {"bid": "acme-1", "cost to finish": Decimal("1234567.50"), "rank": 1, "meets SLA": True},
        {"bid": "beta.2", "rank": 2, "start": dt.date(2026, 6, 1), "meets SLA": False},
    ]
    path = export_table(tmp_path / "cmp.xlsx", rows, "Round 1: GPU cluster / 2026")
    sheet = openpyxl.load_workbook(path).active
    assert sheet.title == "Round 1  GPU cluster   2026"[:31]
    assert sheet["A1"].value == "Round 1: GPU cluster / 2026"
    assert [c.value for c in sheet[3]] == ["bid", "cost to finish", "rank", "meets SLA", "start"]
    assert [c.value for c in sheet[4]] == ["acme-1", 1234567.5, 1, True, None]
    assert sheet["E5"].value == dt.datetime(2026, 6, 1)
    assert sheet.freeze_panes == "A4"


def test_comparison_csv_with_explicit_columns(tmp_path):
    rows = [{"bid": "acme-1", "score": 81.25, "note": "ok"}, {"bid": "beta.2", "score": 77.0}]
    path = export_table(tmp_path / "cmp.csv", rows, "Round 1", columns=["score", "bid"])
    lines = list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig"), newline="")))
    assert lines == [["Round 1"], [], ["score", "bid"], ["81.25", "acme-1"], ["77.0", "beta.2"]]


def test_headers_parse_back_to_their_keys():
    for column in bid_columns():
        assert parse_header(column.header) == column.key
        assert parse_header(f"  {column.key}  ") == column.key
    price = next(c for c in bid_columns() if c.key == "terms.price_per_gpu_hour")
    assert price.header == "terms.price_per_gpu_hour [currency/GPU-h]"
    assert parse_header("Price (USD)") is None


def _run(*argv: str) -> int:
    # Through the command line's own entry point: it words every refusal (cli.main)
    return main(list(argv))


def test_cli_exports_a_template_and_checks_filled_ones(tmp_path, bids, capsys):
    assert _run("export-template", str(tmp_path / "blank.xlsx")) == 0
    assert (tmp_path / "blank.xlsx").exists()
    good = write_template_csv(tmp_path / "good.csv", bids)
    assert _run("import-bids", str(good)) == 0
    assert "3 bid(s) imported" in capsys.readouterr().out

    text = good.read_bytes().decode("utf-8-sig").replace("acme-1,", "beta.2,", 1)
    dup = tmp_path / "dup.csv"
    dup.write_text(text, encoding="utf-8")
    assert _run("import-bids", str(dup), "--valid-rows-only", "--json") == 2
    report = json.loads(capsys.readouterr().out)
    assert [(p["row"], p["column"]) for p in report["problems"]] == [(3, "id")]
    assert [b["id"] for b in report["bids"]] == ["beta.2", "gamma_3"]


@pytest.mark.parametrize("name", ["junk.xlsx", "junk.ods", "absent.csv"])
def test_cli_refuses_bad_files_with_a_message_not_a_traceback(tmp_path, capsys, name):
    if name != "absent.csv":
        (tmp_path / name).write_bytes(b"\x00\x01 not a spreadsheet")
    assert _run("import-bids", str(tmp_path / name)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"clusterbid: error: {name}") and "Traceback" not in err
