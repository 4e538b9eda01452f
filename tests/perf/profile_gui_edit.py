"""Where the window's thread spends its CPU on one weight edit: cProfile of that thread only
(a profiler is per thread, so the worker's scoring stays out), from the edit to its re-scored
table and the bands, over a few edits after a warm-up (issue 32 item 1).

Run: QT_QPA_PLATFORM=offscreen PYTHONPATH=desktop python tests/perf/profile_gui_edit.py
     (BENCH_BIDS=N bids, 500 unless told; BENCH_EDITS=N profiled edits, 5 unless told;
     PROFILE_TOP=N functions listed, 40 unless told; BENCH_EDIT=price: a bid's price edited)

Prints the functions by their own CPU (tottime) and by cumulative CPU, and the window-thread
CPU per edit (time.thread_time, which holds under load where wall time does not).
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "desktop"), str(REPO), str(REPO / "tests" / "perf")]

from bench_gui import _pause, _wait, edit  # noqa: E402
from bench_scoring import evaluation_with  # noqa: E402

BIDS = int(os.environ.get("BENCH_BIDS", "500"))
EDITS = int(os.environ.get("BENCH_EDITS", "5"))
TOP = int(os.environ.get("PROFILE_TOP", "40"))


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui.main_window import MainWindow
    from clusterbid.gui.settings import AppSettings

    app = QApplication.instance() or QApplication([])
    folder = Path(tempfile.mkdtemp())
    document = EvaluationDocument.create(folder / "profile.clusterbid", evaluation_with(BIDS))
    window = MainWindow(document, AppSettings.in_folder(folder))
    window.show()
    app.processEvents()
    _wait(lambda: not window.tasks.is_busy(), window.tasks.busy_changed, 600_000)
    profile, cpu = cProfile.Profile(time.thread_time), []
    after = cProfile.Profile(time.thread_time)  # from the table to the bands and value shown
    after_cpu: list[float] = []
    # Waiting until the runner is idle ended before the bands began (they start 120 ms after the
    # table, gui/rescoring.py), so the second profile held nothing: wait for this edit's value.
    valued: list = []
    window.rescorer.valued.connect(lambda analysis: valued.append(analysis.evaluation))
    for i in range(EDITS + 1):  # the first edit warms caches and is not profiled
        _pause(200)
        if i:
            profile.enable()
        start = time.thread_time()
        edit(window, i)  # a weight, or a bid's price with BENCH_EDIT=price
        target = window.session.evaluation
        _wait(lambda t=target: window.model.scorecard.evaluation == t, window.tasks.busy_changed)
        if i:
            cpu.append(time.thread_time() - start)
            profile.disable()
            after.enable()
        start = time.thread_time()
        _wait(lambda t=target: t in valued, window.rescorer.valued, 600_000)
        if i:
            after_cpu.append(time.thread_time() - start)
            after.disable()
    window.close()
    document.close()
    print(
        f"{BIDS} bids, {EDITS} edits: window-thread CPU per edit to the re-scored table: median "
        f"{statistics.median(cpu) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms; then to the "
        f"bands and value of information shown: median {statistics.median(after_cpu) * 1000:.0f}"
        " ms"
    )
    for title, stats in (("edit -> re-scored table", profile), ("table -> bands, value", after)):
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(stats, stream=out).strip_dirs().sort_stats(order).print_stats(TOP)
            print(f"== {title}, by {order} ==\n{out.getvalue()}")


if __name__ == "__main__":
    main()
