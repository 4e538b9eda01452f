"""Issue 30, items 1 and 8: PDFium draws a print-only layer only in print; the report leads with
the verdict; --explain lists every revision; --json carries the verdict."""

from __future__ import annotations

import json
from io import BytesIO

import pypdfium2
from reportlab.pdfgen import canvas
from tests.core.memo_signing import doctoring

from clusterbid.cli import main


def _blank_page() -> bytes:
    buffer = BytesIO()
    page = canvas.Canvas(buffer, pagesize=(200, 200), invariant=1)
    page.showPage()
    page.save()
    return buffer.getvalue()


def _dark_pixels(pdf: bytes, mode: str | None) -> int:
    document = pypdfium2.PdfDocument(pdf)
    grey = document[0].render(scale=1, grayscale=True, optimize_mode=mode).to_numpy()
    return int((grey < 128).sum())


def test_pdfium_draws_a_print_only_layer_in_print_and_not_on_screen():
    layered = doctoring.print_only_layer(_blank_page(), "PRINT ONLY", page=0, at=(20, 100))
    assert _dark_pixels(layered, None) == 0  # FPDF_PRINTING off: the View usage, the layer off
    assert _dark_pixels(layered, "print") > 50  # FPDF_PRINTING on: the Print usage, the layer on


def test_the_report_leads_with_the_verdict_and_explains_every_revision(
    capsys, pki, signed_twice, memo_file
):
    code = main(["verify", str(memo_file(signed_twice)), "--trust", str(pki.ca_pem), "--explain"])
    out = capsys.readouterr().out
    assert code == 0 and out.splitlines()[0].startswith("VALID: every page is proven")
    # The exported memo is reportlab's file plus pyHanko's update (attachments, empty fields);
    # each signature adds one revision: four in all, each with the check that covers it.
    assert "Revisions (4):" in out
    assert "revision 1, bytes 0-" in out and ": the pages as drawn" in out
    assert "signature field approver 1 filled" in out and "signature field approver 2 filled" in out
    assert out.count("checked by: the memo as exported: every page proven") == 2


def test_json_carries_the_indeterminate_verdict_and_its_exit_code(capsys, signed_twice, memo_file):
    code = main(["verify", str(memo_file(signed_twice)), "--json"])  # no trusted certificate
    report = json.loads(capsys.readouterr().out)
    assert code == 3 and report["verdict"] == "INDETERMINATE" and report["ok"] is False
    assert report["problems"] == [] and report["unproven"][0].startswith("signers not trusted")
