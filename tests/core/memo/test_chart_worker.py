"""The chart worker draws the memo's charts in a second process: the memo it helps make must be
byte for byte the one drawn in a single process, and a worker that fails must cost nothing but
time."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from reportlab.lib.utils import ImageReader

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo import chart_cache
from clusterbid.core.memo.chart_drawing import chart_specs, draw_chart
from clusterbid.core.memo.chart_worker import ChartWorker
from clusterbid.core.memo.charts_section import chart_images
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import analyse_sensitivity, run_monte_carlo


def _memo_sha256(tmp_path, worker: str) -> str:
    out = tmp_path / f"memo-{worker}.pdf"
    env = {**os.environ, "CLUSTERBID_CHART_WORKER": worker, "CLUSTERBID_CHART_CACHE": "off"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clusterbid",
            "memo",
            str(tmp_path / "demo.json"),
            "-o",
            str(out),
            "--approver",
            "Ada Lovelace, CFO",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return hashlib.sha256(out.read_bytes()).hexdigest()


def test_a_memo_drawn_with_the_worker_is_the_memo_drawn_without_it(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "clusterbid", "demo", str(tmp_path / "demo.json")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert _memo_sha256(tmp_path, "on") == _memo_sha256(tmp_path, "off")


@pytest.fixture(scope="module")
def drawn_from():
    evaluation = demo_evaluation()
    return (
        score_evaluation(evaluation),
        run_monte_carlo(evaluation, 2_000, 7),
        analyse_sensitivity(evaluation),
    )


@pytest.mark.parametrize(
    "child",
    [
        "import sys; sys.stdin.buffer.read(); sys.exit(3)",  # crashed
        "import sys; sys.stdin.buffer.read(); sys.stdout.write('no charts here')",  # garbage
        # the right header and too few pixels: a child killed halfway through writing
        "import sys; sys.stdin.buffer.read(); sys.stdout.write("
        '\'{"index": 0, "width": 10, "height": 10, "inches": [1, 1]}\\n\' + \'x\' * 7)',
    ],
)
def test_a_worker_that_fails_leaves_the_charts_to_be_drawn_here(drawn_from, child, monkeypatch):
    monkeypatch.setenv("CLUSTERBID_CHART_CACHE", "off")
    process = subprocess.Popen(
        [sys.executable, "-c", child],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    worker = ChartWorker(process)
    worker.send(drawn_from, False)
    helped = chart_images(*drawn_from, worker=worker)
    assert process.poll() is not None  # not left running
    alone = [
        ImageReader(draw_chart(build, False)[0]).getRGBData()
        for _, build in chart_specs(*drawn_from)
    ]
    assert [image.pixels.getRGBData() for image in helped] == alone


def test_kept_charts_stop_the_worker_unread(drawn_from, tmp_path, monkeypatch):
    monkeypatch.setenv("CLUSTERBID_CHART_CACHE", str(tmp_path))
    chart_images(*drawn_from)  # drawn once here and kept
    assert len(list(tmp_path.glob("*.png"))) == len(chart_specs(*drawn_from))
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    worker = ChartWorker(sleeper)
    images = chart_images(*drawn_from, worker=worker)
    assert sleeper.wait(timeout=10) != 0  # killed: nothing to wait for
    assert len(images) == 4 and chart_cache.cache_folder() == tmp_path


def test_the_worker_draws_every_chart_as_this_process_would(drawn_from, monkeypatch):
    from clusterbid.core.memo.chart_worker import chart_worker

    monkeypatch.setenv("CLUSTERBID_CHART_WORKER", "on")  # matplotlib is loaded here: force one
    with chart_worker() as worker:
        assert worker is not None
        worker.send(drawn_from, False)
        drawn = worker.collect()
    specs = chart_specs(*drawn_from)
    assert sorted(drawn) == list(range(len(specs)))
    for index, (_, build) in enumerate(specs):
        pixels, inches = draw_chart(build, False)
        assert drawn[index][1] == inches
        assert drawn[index][0].tobytes() == pixels.tobytes()


def test_an_export_notes_its_charts_so_the_next_one_starts_no_worker(
    drawn_from, tmp_path, monkeypatch
):
    monkeypatch.setenv("CLUSTERBID_CHART_CACHE", str(tmp_path))
    index = chart_cache.memo_key("evaluation as JSON", 2_000)
    assert index is not None and not chart_cache.charts_kept_for(index)  # never exported
    chart_images(*drawn_from, chart_index=index)
    assert chart_cache.charts_kept_for(index)
    assert chart_cache.memo_key("another evaluation", 2_000) != index
    next(tmp_path.glob("*.png")).unlink()  # a chart pruned or lost: the hint no longer holds
    assert not chart_cache.charts_kept_for(index)
    monkeypatch.setenv("CLUSTERBID_CHART_CACHE", "off")  # nothing kept, nothing noted
    assert chart_cache.memo_key("evaluation as JSON", 2_000) is None


def test_a_stuck_worker_is_stopped_not_waited_on(drawn_from, monkeypatch):
    from clusterbid.core.memo import chart_worker

    monkeypatch.setattr(chart_worker, "TIMEOUT_S", 1)
    stuck = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    worker = ChartWorker(stuck)
    worker.send(drawn_from, False)
    assert worker.collect() == {}
    # Stopped, not waited on: a child left to finish would exit 0 after its 60 s sleep.
    assert stuck.poll() is not None and stuck.returncode != 0


def test_a_memo_drawn_by_the_worker_notes_its_charts_for_the_next_export(tmp_path, monkeypatch):
    from clusterbid.core.memo.making import make_memo

    monkeypatch.setenv("CLUSTERBID_CHART_CACHE", str(tmp_path))
    monkeypatch.setenv("CLUSTERBID_CHART_WORKER", "on")
    evaluation = demo_evaluation()
    index = chart_cache.memo_key(evaluation.model_dump_json(), 500)
    assert not chart_cache.charts_kept_for(index)
    make_memo(evaluation, approvers=[("Ada Lovelace", "CFO")], samples=500)
    assert chart_cache.charts_kept_for(index)
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".memo"] + [".png"] * 4


@pytest.mark.parametrize(
    ("load", "cores", "started"),
    [
        (1.0, 2, True),  # a core idle on average: the worker draws there while the memo words
        (1.99, 2, True),
        (2.0, 2, False),  # both cores busy: its second start-up would only add CPU time
        (5.0, 2, False),
        (5.0, 8, True),
        (0.1, 1, False),  # one core: never
    ],
)
def test_a_worker_starts_only_where_a_core_is_not_busy(monkeypatch, load, cores, started):
    from clusterbid.core.memo import chart_worker

    monkeypatch.delenv("CLUSTERBID_CHART_WORKER", raising=False)
    monkeypatch.setattr(chart_worker.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(chart_worker.os, "cpu_count", lambda: cores)
    monkeypatch.delitem(sys.modules, "matplotlib.figure", raising=False)  # a fresh process
    assert chart_worker._worth_starting() is started
    monkeypatch.setenv("CLUSTERBID_CHART_WORKER", "on")  # the tests' switch still forces one
    assert chart_worker._worth_starting() is True


def test_a_worker_starts_where_the_load_cannot_be_read(monkeypatch):
    from clusterbid.core.memo import chart_worker

    def unreadable():
        raise OSError("no load average")

    monkeypatch.delenv("CLUSTERBID_CHART_WORKER", raising=False)
    monkeypatch.setattr(chart_worker.os, "getloadavg", unreadable)
    monkeypatch.setattr(chart_worker.os, "cpu_count", lambda: 2)
    monkeypatch.delitem(sys.modules, "matplotlib.figure", raising=False)
    assert chart_worker._worth_starting() is True
