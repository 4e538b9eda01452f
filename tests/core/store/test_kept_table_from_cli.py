"""Issue 32: a document made and changed only from the command line keeps the table its first
open paints (core/shown_scorecard.py) current, as the app does: written at each commit that
changes the evaluation, re-dated by a commit that only records something (a memo exported)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import bid_dict

from clusterbid.cli import main
from clusterbid.core.bid import Bid
from clusterbid.core.interchange import export_template
from clusterbid.core.shown_scorecard import read_shown
from clusterbid.core.store import EvaluationDocument

PUBLIC_LOG = (
    Path(__file__).parents[2] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)
# The README's demo table: Northwind leads; BudgetGPU and Fragment Cloud fail a gate.
DEMO_PROVIDERS = {
    "Northwind AI Cloud",
    "Cumulus Compute",
    "BudgetGPU",
    "Fragment Cloud",
    "Hyperscale Prime",
    "Legacy Compute",
}


def _kept(path: Path) -> dict:
    shown = read_shown(path)  # None unless kept at the document's current audit head
    assert shown is not None
    with EvaluationDocument.open(path) as document:
        evaluation = document.evaluation
    by_column = [dict(zip(shown["columns"], row)) for row in shown["rows"]]
    # Its current state: one row per bid it holds now, under the evaluation's title.
    assert sorted(row["Provider"] for row in by_column) == sorted(
        b.quote.provider for b in evaluation.bids
    )
    assert shown["title"] == evaluation.title
    return {"rows": by_column}


def test_a_document_made_and_edited_from_the_command_line_opens_on_its_current_table(
    tmp_path, capsys
):
    path = tmp_path / "cli-only.clusterbid"
    assert main(["new", str(path)]) == 0
    rows = _kept(path)["rows"]
    assert {row["Provider"] for row in rows} == DEMO_PROVIDERS
    assert rows[0]["Rank"] == "1" and rows[0]["Provider"] == "Northwind AI Cloud"
    assert {row["Provider"] for row in rows if row["Rank"] == "—"} == {
        "BudgetGPU",
        "Fragment Cloud",
    }
    assert all(
        row["P10–P90"] == "—" for row in rows
    )  # no Monte Carlo at a commit: "—" as the app before bands

    # An import: the new bid (a cheap copy of the demo's fabric and block) is in the kept table.
    cheap = Bid.model_validate(
        bid_dict(
            "cheap-one",
            quote={"provider": "Cheap One Cloud"},
            capacity={"gpus_offered": 576, "largest_contiguous_block_gpus": 576},
        )
    )
    sheet = export_template(tmp_path / "filled.xlsx", [cheap])
    assert main(["import", str(path), str(sheet)]) == 0
    assert "Cheap One Cloud" in {row["Provider"] for row in _kept(path)["rows"]}

    # Evidence attached: the bid's figures change, and so does what the first open paints.
    before = next(row for row in _kept(path)["rows"] if row["Provider"] == "Cumulus Compute")
    assert main(["evidence", "attach", str(path), "cumulus-roce", str(PUBLIC_LOG)]) == 0
    after = next(row for row in _kept(path)["rows"] if row["Provider"] == "Cumulus Compute")
    assert after != before

    # A memo exported is only a record: the audit head moves, the same table is kept at it.
    memo = tmp_path / "memo.pdf"
    assert (
        main(
            [
                "memo",
                str(path),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--samples",
                "0",
                "--tradeoff-rationale",
                "The cheaper bid came in after the scoring weights were agreed.",
            ]
        )
        == 0
    )
    assert next(r for r in _kept(path)["rows"] if r["Provider"] == "Cumulus Compute") == after


def test_a_table_kept_before_an_edit_made_elsewhere_is_never_shown(tmp_path):
    """An edit through a plain store (another program on the file) leaves no current table: the
    first open then scores as it always did instead of painting old figures."""
    path = tmp_path / "edited.clusterbid"
    assert main(["new", str(path)]) == 0
    assert read_shown(path) is not None
    with EvaluationDocument.open(path) as document:
        document.remove_bid("legacy-a100")
    assert read_shown(path) is None
