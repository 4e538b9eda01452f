"""Start the desktop app: one QApplication, the main window on an evaluation or the demo."""

from __future__ import annotations

import sys


def run_app(path: str | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from clusterbid.core.errors import InputError
    from clusterbid.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("ClusterBid")
    app.setOrganizationName("ClusterBid")
    try:
        window = MainWindow.for_path(path)
    except InputError as exc:
        QMessageBox.critical(None, "ClusterBid cannot open this evaluation", str(exc))
        return 2
    window.show()
    return app.exec()
