"""Money where an officer reads it in the app carries its currency and its cents, as the memo's
commitment does (issue 38 item 6): the comparison's net cost and commitment, the Details pane's
contract figures and the band's tooltip; a bid set aside shows why, never a cost."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from PySide6.QtCore import Qt
from tests.gui.conftest import HANG_GUARD_MS, wait_for_scoring

from clusterbid.gui.comparison.scorecard_table_model import (
    BAND,
    COMMITMENT,
    COST,
    FINDINGS,
    PROVIDER,
)

CENT = Decimal("0.01")


def _row(window, provider: str) -> int:
    model = window.model
    return next(r for r in range(model.rowCount()) if model.index(r, PROVIDER).data() == provider)


def test_the_net_cost_and_commitment_are_shown_to_the_cent(qtbot, window):
    wait_for_scoring(qtbot, window)
    row = _row(window, "Northwind AI Cloud")
    # The demo's Northwind term: 512 reserved GPUs x 3 months x 730 h x $2.85 = $3,195,648.00; the
    # buyer's plan values the idle half, so its net cost is half of it, $1,597,824.00, plus the cost of
    # paying on invoice (no terms stated) 30 days before the buyer's net 30 at 8% a year: $21,012.48,
    # less the SLA credit it can expect to claim (issue 39, methodology section 9): its 8-GPU nodes
    # fail 0.5 / 1,000 / 24 x 8 x 730 times a month, any failure breaches 99.9%, and with the claim
    # terms not stated 50% is counted, 30% claimed (10-day window), the 10% credit capped at 10%.
    commitment = 512 * 3 * 730 * 2.85
    credit = commitment * (1 - math.exp(-0.5 / 1000 / 24 * 8 * 730)) * 0.5 * 0.3 * 0.10
    net = commitment / 2 + commitment * 0.08 * 30 / 365 - credit
    assert window.model.index(row, COMMITMENT).data() == f"${commitment:,.2f}"
    assert window.model.index(row, COST).data() == f"${net:,.2f}"
    window.comparison.select_bid(window.model.score_at(row).bid.id)
    details = window.details.toPlainText()
    assert f"Total commitment: ${commitment:,.2f} (what the signature approves)" in details
    # Issue 31: with the bands in, the bids rank on the expected net cost, said beside the point
    # (the pane of the bid selected all along is drawn again with the decided ranking).
    qtbot.waitUntil(lambda: window.model.scorecard.decision_basis != "point", timeout=HANG_GUARD_MS)
    details = window.details.toPlainText()
    card = window.model.scorecard
    assert card.decision_basis == "expected"
    mean = Decimal(repr(card.decision_costs["northwind-ib"])).quantize(CENT, ROUND_HALF_UP)
    assert f"Net cost of the plan: ${net:,.2f} (the point estimate" in details
    assert f"Ranked on: ${mean:,}, the expected net cost (the mean over the Monte" in details
    tip = window.model.index(_row(window, "Northwind AI Cloud"), COST).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert "(the point estimate" in tip and f"Ranked on: ${mean:,}" in tip
    # The band's tip, beside the column of points, says the same figure ranks the bids.
    band = window.model.index(_row(window, "Northwind AI Cloud"), BAND).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert f"Ranked on: ${mean:,}, the expected net cost" in band


def test_a_bid_set_aside_shows_its_reason_not_a_cost(qtbot, window):
    wait_for_scoring(qtbot, window)
    row = _row(window, "Fragment Cloud")  # its largest block is 256 GPUs, the job needs 512
    assert window.model.index(row, COST).data() == "—"
    assert window.model.index(row, COMMITMENT).data() == "—"
    assert window.model.index(row, FINDINGS).data() == "excluded: block smaller than the job"
    window.comparison.select_bid(window.model.score_at(row).bid.id)
    details = window.details.toPlainText()
    assert "Excluded from the ranking" in details and "Total commitment" not in details
    assert "256 GPUs" in window.model.index(row, FINDINGS).data(Qt.ItemDataRole.ToolTipRole)
