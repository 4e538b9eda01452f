"""The memo's panel page: printed, in words, only when the document has a panel; verify renders
it again from the memo's own inputs."""

from __future__ import annotations

import io
import json

import pypdfium2 as pdfium
from pyhanko.pdf_utils.reader import PdfFileReader
from tests.core.panel.builders import make_panel
from tests.gui.test_no_codes_where_officers_read import _codes

from clusterbid.cli import main
from clusterbid.core.comparison_table import KeptTableDocument
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.operations import panel

SAMPLES = "300"


def _text(memo) -> str:
    pdf = pdfium.PdfDocument(str(memo))
    return "\n".join(pdf[n].get_textpage().get_text_range() for n in range(len(pdf)))


def _inputs(memo) -> dict:
    return json.loads(read_attached_inputs(PdfFileReader(io.BytesIO(memo.read_bytes()))).raw)


def _memo(document, memo) -> None:
    assert (
        main(
            [
                "memo",
                str(document),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                SAMPLES,
            ]
        )
        == 0
    )


def test_the_panel_page_says_who_agreed_and_how_disputes_were_settled(tmp_path, capsys):
    lead, copies = make_panel(tmp_path)
    panel.merge(lead, copies)
    panel.consensus(
        lead,
        "Technical approach",
        "northwind-ib",
        "6",
        "Scored again in the meeting against the fabric drawings",
        ["Ana Ruiz: the design review supports 9"],
        samples=300,
    )
    memo = tmp_path / "memo.pdf"
    _memo(lead, memo)
    text = " ".join(_text(memo).split())
    assert "Evaluation panel" in text
    for who in ("Ana Ruiz, Technical lead", "Ben Okafor, Commercial", "Chen Li, Programme lead"):
        assert f"{who}: judgement merged from" in text
    # Kendall's W 348/540 = 0.64 and the win shares, worked by hand in test_panel_by_hand.py.
    assert "Rank agreement (Kendall's W) 0.64 over 3 evaluators' rankings of 4 bids" in text
    assert "wins under 1 of 3 evaluators' weight sets (33%)" in text
    assert "Technical approach score of northwind-ib" in text
    assert "agreed: 6.0 of 10. Scored again in the meeting" in text
    assert (
        "Ana Ruiz dissents on the Technical approach score of northwind-ib: the design review "
        "supports 9" in text
    )
    page = text[text.index("Evaluation panel") :]
    assert _codes([("panel page", page), ("panel status", panel.status(lead, 300).text())]) == []
    inputs = _inputs(memo)
    assert inputs["rendering"]["panel"]["dissent"] == [
        "Ana Ruiz dissents on the Technical approach score of northwind-ib: the design review "
        "supports 9"
    ]
    capsys.readouterr()
    main(["verify", str(memo)])  # unsigned: not VALID, but its pages are proven against a re-render
    assert "identical to the memo as exported, byte for byte" in capsys.readouterr().out


def test_a_document_without_a_panel_gets_no_panel_page(tmp_path):
    document = tmp_path / "plain.clusterbid"
    KeptTableDocument.create(document, demo_evaluation()).close()
    memo = tmp_path / "memo.pdf"
    _memo(document, memo)
    assert "Evaluation panel" not in _text(memo)
    assert "panel" not in _inputs(memo)["rendering"]
