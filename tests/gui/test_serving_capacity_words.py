"""A serving bid the capacity gate sets aside (core/serving_capacity_gate.py) says so in the
table in a few words, the whole reason in its tooltip, and the bids left share every draw."""

from __future__ import annotations

import json

import pytest
from tests.conftest import EXAMPLES
from tests.gui.conftest import wait_for_serving_scores

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.serving_ranking import CHEAPEST, PROVIDER, RANKED
from clusterbid.gui.serving_window import ServingWindow


@pytest.fixture
def quarry_short(qtbot, tmp_path):
    data = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text(encoding="utf-8"))
    for bid in data["bids"]:
        if bid["id"] == "quarry-h100":
            bid["capacity"]["gpus_offered"] = 64  # carries the peak in about half the draws
    path = tmp_path / "short.clusterbid"
    EvaluationDocument.create(path, Evaluation.model_validate(data), user="test").close()
    shown = ServingWindow(EvaluationDocument.open(path))
    qtbot.addWidget(shown)
    wait_for_serving_scores(qtbot, shown)
    return shown


def test_the_short_bid_says_why_and_the_others_share_every_draw(quarry_short):
    table = quarry_short.table
    rows = {table.item(r, PROVIDER).text(): r for r in range(table.rowCount())}
    quarry = rows["Quarry GPU"]
    assert table.item(quarry, RANKED).text() == "Cannot serve: GPUs fall short too often"
    assert "64 GPUs offered carry the workload" in table.item(quarry, RANKED).toolTip()
    shares = [
        int(table.item(r, CHEAPEST).text().rstrip("%"))
        for name, r in rows.items()
        if name not in ("Quarry GPU", "Lumen Edge")
    ]
    assert 99 <= sum(shares) <= 101  # whole percents, each rounded
