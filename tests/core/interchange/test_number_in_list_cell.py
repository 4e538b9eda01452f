"""A number typed into a list cell of the XLSX template (a certifications cell holding 27001, say)
is a problem named by its cell and rule, never a traceback: the import passes the number on and
the bid model refuses it in words."""

from __future__ import annotations

import openpyxl

from clusterbid.core.interchange import import_bids, write_template_xlsx


def test_a_number_in_a_list_cell_is_a_problem_in_its_cell(tmp_path, bids, positions_of):
    path = write_template_xlsx(tmp_path / "bids.xlsx", bids[:1])
    column = positions_of(path)["facility.certifications"]
    workbook = openpyxl.load_workbook(path)
    workbook["Bids"].cell(row=2, column=column, value=27001)  # typed as a number, not text
    workbook.save(path)
    workbook.close()

    report = import_bids(path)

    assert not report.ok and not report.bids
    cells = [problem.cell for problem in report.problems]
    letter = openpyxl.utils.get_column_letter(column)
    assert f"{letter}2" in cells, report.as_text()
    problem = report.problems[cells.index(f"{letter}2")]
    assert problem.column == "facility.certifications"
    assert "27001" in problem.rule or "SOC2" in problem.rule, problem.rule
