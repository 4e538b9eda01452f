"""Issue 39: `clusterbid rating` records, changes and removes a provider's third-party rating as
one audited edit, replayed by the trail; every field is checked first and a refusal names each
field in words, with nothing changed."""

from __future__ import annotations

from clusterbid.cli import main
from clusterbid.core.store import EvaluationDocument

ARGS = ["--provider", "Northwind AI Cloud", "--tier", "Gold", "--rated-on", "2025-11-01"]
SOURCE = ["--source", "SemiAnalysis ClusterMAX 2.0"]


def _demo(tmp_path, capsys):
    path = tmp_path / "demo.clusterbid"
    assert main(["demo", str(path)]) == 0
    capsys.readouterr()
    return path


def test_a_rating_is_one_audited_edit_and_moves_the_score_only_through_its_weight(tmp_path, capsys):
    path = _demo(tmp_path, capsys)
    with EvaluationDocument.open(path) as doc:
        rows, bids = len(doc.audit_rows()), doc.evaluation.bids
    assert main(["rating", str(path), *ARGS, *SOURCE, "--category", "Networking=Gold"]) == 0
    out = capsys.readouterr().out
    assert "Rate Northwind AI Cloud: Gold (SemiAnalysis ClusterMAX 2.0, 2025-11-01)" in out
    assert "Cumulus Compute: not rated" in out
    assert main(["rating", str(path), *ARGS, *SOURCE, "--category", "Networking=Gold"]) == 0
    assert "Nothing changed" in capsys.readouterr().out  # the same rating twice: no second row
    with EvaluationDocument.open(path) as doc:
        (rating,) = doc.evaluation.provider_ratings
        assert rating.categories == {"Networking": "Gold"} and doc.evaluation.bids == bids
        assert len(doc.audit_rows()) == rows + 1
    assert main(["audit", str(path)]) == 0
    assert "the trail accounts for the current evaluation" in capsys.readouterr().out
    assert main(["rating", str(path), "--provider", "Northwind AI Cloud", "--remove"]) == 0
    with EvaluationDocument.open(path) as doc:
        assert doc.evaluation.provider_ratings == () and len(doc.audit_rows()) == rows + 2


def test_every_wrong_field_is_named_in_words_and_nothing_changes(tmp_path, capsys):
    path = _demo(tmp_path, capsys)
    with EvaluationDocument.open(path) as doc:
        rows = len(doc.audit_rows())
    bad = ["--provider", "Northwind", "--tier", "shiny", "--rated-on", "2025-13-01"]
    assert main(["rating", str(path), *bad, "--source", "x", "--category", "Networking"]) == 2
    err = capsys.readouterr().err
    assert "the rating was not recorded" in err
    assert "Provider: 'Northwind' names no bid's provider" in err
    assert "Tier: 'shiny' is not a tier; one of Platinum, Gold, Silver, Bronze, Underperform" in err
    assert "Published on: give the day it was published as YYYY-MM-DD" in err
    assert "Who rated, and where: say who rated and where" in err
    assert "Grades by category: 'Networking': give each as Category=Grade" in err
    assert main(["rating", str(path), "--provider", "Northwind AI Cloud", "--remove"]) == 2
    assert "no rating of this provider is recorded" in capsys.readouterr().err
    with EvaluationDocument.open(path) as doc:
        assert len(doc.audit_rows()) == rows and doc.evaluation.provider_ratings == ()
