"""Draw the memo's charts in a second process while this one prepares the rest.

A first export from the command line spent a quarter of its 1.6 s importing matplotlib and
another quarter drawing. Started as the memo begins, a child process imports matplotlib while
this one imports reportlab and pyHanko and scores; by the time the figures are known it only has
to draw them, on the other core. Only where that pays: a fresh process (matplotlib not yet
loaded, as the app has it), not a frozen bundle (whose executable runs no modules), and two or
more cores. Anything unexpected (no child, a crash, damaged output, a timeout) and the memo
draws the charts itself: the same code, so the same pixels and the same memo bytes.

The child reads one pickled request on stdin, from the process that started it, and writes for
each chart a JSON header line and its raw RGB pixels on stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from clusterbid.core.memo.chart_drawing import Chart

TIMEOUT_S = 60  # drawing takes about half a second; a child this late is stuck
# "off": always draw in this process; "on": start a worker even where it would not pay (tests).
SWITCH = "CLUSTERBID_CHART_WORKER"


class ChartWorker:
    """A child process ready to draw; each worker draws one memo's charts, all of them (which
    ones are kept from an earlier export is known only later)."""

    def __init__(self, process: subprocess.Popen[bytes]):
        self._process = process
        self._asked = 0

    def send(self, drawn_from: tuple[Any, Any, Any], other_scripts: bool) -> None:
        """Ask for the charts of (scorecard, uncertainty, sensitivity) and go on meanwhile."""
        from clusterbid.core.memo.chart_drawing import chart_specs

        self._asked = len(chart_specs(*drawn_from))  # builders only: matplotlib is not imported
        stdin, self._process.stdin = self._process.stdin, None  # communicate() reads stdout only
        if stdin is None:
            return
        try:
            stdin.write(pickle.dumps((drawn_from, other_scripts), protocol=5))
        except (OSError, ValueError, pickle.PicklingError):
            pass  # the child gets an empty or cut request, fails, and the memo draws its charts
        finally:
            with contextlib.suppress(OSError):
                stdin.close()  # end of the request: the child stops waiting whatever happened

    def collect(self) -> dict[int, Chart]:
        """{chart index: chart} as the child drew them; empty when it could not (or took longer
        than TIMEOUT_S: it is stopped, never waited on for ever)."""
        from PIL import Image

        try:
            out, _ = self._process.communicate(timeout=TIMEOUT_S)
            if self._process.returncode != 0:
                return {}
            charts: dict[int, Chart] = {}
            at = 0
            for _ in range(self._asked):
                end = out.index(b"\n", at)
                head = json.loads(out[at:end])
                size = head["width"] * head["height"] * 3
                data = out[end + 1 : end + 1 + size]
                if len(data) != size:
                    return {}
                pixels = Image.frombytes("RGB", (head["width"], head["height"]), data)
                charts[int(head["index"])] = (
                    pixels,
                    (float(head["inches"][0]), float(head["inches"][1])),
                )
                at = end + 1 + size
            return charts
        except (OSError, ValueError, KeyError, TypeError, subprocess.SubprocessError):
            return {}
        finally:
            self.close()

    def close(self) -> None:
        """Stop the child if it still runs (its charts were not needed) and release its pipes."""
        if self._process.poll() is None:
            self._process.kill()
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self._process.wait(timeout=5)
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def _worth_starting() -> bool:
    switch = os.environ.get(SWITCH, "").lower()
    if switch == "off" or getattr(sys, "frozen", False):
        return False
    cores = os.cpu_count() or 1
    return switch == "on" or (
        "matplotlib.figure" not in sys.modules and cores >= 2 and _core_idle(cores)
    )


def _core_idle(cores: int) -> bool:
    """Whether the cores were not all busy on average over the last minute. The worker pays
    only by drawing on an idle core: it imports Python, numpy, matplotlib and the models again
    (about 1.7 CPU s more in all). On 2 busy cores (load average 5) the demo's first export took
    9.8 s median with it and 8.9 s without it (5.3 and 3.6 CPU s); near quiet (load 1.0) 1.35 s
    with it and 1.63 s without (resources/docs/benchmarks.md). Unknown load: start it."""
    try:
        return os.getloadavg()[0] < cores
    except (AttributeError, OSError):  # no load average on this platform
        return True


@contextlib.contextmanager
def chart_worker(wanted: bool = True) -> Iterator[ChartWorker | None]:
    """A worker for the memo being made (None where one would not pay, or not `wanted`: the
    charts are kept from an earlier export); stopped on the way out."""
    worker = None
    if wanted and _worth_starting():
        package_root = str(Path(__file__).resolve().parents[3])  # the folder holding clusterbid/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        with contextlib.suppress(OSError):
            worker = ChartWorker(
                subprocess.Popen(
                    [sys.executable, "-m", __name__],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=env,
                )
            )
    try:
        yield worker
    finally:
        if worker is not None:
            worker.close()


def _serve() -> None:
    """The child: warm up, then draw what the one request asks for."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401  the slow imports
    from matplotlib.figure import Figure

    import clusterbid.core.scoring  # noqa: F401  what the request's objects are made of
    import clusterbid.core.uncertainty  # noqa: F401
    from clusterbid.core.memo.chart_drawing import chart_specs, draw_chart, raster

    warm = Figure(figsize=(1, 1))  # loads the font list and the Agg canvas before the request
    warm.text(0.5, 0.5, "0")
    raster(warm)
    drawn_from, other_scripts = pickle.loads(sys.stdin.buffer.read())
    # Written when all are drawn: the pipe holds 64 KB, and the memo reads only once it has
    # worded everything else, so writing each chart as drawn would stall the drawing.
    drawn = []
    for index, (_, build) in enumerate(chart_specs(*drawn_from)):
        pixels, inches = draw_chart(build, other_scripts)
        head = {"index": index, "width": pixels.width, "height": pixels.height, "inches": inches}
        drawn.append(json.dumps(head).encode() + b"\n" + pixels.tobytes())
    sys.stdout.buffer.write(b"".join(drawn))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    _serve()
