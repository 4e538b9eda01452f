"""Draw a memo's missing charts on two cores: a forked copy of this process draws the second half
while this one draws the first, and hands their pixels back through a pipe.

A fork shares everything already imported and computed (the models, the scorecard; matplotlib
too when it forks at the charts section), so the child pays none of the start-up that made the
chart worker process (a fresh interpreter, removed 2026-11-27) cost more than it gained. It draws
with the same code and libraries, so the pixels, and the memo's bytes, are the same as here.

Only where it is safe and pays: a process that asked for it (the command line's `memo` and
`verify`, one thread: the app never forks, a copy of a process with Qt's threads may hold a lock
another thread took), a platform with fork, at least two charts to draw and a core to spare.
Anything the child does not hand back (it failed, it died, it hangs) is drawn here, as without
it. The memo's export starts its child early (early_charts.py); draw_missing splits what is left.
Measured (demo, first export, load average 0.5-0.7 on 2 cores, 5 alternate runs each, medians):
all drawn here 1.81 s wall, 1.90 CPU s; half in a child at the charts section 1.59 s, 1.92 CPU s;
all but the first in a child started after the Monte Carlo 1.46 s, 2.22 CPU s (the child imports
matplotlib too).
"""

from __future__ import annotations

import gc
import os
import select
import signal
import struct
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.memo.fewer_collections import OLDER_THRESHOLDS, YOUNG_THRESHOLD

if TYPE_CHECKING:  # the drawing (PIL, matplotlib) is imported when a chart is drawn, not before
    from clusterbid.core.memo.chart_drawing import Chart

Drawing = tuple[int, Callable[[], Any]]  # (the chart's position in the memo, its builder)
_HEADER = struct.Struct("<IIIdd")  # position, width and height in pixels, figure size in inches
_ALLOWED = {"fork": False}
# A child still drawing after this long is stopped and its charts drawn here (each takes about
# 0.15 s near quiet): a fork that copied a lock held at that moment must not hang the export.
CHILD_SECONDS = 60.0


@contextmanager
def charts_forked() -> Iterator[None]:
    """While it lasts, charts may be drawn in a forked child: around the command line's one-thread
    `memo` and `verify` only, so a process that goes on (the tests, the app) never forks after."""
    before = _ALLOWED["fork"]
    _ALLOWED["fork"] = True
    try:
        yield
    finally:
        _ALLOWED["fork"] = before


def core_to_spare() -> bool:
    """Whether a core is idle for the child now: two usable cores or more, and fewer processes
    running at this moment than cores (this one among them; Linux's /proc/loadavg), else a load
    average under their number. A core taken by a neighbour leaves the child nowhere to run: it
    would only add its CPU (a neighbour at 100% of one of 2 cores: 2.2 s with it, 1.9 without).
    Unknown: no."""
    try:
        cores = len(os.sched_getaffinity(0))
        running = running_now()
        busy = running if running is not None else os.getloadavg()[0]
    except (AttributeError, OSError):  # no affinity or load average on this platform
        return False
    return cores >= 2 and busy < cores


def running_now() -> int | None:
    """How many processes are running or ready to run this moment, this one among them; None
    where the system does not say (not Linux)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as status:
            return int(status.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None


def forks(charts: int) -> bool:
    """Whether to fork for `charts` charts: allowed, one thread, fork here, a core to spare.
    One thread as Python counts them and no Qt application (its threads, an X event queue among them,
    are not Python's: a test that ran the CLI beside a window forked with one alive); children
    reaped, not ignored (an inherited SIGCHLD = SIG_IGN made waitpid fail)."""
    one_thread = threading.active_count() == 1  # a copy of this process holds no other's lock
    return (
        _ALLOWED["fork"]
        and charts >= 2
        and one_thread
        and not _qt_running()
        and hasattr(os, "fork")
        and signal.getsignal(signal.SIGCHLD) != signal.SIG_IGN
        and core_to_spare()
    )


def _qt_running() -> bool:
    """Whether this process runs a Qt application (its threads are not Python's); asked of Qt
    only where something else loaded it: core never imports Qt."""
    qt = sys.modules.get("PySide6.QtCore")
    return qt is not None and qt.QCoreApplication.instance() is not None


def draw_missing(drawings: Sequence[Drawing], other_scripts: bool) -> dict[int, Chart]:
    """Each chart's pixels and figure size by its position: half drawn in a forked child when
    allowed and worth it, the rest (and whatever the child did not hand back) here, in order."""
    from clusterbid.core.memo.chart_drawing import draw_chart

    if forks(len(drawings)):
        import matplotlib.backends.backend_agg  # noqa: F401 (imported once, before the fork)
        import matplotlib.figure  # noqa: F401

        half = len(drawings) // 2
        child, drawings = drawings[half:], drawings[:half]
        reader, pid = start(child, lambda: other_scripts)
    else:
        reader, pid = None, 0
    try:
        drawn = {position: draw_chart(build, other_scripts) for position, build in drawings}
    except BaseException:
        if reader is not None:  # not left blocked on a full pipe, nor a zombie
            stop(reader, pid)
        raise
    if reader is not None:
        drawn.update(finish(reader, pid, child, other_scripts))
    return dict(sorted(drawn.items()))


def stop(reader: int, pid: int) -> None:
    """Kill a child no one will read, reap it, close its pipe."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):  # reaped already, or by someone else
        pass
    os.close(reader)


def finish(
    reader: int, pid: int, drawings: Sequence[Drawing], other_scripts: bool
) -> dict[int, Chart]:
    """The charts a child started by `start` was given: as it handed them back, or drawn here."""
    from clusterbid.core.memo.chart_drawing import draw_chart

    forked = _collect(reader, pid)
    return {
        position: forked.get(position) or draw_chart(build, other_scripts)
        for position, build in drawings
    }


def start(drawings: Sequence[Drawing], other_scripts: Callable[[], bool]) -> tuple[int, int]:
    """Fork a child that draws `drawings` (with the fallback fonts when `other_scripts()` says
    so), then writes them to the pipe; (read end, its pid) for `finish`."""
    read_end, write_end = os.pipe()
    # The child runs with the collector held back, as a memo is made: what it shares with this
    # process is never walked, so a collection does not copy the shared heap's pages (the usual
    # cost of a fork; not measured apart from the gate below).
    held = gc.get_freeze_count() == 0  # not already set aside (inside a memo: fewer_collections)
    if held:
        gc.freeze()  # in both processes from here; this one puts it back below
    # Ctrl-C held until each side knows which it is: one landing between the fork and the
    # child's try would run the caller's code and exit handlers in the child.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    had_matplotlib = "matplotlib" in sys.modules
    pid = os.fork()
    if pid:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if held:
            gc.unfreeze()
        os.close(write_end)
        return read_end, pid
    code = 1
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)  # the child leaves by os._exit
    try:  # the child: never returns into the caller's code, never runs its exit handlers
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers Ctrl-C and stops it
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        from clusterbid.core.memo.chart_drawing import draw_chart

        os.close(read_end)
        scripts = other_scripts()
        charts = [(position, draw_chart(build, scripts)) for position, build in drawings]
        with os.fdopen(write_end, "wb") as pipe:
            for position, (pixels, (width_in, height_in)) in charts:
                pipe.write(_HEADER.pack(position, *pixels.size, width_in, height_in))
                pipe.write(pixels.tobytes())
        code = 0
    finally:
        if not had_matplotlib:
            _remove_own_config_folder()
        os._exit(code)


def _remove_own_config_folder() -> None:
    """The temporary folder matplotlib made in the child, where the home folder cannot be
    written: it removes it at exit, which os._exit skips (the parent's, made before the fork,
    is the parent's to remove)."""
    import shutil
    import tempfile

    try:
        import matplotlib

        folder = Path(matplotlib.get_configdir())
    except Exception:  # noqa: BLE001 (nothing to remove if matplotlib cannot say)
        return
    if folder.parent == Path(tempfile.gettempdir()) and folder.name.startswith("matplotlib-"):
        shutil.rmtree(folder, ignore_errors=True)


def _read_until_closed(read_end: int, seconds: float) -> bytes | None:
    """Everything written to the pipe until the child closes it; None after `seconds`."""
    import time

    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    with os.fdopen(read_end, "rb", buffering=0) as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                return None
            chunk = pipe.read(1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _collect(read_end: int, pid: int) -> dict[int, Chart]:
    """The charts the child handed back (none when it failed before the end), once it is gone."""
    from PIL import Image as PILImage

    data = _read_until_closed(read_end, CHILD_SECONDS)
    if data is None:  # still drawing: stopped, its charts are drawn here
        os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:  # reaped by someone else: its exit is unknown, draw here
        return {}
    if data is None or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return {}
    charts: dict[int, Chart] = {}
    at = 0
    while at + _HEADER.size <= len(data):
        position, width, height, width_in, height_in = _HEADER.unpack_from(data, at)
        at += _HEADER.size
        pixels = PILImage.frombytes("RGB", (width, height), data[at : at + 3 * width * height])
        at += 3 * width * height
        charts[position] = (pixels, (width_in, height_in))
    return charts
