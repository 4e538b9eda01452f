"""Issue 14: the Details pane shows each figure's source beside it and what the defaults can move."""

from __future__ import annotations

from tests.conftest import bid_dict, evaluation_dict
from tests.gui.thread_records import two_bids_resting_on_spares

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.gui.details_panel import PENDING, DetailsPanel
from clusterbid.gui.rescoring import rests_derived


def _derived(scorecard):
    """What each rank rests on derived as the window's worker derives it (gui/rescoring.py)."""
    return rests_derived(scorecard, lambda _fraction, _message="": None)


EXACT_FIT = {"gpus_offered": 512, "largest_contiguous_block_gpus": 512, "spare_pool_gpus": 0}


def test_details_name_the_default_the_rank_depends_on_and_the_providers_page(qtbot):
    unsure = bid_dict(
        "unsure",
        capacity=EXACT_FIT,
        reliability={"node_replacement_hours": 72},
        terms={"price_per_gpu_hour": "2.40", "currency": "USD"},
        provenance={
            "capacity.spare_pool_gpus": {"kind": "not_stated"},
            "reliability.node_replacement_hours": {"kind": "provider", "reference": "p.4"},
        },
    )
    rival = bid_dict("rival", reliability={"node_replacement_hours": 72})
    scorecard = score_evaluation(Evaluation.model_validate(evaluation_dict([unsure, rival])))
    panel = DetailsPanel()
    qtbot.addWidget(panel)
    score = {s.bid.id: s for s in scorecard.scores}
    panel.show_bid(scorecard, score["unsure"])  # before a worker derived the effects: pending
    assert PENDING in panel.toPlainText()
    assert "depends on figures nobody verified" not in panel.toPlainText()
    panel.show_bid(_derived(scorecard), score["unsure"])
    text = panel.toPlainText()
    assert PENDING not in text
    assert "This bid's cost rank depends on figures nobody verified: spare GPUs." in text
    assert "Spare GPUs: 0 — not stated (default used) (range 0-16; ClusterBid default" in text
    assert "Node replacement (hours): 72 — stated by the provider, p.4" in text
    # 0 spares -> cost rank 2 (as scored), 16 spares -> a node on hand at $2.40 < $2.50: rank 1.
    assert "its cost rank goes from 2 to 1, so the ranking depends on it" in text
    panel.show_bid(scorecard, score["rival"])
    text = panel.toPlainText()
    assert "depends on figures nobody verified" not in text
    assert "Spare GPUs: 16 — stated by the provider" in text
    assert "SLA credit (%): 0 — ClusterBid default (range 0-10;" in text


def test_the_comparison_says_which_bid_rank_rests_on_a_default(qtbot):
    """Same two bids: 'unsure' is cheaper per hour but states no spare pool (0 by default, 16 at the
    range's top turns its cost rank from 2 to 1), so the ranking table flags it where ranks are
    read; 'rival' states every figure and carries no flag."""
    from PySide6.QtCore import Qt

    from clusterbid.gui.comparison.scorecard_table_model import FINDINGS, ScorecardTableModel

    model = ScorecardTableModel(_derived(score_evaluation(two_bids_resting_on_spares())))
    cells = {
        model.score_at(row).bid.id: model.index(row, FINDINGS) for row in range(model.rowCount())
    }
    assert model.data(cells["unsure"], Qt.ItemDataRole.DisplayRole).endswith(
        "rank rests on spare GPUs"
    )
    assert "Its cost rank changes across the range of: spare GPUs" in model.data(
        cells["unsure"], Qt.ItemDataRole.ToolTipRole
    )
    assert "rests on" not in model.data(cells["rival"], Qt.ItemDataRole.DisplayRole)
