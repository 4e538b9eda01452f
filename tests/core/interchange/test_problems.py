"""Every problem kind is reported at its sheet, Excel row, column and cell, in plain words."""

from __future__ import annotations

import json

import openpyxl
import pytest

from clusterbid.core.interchange import import_bids, write_template_xlsx
from clusterbid.core.interchange.columns import column_letter


@pytest.fixture
def filled(tmp_path, bids, positions_of):
    """Write the three valid bids into a template, then let the test break cells: edit(row, key, value)."""
    path = write_template_xlsx(tmp_path / "bids.xlsx", bids)
    positions = positions_of(path)
    workbook = openpyxl.load_workbook(path)
    sheet = workbook["Bids"]

    def edit(row: int, key: str, value) -> str:
        sheet.cell(
            row=row, column=positions[key]
        ).value = value  # cell(value=None) would not clear it
        return f"{column_letter(positions[key] - 1)}{row}"

    def save():
        workbook.save(path)
        return path

    edit.save = save
    edit.sheet = sheet
    return edit


def only_problem(report):
    assert len(report.problems) == 1, [str(p) for p in report.problems]
    return report.problems[0]


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("capacity.gpus_offered", "lots", "'lots' is not a whole number"),
        ("capacity.gpus_per_node", 96, "96 is above the maximum 72"),
        ("capacity.spare_pool_gpus", -8, "-8 is below the minimum 0"),
        ("reliability.storage_write_gb_s", 0, "0 must be above 0"),
        ("capacity.gpu_model", "H999", "unknown GPU model 'H999'"),
        ("fabric.sharp", "maybe", "'maybe' is not yes or no"),
        ("quote.valid_until", "next week", "'next week' is not a date"),
        ("topology.kind", "torus", "'torus' is not one of"),
        ("terms.currency", "usd", "does not match"),
        ("terms.price_per_gpu_hour", 2.123456, "more than 4 decimal places"),
        ("facility.certifications", "SOC2;ISO9001", "'ISO9001' is not one of"),
        ("id", "bad id!", "does not match"),
        ("quote.provider", None, "required, but the cell is empty"),
    ],
)
def test_cell_problem_is_located_and_explained(filled, key, value, words):
    cell = filled(3, key, value)
    report = import_bids(filled.save())
    problem = only_problem(report)
    assert (problem.sheet, problem.row, problem.column, problem.cell) == ("Bids", 3, key, cell)
    assert words in problem.rule
    assert str(problem).startswith(f"Bids!{cell} ({key}): ")


def test_cross_field_rule_is_blamed_on_the_named_column(filled):
    cell = filled(2, "capacity.largest_contiguous_block_gpus", 640)  # the bid offers 512
    problem = only_problem(import_bids(filled.save()))
    assert (problem.row, problem.column, problem.cell) == (
        2,
        "capacity.largest_contiguous_block_gpus",
        cell,
    )
    assert "640" in problem.rule and "512" in problem.rule


def test_cross_section_rule_is_blamed_on_the_named_column(filled):
    cell = filled(
        2, "topology.nvlink_domain_gpus", 16
    )  # H100 HGX boards have 8 GPUs per NVLink domain
    problem = only_problem(import_bids(filled.save()))
    assert (problem.column, problem.cell) == ("topology.nvlink_domain_gpus", cell)


def test_several_problems_in_several_rows_are_all_listed(filled):
    first = filled(2, "capacity.gpus_per_node", 0)
    second = filled(4, "fabric.nics_per_node", "eight")
    third = filled(4, "reliability.uptime_sla_percent", 80)
    report = import_bids(filled.save())
    assert [(p.row, p.cell) for p in report.problems] == [(2, first), (4, second), (4, third)]
    assert report.rejected_rows == (2, 4)


def test_all_or_nothing_by_default_and_valid_rows_only_on_request(filled, bids):
    filled(3, "capacity.gpus_offered", 0)
    path = filled.save()
    strict = import_bids(path)
    assert strict.bids == () and not strict.ok
    lenient = import_bids(path, valid_rows_only=True)
    assert list(lenient.bids) == [bids[0], bids[2]]
    assert [p.row for p in lenient.problems] == [3]


def test_duplicate_ids_are_a_problem_even_when_the_first_row_is_invalid(filled, bids):
    filled(2, "capacity.gpus_offered", 0)
    cell = filled(4, "id", bids[0].id)
    report = import_bids(filled.save(), valid_rows_only=True)
    duplicate = [p for p in report.problems if p.column == "id"]
    assert [(p.row, p.cell) for p in duplicate] == [(4, cell)]
    assert "row 2" in duplicate[0].rule
    assert [b.id for b in report.bids] == [bids[1].id]


def test_a_provider_differing_only_by_a_direction_mark_is_found_in_the_sheet_alone(filled, bids):
    # Row 4 spells row 2's provider with a right-to-left mark after it: it prints the same, and an
    # evaluation would refuse the pair; checking the sheet on its own says so by row and cell.
    cell = filled(4, "quote.provider", bids[0].quote.provider + "\u200f")
    report = import_bids(filled.save(), valid_rows_only=True)
    alike = only_problem(report)
    assert (alike.row, alike.cell, alike.column) == (4, cell, "quote.provider")
    assert "looks the same as row 2's" in alike.rule and "U+200F" in alike.rule
    assert [b.id for b in report.bids] == [bids[0].id, bids[1].id]


def test_value_under_no_header_is_a_problem(filled):
    sheet = filled.sheet
    stray = sheet.max_column + 2
    sheet.cell(row=3, column=stray, value="note")
    problem = only_problem(import_bids(filled.save()))
    assert (problem.row, problem.cell) == (3, f"{column_letter(stray - 1)}3")


def test_header_problems_stop_the_import_even_with_valid_rows_only(filled, positions_of):
    sheet = filled.sheet
    price_col = positions_of(filled.save())["terms.price_per_gpu_hour"]
    sheet.cell(
        row=1, column=price_col, value="price"
    )  # unknown header, so the required column is gone
    sheet.cell(row=1, column=sheet.max_column + 1, value="fabric.sharp")  # appears twice now
    report = import_bids(filled.save(), valid_rows_only=True)
    assert report.bids == ()
    found = {(p.row, p.column, p.cell) for p in report.problems}
    assert (1, None, f"{column_letter(price_col - 1)}1") in found
    assert (1, "terms.price_per_gpu_hour", None) in found
    assert any(p.column == "fabric.sharp" and "twice" in p.rule for p in report.problems)


def test_empty_template_is_reported(tmp_path):
    report = import_bids(write_template_xlsx(tmp_path / "empty.xlsx"))
    assert not report.ok and "no bids" in report.problems[0].rule


def test_csv_problems_use_the_file_name_as_sheet(tmp_path, bids):
    from clusterbid.core.interchange import write_template_csv

    path = write_template_csv(tmp_path / "offers.csv", bids)
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    header = lines[0].split(",")
    index = next(i for i, h in enumerate(header) if h.startswith("capacity.gpus_per_node"))
    cells = lines[2].split(",")
    cells[index] = "7"  # 1024 GPUs are not whole nodes of 7
    lines[2] = ",".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")
    report = import_bids(path)
    locations = {(p.sheet, p.row) for p in report.problems}
    assert locations == {("offers.csv", 3)}
    assert all(p.cell and p.cell.endswith("3") for p in report.problems)


def test_json_problems_name_the_bid_and_field(tmp_path, bids):
    items = [bid.model_dump(mode="json") for bid in bids]
    items[1]["capacity"]["gpus_per_node"] = 100
    items[2]["id"] = items[0]["id"]
    path = tmp_path / "bids.json"
    path.write_text(json.dumps(items))
    report = import_bids(path)
    assert [(p.row, p.column) for p in report.problems] == [
        (2, "capacity.gpus_per_node"),
        (3, "id"),
    ]
    assert str(report.problems[0]).startswith(
        "bid 2 (capacity.gpus_per_node): 100 is above the maximum 72"
    )
    assert report.bids == ()
