"""`demo`, `import`, `export` and `score` on .clusterbid documents, all-or-nothing imports."""

from __future__ import annotations

import csv
import json

from tests.conftest import bid_dict

from clusterbid.cli import main
from clusterbid.core.bid import Bid
from clusterbid.core.interchange import export_template
from clusterbid.core.store import EvaluationDocument, verify_audit_chain


def _new_bids(*ids: str) -> list[Bid]:
    return [
        Bid.model_validate(
            bid_dict(i, capacity={"gpus_offered": 576, "largest_contiguous_block_gpus": 576})
        )
        for i in ids
    ]


def test_import_filled_template_then_score_and_export(tmp_path, capsys):
    document = tmp_path / "round.clusterbid"
    assert main(["demo", str(document)]) == 0
    sheet = export_template(tmp_path / "filled.xlsx", _new_bids("new-a", "new-b"))
    assert main(["import", str(document), str(sheet), "--user", "officer"]) == 0
    with EvaluationDocument.open(document) as doc:
        ids = [b.id for b in doc.evaluation.bids]
    assert ids[-2:] == ["new-a", "new-b"] and len(ids) == 6 + 2
    report = verify_audit_chain(document)
    # One import, one audit row holding both bids.
    assert report.ok and report.rows[-1].action == "edit" and report.rows[-2].action == "create"
    assert [s["target"] for s in json.loads(report.rows[-1].new_json)["steps"]] == [
        "new-a",
        "new-b",
    ]
    assert report.rows[-1].who == "officer"

    capsys.readouterr()
    assert main(["score", str(document)]) == 0
    assert "new-a" in capsys.readouterr().out
    out = tmp_path / "comparison.csv"
    assert main(["export", str(document), str(out)]) == 0
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    rows = list(csv.DictReader(lines[2:]))  # a title line and a blank line come first
    assert len(rows) == 8 and rows[0]["rank"] == "1"
    assert {r["bid id"] for r in rows} >= {"new-a", "new-b", "northwind-ib"}


def test_import_is_all_or_nothing_unless_asked(tmp_path, capsys):
    document = tmp_path / "round.clusterbid"
    assert main(["demo", str(document)]) == 0
    sheet = export_template(tmp_path / "filled.csv", _new_bids("good-1", "good-2"))
    text = sheet.read_text(encoding="utf-8-sig").splitlines()
    header = next(csv.reader([text[0]]))
    price = header.index(next(h for h in header if h.startswith("terms.price_per_gpu_hour")))
    row = next(csv.reader([text[2]]))
    row[price] = "-1"  # the second bid gets a negative price
    bad = tmp_path / "bad.csv"
    with bad.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, next(csv.reader([text[1]])), row])

    assert main(["import", str(document), str(bad)]) == 2  # refused input, as the README says
    captured = capsys.readouterr()
    assert "terms.price_per_gpu_hour" in captured.out and "Nothing was imported" in captured.err
    with EvaluationDocument.open(document) as doc:
        assert len(doc.evaluation.bids) == 6

    assert main(["import", str(document), str(bad), "--valid-rows-only"]) == 0
    with EvaluationDocument.open(document) as doc:
        assert [b.id for b in doc.evaluation.bids][-1] == "good-1" and len(doc.evaluation.bids) == 7


def test_import_clashing_with_an_existing_id_changes_nothing(tmp_path, capsys):
    document = tmp_path / "round.clusterbid"
    assert main(["demo", str(document)]) == 0
    before = verify_audit_chain(document).rows
    # 'fresh' is new but 'northwind-ib' is already in the demo: neither may land.
    sheet = export_template(tmp_path / "clash.xlsx", _new_bids("fresh", "northwind-ib"))
    assert main(["import", str(document), str(sheet)]) == 2
    assert "northwind-ib" in capsys.readouterr().err
    assert verify_audit_chain(document).rows == before
