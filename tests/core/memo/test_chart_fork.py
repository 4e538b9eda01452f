"""The first export's charts on two cores (core/memo/chart_fork.py, early_charts.py): a forked
child draws charts and hands their pixels back; the memo's bytes are those of charts all drawn in
one process. Drawings are counted in this process (the child's own count stays in the child),
never timed."""

from __future__ import annotations

import os
import time

import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo import chart_cache, chart_drawing, chart_fork, early_charts
from clusterbid.core.memo.making import _score_and_decide, make_memo

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
SAMPLES = 300


def _memo() -> bytes:
    return make_memo(demo_evaluation(), approvers=["Ada Lovelace, CFO"], samples=SAMPLES)


def _decided():
    scorecard, uncertainty, sensitivity, _ = _score_and_decide(
        demo_evaluation(), SAMPLES, None, lambda *_: None
    )
    return scorecard, uncertainty, sensitivity


@pytest.fixture
def drawn_here(monkeypatch) -> list[int]:
    """The process id of each chart drawn, as this process sees it; the charts are never kept."""
    monkeypatch.setenv(chart_cache.CACHE_ENV, "off")
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", False)  # as in the app, unless a test allows
    calls: list[int] = []
    real = chart_drawing.draw_chart

    def counted(build, other_scripts):
        calls.append(os.getpid())
        return real(build, other_scripts)

    monkeypatch.setattr(chart_drawing, "draw_chart", counted)
    return calls


def _allow(monkeypatch) -> None:
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", True)
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: True)


def test_the_early_child_draws_all_but_the_first_chart_and_the_bytes_stay(drawn_here, monkeypatch):
    alone = _memo()
    assert len(drawn_here) == 4  # not allowed (as in the app): all four drawn here
    _allow(monkeypatch)
    drawn_here.clear()
    forked = _memo()
    assert len(drawn_here) == 1  # the other three came through the pipe
    assert forked == alone
    assert not early_charts._STARTED  # taken by the charts section


def test_a_memo_rendered_again_splits_its_charts_at_the_charts_section(drawn_here, monkeypatch):
    """Verify's re-render (its evidence words given) starts no early child: nothing of its own
    would overlap it; half its charts are drawn in a child at the charts section."""
    again = {"approvers": ["Ada Lovelace, CFO"], "samples": SAMPLES, "evidence_lines": ()}
    alone = make_memo(demo_evaluation(), **again)
    _allow(monkeypatch)
    monkeypatch.setattr(early_charts, "start_early", lambda *_: pytest.fail("started early"))
    drawn_here.clear()
    assert make_memo(demo_evaluation(), **again) == alone
    assert len(drawn_here) == 2


def test_charts_drawn_half_in_a_child_are_the_pixels_drawn_here(drawn_here, monkeypatch):
    specs = chart_drawing.chart_specs(*_decided())
    drawings = list(enumerate(build for _, build in specs))
    alone = chart_fork.draw_missing(drawings, False)
    _allow(monkeypatch)
    drawn_here.clear()
    halves = chart_fork.draw_missing(drawings, False)
    assert len(drawn_here) == 2
    assert halves.keys() == alone.keys() == {0, 1, 2, 3}
    for position, (pixels, size) in alone.items():
        assert halves[position][1] == size
        assert halves[position][0].tobytes() == pixels.tobytes()


def _child_fails(monkeypatch, how) -> list[int]:
    """draw_chart doing `how` in any child; the drawings made here, counted."""
    parent, real, here = os.getpid(), chart_drawing.draw_chart, []

    def in_the_child(build, other_scripts):
        if os.getpid() != parent:
            how()
        here.append(parent)
        return real(build, other_scripts)

    monkeypatch.setattr(chart_drawing, "draw_chart", in_the_child)
    return here


def test_charts_the_child_does_not_hand_back_are_drawn_here(drawn_here, monkeypatch):
    alone = _memo()
    _allow(monkeypatch)

    def fail():
        raise RuntimeError("the child cannot draw")

    here = _child_fails(monkeypatch, fail)
    assert _memo() == alone
    assert len(here) == 4  # its own, then the three the child failed to hand back


def test_a_child_still_drawing_is_stopped_and_its_charts_drawn_here(drawn_here, monkeypatch):
    alone = _memo()
    _allow(monkeypatch)
    monkeypatch.setattr(chart_fork, "CHILD_SECONDS", 0.5)
    here = _child_fails(monkeypatch, lambda: time.sleep(600))  # as if stuck on a copied lock
    assert _memo() == alone
    assert len(here) == 4


def test_a_child_no_charts_section_takes_is_stopped(drawn_here, monkeypatch):
    """A memo that fails after the Monte Carlo (a refusal) leaves no child behind."""
    _allow(monkeypatch)
    early_charts.start_early(*_decided())
    (early,) = early_charts._STARTED
    assert early.child == [1, 2, 3]
    early_charts.stop_early()
    assert not early_charts._STARTED
    with pytest.raises(ChildProcessError):  # stopped and reaped: no such child any more
        os.waitpid(early.pid, os.WNOHANG)


def test_no_fork_without_a_core_to_spare(drawn_here, monkeypatch):
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", True)
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: False)

    def no_fork():
        raise AssertionError("forked without a core to spare")

    monkeypatch.setattr(os, "fork", no_fork)
    _memo()
    assert len(drawn_here) == 4


def test_a_core_to_spare_is_read_from_what_runs_now(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (5.0, 5.0, 5.0))  # the past does not count
    monkeypatch.setattr(chart_fork, "running_now", lambda: 1)
    assert chart_fork.core_to_spare()  # 2 cores, this process alone running: one is idle
    monkeypatch.setattr(chart_fork, "running_now", lambda: 2)
    assert not chart_fork.core_to_spare()  # a neighbour takes the other core
    monkeypatch.setattr(chart_fork, "running_now", lambda: None)  # not Linux: the load average
    monkeypatch.setattr(os, "getloadavg", lambda: (1.9, 0.0, 0.0))
    assert chart_fork.core_to_spare()
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 0.0, 0.0))
    assert not chart_fork.core_to_spare()
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    monkeypatch.setattr(chart_fork, "running_now", lambda: 1)
    assert not chart_fork.core_to_spare()  # one core: nothing to spare


def test_running_now_counts_this_process():
    running = chart_fork.running_now()
    assert running is None or running >= 1  # this test runs while it reads


def test_only_the_command_line_verbs_fork_and_only_while_they_run(tmp_path, monkeypatch):
    """`clusterbid memo` run in this process (as the tests do) leaves it as it was: not forking."""
    from clusterbid.cli import main

    monkeypatch.setenv(chart_cache.CACHE_ENV, "off")
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: True)
    source = tmp_path / "demo.json"
    source.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    forks: list[bool] = []
    real = early_charts.start_early

    def seen(*args):
        forks.append(chart_fork.forks(2))
        return real(*args)

    monkeypatch.setattr(early_charts, "start_early", seen)
    memo = ["memo", str(source), "-o", str(tmp_path / "m.pdf"), "--samples", str(SAMPLES)]
    assert main([*memo, "--approver", "Ada Lovelace, CFO"]) == 0
    assert forks == [True]  # the command forked its charts ...
    assert not chart_fork._ALLOWED["fork"] and not chart_fork.forks(2)  # ... and no longer may
