"""The window follows its file and keeps the officer's place (issue 35, item 3): bids imported by
`clusterbid` into the open document show, and the bid the officer had selected stays selected."""

from __future__ import annotations

from tests.gui.conftest import wait_for_scoring
from tests.gui.test_file_follower import _bids_file
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.cli import main as cli_main


def test_an_outside_import_keeps_the_selected_bid_selected(qtbot, window, tmp_path):
    wait_for_scoring(qtbot, window)
    window.comparison.select_bid("legacy-a100")  # not the first row: a reset would move it
    assert window.comparison.selected_bid_id() == "legacy-a100"
    path = window.session.document.path
    bids = _bids_file(tmp_path, 4, 0)
    assert cli_main(["import", str(path), str(bids), "--user", "colleague"]) == 0
    qtbot.waitUntil(lambda: len(window.session.evaluation.bids) == 6 + 4, timeout=HANG_GUARD_MS)
    wait_for_scoring(qtbot, window)
    assert window.model.rowCount() == 10
    assert window.comparison.selected_bid_id() == "legacy-a100"
