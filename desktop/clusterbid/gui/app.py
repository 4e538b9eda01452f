"""Start the desktop app: one QApplication, the main window on the last evaluation or the demo."""

from __future__ import annotations

import os
import sys

# Set by packaging/smoke_test.py to time a cold start: the app quits as soon as it has painted.
QUIT_AFTER_FIRST_PAINT = "CLUSTERBID_QUIT_AFTER_FIRST_PAINT"


def run_app(path: str | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from clusterbid.core.errors import InputError
    from clusterbid.gui.settings import APPLICATION, ORGANISATION, AppSettings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APPLICATION)
    app.setOrganizationName(ORGANISATION)
    settings = AppSettings.for_user()
    from clusterbid.gui.first_look import (
        document_to_open,
        first_look,
        import_main_window,
        load_while_responsive,
    )

    # Issue 24: the table as last shown, painted before the models and the cost model load.
    look = first_look(document_to_open(path, settings), settings.window_state("geometry"))
    if look is not None:
        _paint_now(app, look)
        if os.environ.get(QUIT_AFTER_FIRST_PAINT):
            return 0
        if not load_while_responsive(app, look, import_main_window):
            return 0  # closed before the real window was ready: nothing more to open
    window = open_main_window(path, settings)
    if isinstance(window, InputError):
        QMessageBox.critical(None, "ClusterBid cannot open this evaluation", str(window))
        return 2
    if look is not None and settings.window_state("geometry") is None:
        window.setGeometry(look.geometry())  # where the first look was: no jump
    window.show()
    if look is not None:
        look.close()  # the real window, recomputed, takes its place
    if os.environ.get(QUIT_AFTER_FIRST_PAINT):
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, app.quit)  # a zero timer fires after the pending first paint events
    return app.exec()


def _paint_now(app, window, wait_s: float = 1.0) -> None:
    """Paint `window` before the heavy work that follows: under a window manager it can be painted
    only once the server has exposed it, so wait for that (briefly), then paint synchronously."""
    import time

    deadline = time.monotonic() + wait_s
    handle = window.windowHandle()
    while handle is not None and not handle.isExposed() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.005)
    window.repaint()
    app.processEvents()


def open_main_window(path, settings):
    """The main window on `path`, the last evaluation or the demo; an InputError to show otherwise."""
    from clusterbid.core.errors import InputError
    from clusterbid.gui.evaluation_window import EvaluationWindow
    from clusterbid.gui.opening import startup_document

    try:
        document, note = startup_document(path, settings)
    except InputError as exc:
        return exc
    # One window class for every kind; its view comes from the document's kind. A serving
    # evaluation opened here is not remembered as the last evaluation (see FileCommands).
    return EvaluationWindow(document, settings, note)
