"""Re-take the README's main-window screenshots from the demo, on a real X display.

    Xvfb :99 -screen 0 1600x1000x24 & openbox &   # one server per screen size
    DISPLAY=:99 .venv/bin/python packaging/screenshots.py main resources/screenshots/main-window-demo.png

Shots: `main` (the window maximised), `charts` (the Charts tab), `zoom150` (presentation zoom
150%), `matrix` (the score matrix alone), `error` (a rule broken in the workload editor),
`wizard5` and `wizard7` (the bid wizard on Northwind's reliability page and its review), `serving`
(the serving demo's window maximised, once its scores are in). Each opens a fresh copy of the
demo with a throw-away profile, waits until the Monte Carlo bands are in, and captures the screen
with ImageMagick's `import`, as a person would: what Qt drew on the X server, not a rendering of
our own.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.main_window import MainWindow
from clusterbid.gui.settings import AppSettings

SHOTS = ("main", "charts", "zoom150", "matrix", "error", "wizard5", "wizard7", "serving")
SETTLE_S = 1.5  # repaints after the bands, charts drawn at their final size


def _pump(app: QApplication, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def take(shot: str, out: Path) -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    folder = Path(tempfile.mkdtemp(prefix="clusterbid-shots-"))
    if shot == "serving":
        _serving(app, folder, out)
        return
    document = EvaluationDocument.create(folder / "demo.clusterbid", demo_evaluation())
    window = MainWindow(document, AppSettings.in_folder(folder / "profile"))
    window.showMaximized()
    deadline = time.monotonic() + 120
    while window.model.band_range() is None or window.tasks.is_busy():
        if time.monotonic() > deadline:
            raise SystemExit("the bands did not arrive within 120 s")
        _pump(app, 0.1)
    if shot == "zoom150":  # as an officer zooms in the meeting (Ctrl+Plus): the window re-laid out
        window.zoom_layout.set(1.5)
        _pump(app, 0.5)
    if shot == "charts":
        window.side_tabs.setCurrentIndex(1)
    widget = window.score_matrix if shot == "matrix" else None
    if shot == "error":  # a job size that is no multiple of TP x PP x CP, said beside the field
        window.show_workload_editor()
        window.workload_editor.editors["job_gpus"].setText("500")
    if shot in ("wizard5", "wizard7"):
        from clusterbid.gui.wizard.bid_wizard import BidWizard
        from clusterbid.gui.wizard.draft_store import DraftStore

        bid = window.session.evaluation.bids[0]
        widget = BidWizard(
            window.session.evaluation, bid, draft_store=DraftStore(folder / "draft.json")
        )
        widget.show()
        _pump(app, 0.5)
        target = widget.page_ids[4] if shot == "wizard5" else widget.pageIds()[-1]
        while widget.currentId() != target:  # Next, page by page, as an officer would
            widget.next()
            _pump(app, 0.3)
    _pump(app, SETTLE_S)
    command = ["import", "-window", "root"]
    if widget is not None:
        frame = widget.frameGeometry() if widget.isWindow() else widget.rect()
        corner = frame.topLeft() if widget.isWindow() else widget.mapToGlobal(frame.topLeft())
        command += [
            "-crop",
            f"{frame.width()}x{frame.height()}+{corner.x()}+{corner.y()}",
            "+repage",
        ]
    subprocess.run([*command, str(out)], check=True)
    window.close()
    print(f"{shot}: wrote {out}")


def _serving(app: QApplication, folder: Path, out: Path) -> None:
    """The serving demo in its window, maximised, once its scores are in."""
    from clusterbid.core.documents import read_evaluation
    from clusterbid.gui.serving_window import ServingWindow

    examples = Path(__file__).resolve().parents[1] / "resources" / "examples"
    evaluation = read_evaluation(examples / "demo-serving-evaluation.json")
    window = ServingWindow(EvaluationDocument.create(folder / "serving.clusterbid", evaluation))
    window.showMaximized()
    deadline = time.monotonic() + 120
    while window.scorecard is None or window.tasks.is_busy():
        if time.monotonic() > deadline:
            raise SystemExit("the serving scores did not arrive within 120 s")
        _pump(app, 0.1)
    _pump(app, SETTLE_S)
    subprocess.run(["import", "-window", "root", str(out)], check=True)
    window.close()
    print(f"serving: wrote {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SHOTS:
        raise SystemExit(f"usage: screenshots.py {{{'|'.join(SHOTS)}}} OUT.png")
    take(sys.argv[1], Path(sys.argv[2]))
