"""Issue 20: serving bids are edited in the app, in the bid wizard, like training bids: each edit
re-ranks at once, is one audit row and one undo step."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard
from tests.conftest import EXAMPLES
from tests.gui.conftest import wait_for_serving_scores
from tests.gui.wizard.conftest import field, type_into

from clusterbid.core.bid import Bid
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import bid_commands
from clusterbid.gui.wizard import BidWizard

SERVING = EXAMPLES / "demo-serving-evaluation.json"


@pytest.fixture
def shown(serving_window):
    return serving_window  # tests/gui/conftest.py


def _row(window, bid_id: str) -> int:
    return [row["bid id"] for row in window.rows].index(bid_id)


def _cost(window, bid_id: str) -> float:
    return next(
        s for s in window.scorecard.scores if s.bid.id == bid_id
    ).estimate.cost_per_million_tokens


def test_a_price_typed_into_the_wizard_reranks_the_serving_bids_and_undo_restores_it(
    qtbot, shown, monkeypatch
):
    before = _cost(shown, "helio-h200")
    assert shown.rows[0]["bid id"] == "helio-h200"  # the serving demo's winner

    def walk(wizard) -> int:
        wizard.show()
        qtbot.waitExposed(wizard)
        price = field(wizard, "terms", "price_per_gpu_hour")
        while not price.widget.isVisible():
            wizard.next()
        type_into(qtbot, price.widget, "4.00")
        while wizard.currentId() != wizard.page_ids[-1]:
            wizard.next()
        qtbot.mouseClick(
            wizard.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton
        )
        return wizard.result()

    monkeypatch.setattr(BidWizard, "exec", walk)
    shown.table.selectRow(_row(shown, "helio-h200"))
    shown.actions_.edit_bid.trigger()
    wait_for_serving_scores(qtbot, shown)  # scored on the background runner
    # No fees and no fabric line: the bill, so the cost per million tokens, scales with the price,
    # $2.85 -> $4.00, on the same fleet (sized by throughput, not by price).
    after = _cost(shown, "helio-h200")
    assert after == pytest.approx(before * 4.00 / 2.85, rel=1e-9)
    # Issue 31: the place by cost is on each bid's mean over its bands (the decision basis).
    ranked_on = shown.scorecard.decision_costs
    others = [ranked_on[s.bid.id] for s in shown.scorecard.ranked if s.bid.id != "helio-h200"]
    mine = next(s for s in shown.scorecard.scores if s.bid.id == "helio-h200")
    assert mine.cost_rank == 1 + sum(
        cost < ranked_on["helio-h200"] for cost in others
    )  # counted here
    assert shown.rows[0]["bid id"] != "helio-h200"  # no longer first: cost weighs 70%
    assert shown.session.undo_stack.undoText() == "Edit bid helio-h200"
    rows = [r for r in shown.document.audit_rows() if r.target == "helio-h200"]
    assert rows and float(json.loads(rows[-1].new_json)["terms"]["price_per_gpu_hour"]) == 4.00
    shown.session.undo_stack.undo()
    wait_for_serving_scores(qtbot, shown)
    assert (
        _cost(shown, "helio-h200") == pytest.approx(before)
        and shown.rows[0]["bid id"] == "helio-h200"
    )


def test_add_duplicate_and_delete_a_serving_bid(qtbot, shown, monkeypatch):
    template = next(b for b in shown.session.evaluation.bids if b.id == "helio-h200")

    def fake_wizard(parent, evaluation, bid, **_options):
        data = template.model_dump()
        data["id"], data["quote"]["provider"] = "new-h200", "New Serving Cloud"
        return Bid.model_validate(data)

    monkeypatch.setattr(bid_commands, "load_bid_wizard", lambda: fake_wizard)
    count = len(shown.rows)
    shown.actions_.add_bid.trigger()
    wait_for_serving_scores(qtbot, shown)
    assert len(shown.rows) == count + 1 and "new-h200" in [r["bid id"] for r in shown.rows]
    # The same offer under another name costs the same per million tokens.
    assert _cost(shown, "new-h200") == pytest.approx(_cost(shown, "helio-h200"))
    shown.table.selectRow(_row(shown, "new-h200"))
    shown.actions_.duplicate_bid.trigger()
    wait_for_serving_scores(qtbot, shown)
    assert "new-h200-copy" in [r["bid id"] for r in shown.rows]
    shown.table.selectRow(_row(shown, "new-h200"))
    shown.actions_.delete_bid.trigger()
    wait_for_serving_scores(qtbot, shown)
    assert "new-h200" not in [r["bid id"] for r in shown.rows]
    shown.session.undo_stack.undo()
    wait_for_serving_scores(qtbot, shown)
    assert "new-h200" in [r["bid id"] for r in shown.rows]
    assert [b.id for b in EvaluationDocument.open(shown.document.path).evaluation.bids] == [
        b.id for b in shown.session.evaluation.bids
    ]


def test_a_serving_throughput_figure_is_typed_in_the_wizard_with_its_concurrency(qtbot):
    """The typed-figure form offers serving decode throughput and asks for the concurrent sequences
    it was measured at (the model needs them to compare a replica's tokens/s at another batch)."""
    from tests.gui.wizard.conftest import choose

    from clusterbid.core.evidence.model import EvidenceKind
    from clusterbid.gui.wizard.figure_form import FigureForm

    form = FigureForm()
    qtbot.addWidget(form)
    form.show()
    choose(qtbot, form.bindings["kind"].widget, EvidenceKind.SERVING_DECODE_THROUGHPUT)
    assert form.bindings["unit"].read() == "tokens/s"
    type_into(qtbot, form.bindings["value"].widget, "1200")
    type_into(qtbot, form.bindings["scale_gpus"].widget, "1")
    assert form.evidence is None and "batch_size" not in form.bindings["batch_size"].error.text()
    assert "concurrent" in form.bindings["batch_size"].error.text().lower()
    type_into(qtbot, form.bindings["batch_size"].widget, "32")
    assert form.evidence is not None
    assert (form.evidence.kind, form.evidence.value, form.evidence.batch_size) == (
        EvidenceKind.SERVING_DECODE_THROUGHPUT,
        1200,
        32,
    )
