"""Template out, filled rows in: the same Bid objects come back from XLSX, CSV and JSON."""

from __future__ import annotations

import csv
import json
from decimal import Decimal

import openpyxl
import pytest

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.interchange import import_bids, write_template_csv, write_template_xlsx


def _typed_by_provider(value):
    """What a person typing into Excel stores: numbers as numbers, yes/no text, lists joined by ';'."""
    if isinstance(value, bool):
        return "Yes" if value else "no"
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return "; ".join(value)
    return value


def _figures(bids) -> list[dict]:
    """Bids without provenance: a sheet cell filled with a default value is the provider's (issue 14),
    where the original bid had taken the default, so only the figures must survive the round trip."""
    return [b.model_dump(exclude={"provenance"}) for b in bids]


def _flat(bid: Bid) -> dict[str, object]:
    data = bid.model_dump(
        exclude={"evidence", "provenance", "delivery"}
    )  # delivery: JSON and wizard only
    flat = {"id": data.pop("id")}
    for section, fields in data.items():
        for name, value in fields.items():
            flat[f"{section}.{name}"] = value
    return flat


def test_filled_xlsx_template_imports_the_same_bids(tmp_path, bids, positions_of):
    template = write_template_xlsx(tmp_path / "template.xlsx")
    positions = positions_of(template)
    workbook = openpyxl.load_workbook(template)
    sheet = workbook["Bids"]
    for row, bid in enumerate(bids, start=2):
        for key, value in _flat(bid).items():
            if value is not None and value != ():
                sheet.cell(row=row, column=positions[key], value=_typed_by_provider(value))
    workbook.save(tmp_path / "filled.xlsx")

    report = import_bids(tmp_path / "filled.xlsx")

    assert report.problems == ()
    # Provenance may differ: a cell the sheet filled is the provider's even where the original took a default.
    assert _figures(report.bids) == _figures(bids)
    assert report.rows_read == 3


def test_every_bid_field_except_evidence_has_a_column(tmp_path, bids, positions_of):
    template = write_template_xlsx(tmp_path / "template.xlsx")
    # ... and each figure a provider may omit has a source column (issue 14).
    sources = {f"source.{path}" for path in bids[0].provenance}
    assert len(sources) == 9  # issue 31: the exit fee and escalation have a source column too
    assert set(positions_of(template)) == set(_flat(bids[0])) | sources


def test_prefilled_xlsx_template_round_trips(tmp_path, bids):
    path = write_template_xlsx(tmp_path / "bids.xlsx", bids)
    # With the source columns, provenance comes back too (default stays default).
    assert [b.model_dump() for b in import_bids(path).bids] == [b.model_dump() for b in bids]


def test_csv_template_round_trips(tmp_path, bids):
    path = write_template_csv(tmp_path / "bids.csv", bids)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    report = import_bids(path)
    assert report.problems == ()
    assert _figures(report.bids) == _figures(bids)


@pytest.mark.parametrize(
    ("delimiter", "encoding"), [(";", "utf-8-sig"), (",", "utf-8"), (";", "utf-8")]
)
def test_csv_with_or_without_bom_and_either_delimiter(tmp_path, bids, delimiter, encoding):
    keys = list(_flat(bids[0]))
    path = tmp_path / "filled.csv"
    with path.open("w", encoding=encoding, newline="") as stream:
        writer = csv.writer(stream, delimiter=delimiter)
        writer.writerow(keys)  # bare dotted keys, without the unit suffix, are accepted too
        for bid in bids:
            flat = _flat(bid)
            writer.writerow(["" if flat[k] is None else _text(flat[k]) for k in keys])
    report = import_bids(path)
    assert report.problems == ()
    assert _figures(report.bids) == _figures(bids)


def _text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ";".join(value)
    return str(value)


def test_json_list_and_evaluation_bids(tmp_path, bids):
    as_list = tmp_path / "bids.json"
    as_list.write_text(json.dumps([bid.model_dump(mode="json") for bid in bids]), encoding="utf-8")
    evaluation = tmp_path / "evaluation.json"
    evaluation.write_text(
        json.dumps({"title": "Round 1", "bids": [b.model_dump(mode="json") for b in bids]})
    )
    assert list(import_bids(as_list).bids) == bids
    assert list(import_bids(evaluation).bids) == bids


def test_template_has_validation_lists_instructions_and_frozen_header(tmp_path, positions_of):
    path = write_template_xlsx(tmp_path / "template.xlsx")
    positions = positions_of(path)
    workbook = openpyxl.load_workbook(path)
    bids_sheet, lists = workbook["Bids"], workbook["Lists"]
    assert workbook.sheetnames[:2] == ["Bids", "Instructions"]
    assert lists.sheet_state == "hidden"
    assert bids_sheet.freeze_panes == "B2"
    rules = {}
    for rule in bids_sheet.data_validations.dataValidation:
        for cell_range in rule.sqref.ranges:
            rules[cell_range.min_col] = rule
    gpu_rule = rules[positions["capacity.gpu_model"]]
    assert gpu_rule.type == "list"
    sheet_name, _, cells = gpu_rule.formula1.partition("!")
    listed = [c.value for row in lists[cells.replace("$", "")] for c in row]
    assert sheet_name == "Lists" and listed == list(default_catalog().gpus)
    fabric_rule = rules[positions["fabric.technology"]]
    listed = [
        c.value
        for row in lists[fabric_rule.formula1.partition("!")[2].replace("$", "")]
        for c in row
    ]
    assert listed == list(default_catalog().fabrics)
    kind_rule = rules[positions["topology.kind"]]
    listed = [
        c.value for row in lists[kind_rule.formula1.partition("!")[2].replace("$", "")] for c in row
    ]
    assert listed == ["fat-tree", "rail-optimised", "dragonfly", "other"]
    assert rules[positions["fabric.sharp"]].formula1 == '"yes,no"'
    per_node = rules[positions["capacity.gpus_per_node"]]
    assert (per_node.type, per_node.formula1, per_node.formula2) == ("whole", "1", "72")
    instructions = [[c.value for c in row] for row in workbook["Instructions"].iter_rows()]
    described = {row[1]: row for row in instructions if row and row[1]}
    price = described["terms.price_per_gpu_hour [currency/GPU-h]"]
    assert "Price per GPU-hour" in price[2] and "required" in price[4]
    assert "8 for HGX" in described["topology.nvlink_domain_gpus [GPUs]"][2]
