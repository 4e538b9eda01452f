"""Where the chart child must not be forked, or must be stopped (found by review of
core/memo/chart_fork.py): an inherited SIGCHLD = SIG_IGN made waitpid fail and the export crash;
a Qt application's threads are not Python's, so a one-thread count missed them; a parent that
failed while its child drew left the child blocked on a full pipe."""

from __future__ import annotations

import os
import signal
import sys
import time
import types

import pytest
from tests.core.memo import test_chart_fork as shared

from clusterbid.core.memo import chart_drawing, chart_fork

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
drawn_here = shared.drawn_here  # the fixture: each chart drawn here counted, none kept
_allow, _decided, _memo = shared._allow, shared._decided, shared._memo


def test_with_children_ignored_nothing_forks_and_the_memo_is_made(drawn_here, monkeypatch):
    alone = _memo()
    _allow(monkeypatch)
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert not chart_fork.forks(4)
        drawn_here.clear()
        assert _memo() == alone
        assert len(drawn_here) == 4  # every chart drawn here
    finally:
        signal.signal(signal.SIGCHLD, before)


def test_a_child_reaped_by_someone_else_leaves_its_charts_to_be_drawn_here(drawn_here):
    def failing(build, other_scripts):
        raise RuntimeError("the child cannot draw")

    chart_drawing.draw_chart = failing  # the fixture puts the real one back
    specs = chart_drawing.chart_specs(*_decided())
    reader, pid = chart_fork.start([(1, specs[1][1])], lambda: False)
    os.waitpid(pid, 0)  # someone else reaps it first
    assert chart_fork._collect(reader, pid) == {}


def test_no_fork_while_a_qt_application_runs(drawn_here, monkeypatch):
    # A stand-in for QtCore with an application running: a real one would stay for the rest of
    # the test session and keep every later test from forking.
    class Application:
        @staticmethod
        def instance() -> object:
            return object()

    _allow(monkeypatch)
    assert chart_fork.forks(4)
    monkeypatch.setitem(
        sys.modules, "PySide6.QtCore", types.SimpleNamespace(QCoreApplication=Application)
    )
    assert not chart_fork.forks(4)


def test_a_parent_that_fails_while_its_child_draws_stops_the_child(drawn_here, monkeypatch):
    _allow(monkeypatch)
    parent = os.getpid()
    started: list[int] = []
    real_start = chart_fork.start

    def recorded(drawings, other_scripts):
        reader, pid = real_start(drawings, other_scripts)
        started.append(pid)
        return reader, pid

    def draw(build, other_scripts):
        if os.getpid() == parent:
            raise RuntimeError("the parent's own chart fails")
        time.sleep(600)  # the child would draw for ever

    monkeypatch.setattr(chart_fork, "start", recorded)
    monkeypatch.setattr(chart_drawing, "draw_chart", draw)
    specs = chart_drawing.chart_specs(*_decided())
    with pytest.raises(RuntimeError, match="parent's own chart"):
        chart_fork.draw_missing([(i, specs[i][1]) for i in range(4)], False)
    (pid,) = started
    with pytest.raises(ChildProcessError):  # killed and reaped: no such child any more
        os.waitpid(pid, os.WNOHANG)
