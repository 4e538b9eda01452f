"""Issue 37: the chance of meeting the targets at peak is in the serving window's details, the
score JSON and the serving memo's rows, all the same figure from the Monte Carlo's draws."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES

from clusterbid.cli import main
from clusterbid.core.documents import read_evaluation
from clusterbid.core.memo.serving_memo import decision_rows
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.gui.serving_details import bid_details_html


def test_the_window_the_json_and_the_memo_show_the_same_chance(capsys):
    path = EXAMPLES / "demo-serving-evaluation.json"
    card = score_serving_evaluation(read_evaluation(path))
    first = card.ranked[0].estimate
    chance = card.band(first.bid.id).chance_meets_slo_at_peak
    assert 0 < chance < 1
    words = f"{chance:.0%} of the Monte Carlo draws"
    assert "Chance of meeting the targets at peak" in bid_details_html(card, first.bid.id)
    assert words in bid_details_html(card, first.bid.id)
    rows = dict(decision_rows(card, None)[0])
    assert words in rows["Targets at peak"]
    assert main(["score", str(path), "--json"]) == 0
    shown = {b["bid_id"]: b for b in json.loads(capsys.readouterr().out)["bids"]}
    assert shown[first.bid.id]["uncertainty"]["chance_meets_slo_at_peak"] == round(chance, 4)
    assert shown["lumen-l40s"]["uncertainty"] is None  # cannot serve: no chance to show
