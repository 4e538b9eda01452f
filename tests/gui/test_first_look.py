"""Issue 24: after the window has shown its scores, the next start can paint that table before the
models and the cost model load; a table from before the last edit is never painted."""

from __future__ import annotations

import re

from tests.gui.conftest import wait_for_scoring
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.shown_scorecard import read_shown
from clusterbid.gui.first_look import first_look


def test_the_shown_table_is_kept_and_the_first_look_paints_it(qtbot, window):
    wait_for_scoring(qtbot, window)
    path = window.session.document.path
    # Kept once the bands are in: Northwind's P10 is half its $3,195,648 term (issue 31), $1,597,824,
    # plus at most the cost of paying on invoice (its payment terms are not stated: drawn from due on
    # invoice to net 30, 3,195,648 x 0.08 x 30 / 365 = $21,012 at most): $1.60M to $1.62M.
    band = re.compile(r"\$1\.(60|61|62)M – ")  # the band's P10, "P10 – P90"
    qtbot.waitUntil(
        lambda: (
            read_shown(path) is not None and band.search(str(read_shown(path)["rows"])) is not None
        ),
        timeout=HANG_GUARD_MS,
    )
    shown = read_shown(path)
    model = window.model
    # Exactly what the table shows, cell for cell (every column, hidden ones too): the demo's
    # leader first, its band included.
    assert shown["rows"][0] == [
        str(model.index(0, c).data() or "") for c in range(model.columnCount())
    ]
    assert shown["rows"][0][1] == "Northwind AI Cloud"

    look = first_look(path)
    qtbot.addWidget(look)
    table = look.centralWidget()
    assert table.item(0, 1).text() == "Northwind AI Cloud"
    assert [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())] == shown[
        "columns"
    ]
    assert "Scores as last shown" in look.statusBar().currentMessage()
    assert look.windowTitle() == window.windowTitle()  # the kept title and the file's name
    look.close()

    window.session.apply(
        window.session.evaluation.model_validate(
            {**window.session.evaluation.model_dump(), "title": "Renamed"}
        ),
        "rename",
    )
    assert first_look(path) is None  # stale until the window shows the new scores


def test_the_first_look_handles_events_and_closes_while_the_real_window_loads(qtbot, tmp_path):
    """Issue 32: what the real window needs is loaded on a second thread meanwhile; closing the
    first look then ends the start instead of waiting for a window nobody wants."""
    import threading

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from clusterbid.cli import main
    from clusterbid.gui.first_look import load_while_responsive

    path = tmp_path / "kept.clusterbid"
    assert main(["new", str(path)]) == 0  # the command line keeps the table too
    look = first_look(path)
    qtbot.addWidget(look)
    release, loading = threading.Event(), threading.Event()

    def slow_load() -> None:  # stands for the imports: done only when the test says so
        loading.set()
        release.wait(30)

    QTimer.singleShot(200, look.close)  # the officer closes it while the load is still running
    try:
        assert load_while_responsive(QApplication.instance(), look, slow_load) is False
        assert loading.is_set() and not release.is_set() and not look.isVisible()
    finally:
        release.set()

    again = first_look(path)
    qtbot.addWidget(again)
    assert load_while_responsive(QApplication.instance(), again, lambda: None) is True
    again.close()
