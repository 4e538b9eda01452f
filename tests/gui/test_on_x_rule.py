"""The rule that picks CI's second GUI pass (on Xvfb with openbox): a test that measures a widget,
gives it focus, waits for exposure, zooms or presses a shortcut is run again on X; a test that
reads only models, texts and files is not. Checked on the suite's own tests, so a rule that stops
marking the layout tests (or starts marking everything) fails here, not silently in CI."""

from __future__ import annotations

import pytest
from tests.gui import test_laptop_layout, test_panel_dialog, test_zoom
from tests.gui.on_a_desktop import needs_a_desktop
from tests.gui.wizard import test_walkthrough


@pytest.mark.parametrize(
    "test",
    [
        test_laptop_layout.test_what_decides_is_whole_and_in_view_at_every_zoom,
        test_zoom.test_zoom_to_175_percent_cuts_no_figure_and_ctrl_0_restores_the_layout_exactly,
        # Focus and the tab order: only a window manager can refuse or move focus.
        test_walkthrough.test_mnemonics_and_tab_order_follow_the_form,
        # Typed page by page through type_into, a helper that gives each field focus first.
        test_walkthrough.test_a_complete_bid_typed_page_by_page_passes,
    ],
    ids=lambda test: test.__name__,
)
def test_what_only_a_desktop_shows_is_run_on_x(test):
    assert needs_a_desktop(test)


@pytest.mark.parametrize(
    "test",
    [
        test_panel_dialog.test_invite_judge_merge_and_consensus_through_the_dialog,
        test_walkthrough.test_ranges_and_tooltips_come_from_the_model,
    ],
    ids=lambda test: test.__name__,
)
def test_what_reads_models_and_texts_is_run_offscreen_only(test):
    assert not needs_a_desktop(test)
