"""How long a GUI test waits for the window before calling it hung.

A hang guard, never a speed check: the suite runs on machines that may be busy (CI shares the
developer's machine), where a background score that takes 0.2 s quiet can take many seconds.
Speed is measured by tests/perf/bench_gui.py, not asserted here.
"""

HANG_GUARD_MS = 120_000
