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
    window = open_main_window(path, AppSettings.for_user())
    if isinstance(window, InputError):
        QMessageBox.critical(None, "ClusterBid cannot open this evaluation", str(window))
        return 2
    window.show()
    if os.environ.get(QUIT_AFTER_FIRST_PAINT):
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, app.quit)  # a zero timer fires after the pending first paint events
    return app.exec()


def open_main_window(path, settings):
    """The main window on `path`, the last evaluation or the demo; an InputError to show otherwise."""
    from clusterbid.core.errors import InputError
    from clusterbid.gui.main_window import MainWindow
    from clusterbid.gui.opening import startup_document

    from clusterbid.core.workloads import is_serving

    try:
        document, note = startup_document(path, settings)
    except InputError as exc:
        return exc
    if is_serving(document.evaluation):
        from clusterbid.gui.serving_window import ServingWindow

        return ServingWindow(document)  # not remembered as the last evaluation (see FileCommands)
    return MainWindow(document, settings, note)
