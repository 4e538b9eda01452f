"""A tester's fault: at 1600x1000 the wizard's Contract page laid its four groups side by side,
wider than the wizard, so the serving burst price and the SLA claim terms sat behind a sideways
scroll bar. The groups now wrap below one another as the width needs: every field is reached by
scrolling up and down only, on a 1600x1000 and on a 1366x768 screen, at the wizard's own size
and maximised (the screen less a 40-pixel title bar and taskbar)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QScrollArea
from tests.conftest import EXAMPLES

from clusterbid.core.documents import read_evaluation

SIZES = [(980, 720), (1600, 960), (1366, 728)]  # as opened; maximised on each screen
SERVING_FIELDS = [
    ("terms", "burst_price_per_gpu_hour"),
    ("terms", "reserved_resize_months"),
    ("sla_claims", "covered_percent"),
    ("sla_claims", "automatic"),
    ("sla_claims", "claim_window_days"),
    ("sla_claims", "cap_percent"),
]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_contract_field_is_reached_without_sideways_scrolling(
    qtbot, open_wizard, width, height
):
    wizard = open_wizard(ev=read_evaluation(EXAMPLES / "demo-serving-evaluation.json"))
    page = next(p for p in wizard.section_pages() if p.title() == "Contract and billing")
    wizard.resize(width, height)
    wizard.setCurrentId(wizard.page_ids[wizard.pages_in_order.index(page)])
    scroll = page.findChild(QScrollArea)  # the page's fields
    qtbot.waitUntil(lambda: scroll.viewport().width() > 0 and page.isVisible())
    qtbot.waitUntil(lambda: scroll.horizontalScrollBar().maximum() == 0)
    paths = [b.path for b in page.bindings]
    assert set(SERVING_FIELDS) <= set(paths)
    room = scroll.viewport().width()
    for binding in page.bindings:
        for widget in (binding.label, binding.widget):
            left = widget.mapTo(scroll.viewport(), widget.rect().topLeft()).x()
            right = widget.mapTo(scroll.viewport(), widget.rect().topRight()).x()
            assert left >= 0 and right < room, (binding.path, left, right, room)
        # and down to it: scrolled into view, the field shows
        scroll.ensureWidgetVisible(binding.widget)
        qtbot.waitUntil(lambda w=binding.widget: not w.visibleRegion().isEmpty())


def test_the_groups_wrap_in_their_order_as_the_width_shrinks(qtbot, open_wizard):
    """Four groups of the serving Contract page: as many per row as fit, never out of order."""
    wizard = open_wizard(ev=read_evaluation(EXAMPLES / "demo-serving-evaluation.json"))
    page = next(p for p in wizard.section_pages() if p.title() == "Contract and billing")
    scroll = page.fields_scroll
    widest = [g.minimumSizeHint().width() for g in scroll.groups]
    spacing = max(scroll.grid.horizontalSpacing(), 0)
    assert scroll.fitting_columns(sum(widest) + 3 * spacing) == 4
    assert scroll.fitting_columns(max(widest) - 1) == 1
    two = max(widest[0], widest[2]) + max(widest[1], widest[3]) + spacing
    assert scroll.fitting_columns(two) == 2
    scroll._arrange(2)
    where = [scroll.grid.getItemPosition(scroll.grid.indexOf(g))[:2] for g in scroll.groups]
    assert where == [(0, 0), (0, 1), (1, 0), (1, 1)]
