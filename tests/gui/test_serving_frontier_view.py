"""Issue 37 item 3: View > Serving Frontier shows one curve per bid that can serve."""

from __future__ import annotations

import pytest


@pytest.fixture
def shown(serving_window):
    # Scoring runs on the background runner: the frontier is offered once the figures are shown.
    assert serving_window.actions_.frontier.isEnabled()
    return serving_window  # tests/gui/conftest.py


def test_the_frontier_view_draws_a_curve_per_serving_bid(shown):
    view_menu = next(a.menu() for a in shown.menuBar().actions() if a.text() == "&View")
    next(a for a in view_menu.actions() if a.text().startswith("Serving &Frontier")).trigger()
    view = shown.frontier_view
    assert view.canvas is not None
    ids = {line.get_gid() for line in view.canvas.figure.axes[0].get_lines()}
    serving = {s.bid.id for s in shown.scorecard.scores if s.estimate.passes_gates}
    cannot = {s.bid.id for s in shown.scorecard.scores if not s.estimate.passes_gates}
    assert serving and serving <= ids and not cannot & ids
    view.close()
