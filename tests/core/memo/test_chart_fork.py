"""The first export's charts on two cores (core/memo/chart_fork.py): a forked child draws half of
them and hands their pixels back; the memo's bytes are those of charts all drawn in one process.
Drawings are counted in this process (the child's own count stays in the child), never timed."""

from __future__ import annotations

import os
import time

import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo import chart_cache, chart_drawing, chart_fork
from clusterbid.core.memo.making import make_memo

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def _memo() -> bytes:
    return make_memo(demo_evaluation(), approvers=["Ada Lovelace, CFO"], samples=300)


@pytest.fixture
def drawn_here(monkeypatch) -> list[int]:
    """The process id of each chart drawn, as this process sees it; the charts are never kept."""
    monkeypatch.setenv(chart_cache.CACHE_ENV, "off")
    calls: list[int] = []
    real = chart_drawing.draw_chart

    def counted(build, other_scripts):
        calls.append(os.getpid())
        return real(build, other_scripts)

    monkeypatch.setattr(chart_drawing, "draw_chart", counted)
    return calls


def test_a_forked_child_draws_half_the_charts_and_the_bytes_stay(drawn_here, monkeypatch):
    alone = _memo()
    assert len(drawn_here) == 4  # not allowed (as in the app): all four drawn here
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", True)
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: True)
    drawn_here.clear()
    forked = _memo()
    assert len(drawn_here) == 2  # the other two came through the pipe
    assert forked == alone


def test_charts_the_child_does_not_hand_back_are_drawn_here(drawn_here, monkeypatch):
    alone = _memo()
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", True)
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: True)
    parent, real, here = os.getpid(), chart_drawing.draw_chart, []

    def fails_in_the_child(build, other_scripts):
        if os.getpid() != parent:
            raise RuntimeError("the child cannot draw")
        here.append(parent)
        return real(build, other_scripts)

    monkeypatch.setattr(chart_drawing, "draw_chart", fails_in_the_child)
    assert _memo() == alone
    assert len(here) == 4  # two of its own, then the two the child failed to hand back


def test_a_child_still_drawing_is_stopped_and_its_charts_drawn_here(drawn_here, monkeypatch):
    alone = _memo()
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", True)
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: True)
    monkeypatch.setattr(chart_fork, "CHILD_SECONDS", 0.5)
    parent, real, here = os.getpid(), chart_drawing.draw_chart, []

    def hangs_in_the_child(build, other_scripts):
        if os.getpid() != parent:
            time.sleep(600)  # as a child stuck on a lock copied by the fork would
        here.append(parent)
        return real(build, other_scripts)

    monkeypatch.setattr(chart_drawing, "draw_chart", hangs_in_the_child)
    assert _memo() == alone
    assert len(here) == 4


def test_no_fork_without_a_core_to_spare(drawn_here, monkeypatch):
    monkeypatch.setitem(chart_fork._ALLOWED, "fork", True)
    monkeypatch.setattr(chart_fork, "core_to_spare", lambda: False)

    def no_fork():
        raise AssertionError("forked without a core to spare")

    monkeypatch.setattr(os, "fork", no_fork)
    _memo()
    assert len(drawn_here) == 4


def test_a_core_to_spare_is_read_from_the_load(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.9, 0.0, 0.0))
    assert chart_fork.core_to_spare()  # 2 cores, 1.9 busy on average: some of one is idle
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 0.0, 0.0))
    assert not chart_fork.core_to_spare()  # every core taken
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not chart_fork.core_to_spare()  # one core: nothing to spare
