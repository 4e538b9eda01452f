"""What a refusal costs, measured in a child process of its own: CPU seconds and memory growth.

The house rule is that time and memory of refusals are asserted through a subprocess. The suite's
own process is never timed: threads that earlier tests leave behind (the scoring runner, pools
winding down) run in it, and `time.process_time()` would count their CPU as the refusal's; its
memory high-water mark carries every earlier test's. A child does one thing: it runs `setup`
(imports, reading the hostile file), then measures only `call`, and reports what `call` raised.
The caller checks the behaviour in-process as before (the exception type and message); this
module answers only "how much did refusing cost".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

DESKTOP = Path(__file__).resolve().parents[1] / "desktop"

# argv: setup code, the call, then the caller's arguments (ARGS in both). CPU is the child's own
# user + system time around the call; memory is the growth of its high-water mark (VmHWM) over
# what it held just before the call, so the interpreter and the imports are left out. The mark is
# reset first (Linux's clear_refs, 5): a setup that built a file and let it go leaves none.
_PROBE = r"""
import json, re, resource, sys

def kib(field):
    return int(re.search(field + r":\s+(\d+) kB", open("/proc/self/status").read())[1])

space = {"ARGS": sys.argv[3:]}
exec(sys.argv[1], space)
with open("/proc/self/clear_refs", "w") as refs:  # the peak so far (the setup's) forgotten
    refs.write("5")
held = kib("VmRSS")
start = resource.getrusage(resource.RUSAGE_SELF)
raised = None
try:
    exec(sys.argv[2], space)
except Exception as exc:
    raised = {"types": [c.__name__ for c in type(exc).__mro__], "message": str(exc)}
end = resource.getrusage(resource.RUSAGE_SELF)
cpu = (end.ru_utime + end.ru_stime) - (start.ru_utime + start.ru_stime)
print(json.dumps({"raised": raised, "cpu": cpu, "growth_kib": kib("VmHWM") - held}))
"""


@dataclass(frozen=True)
class RefusalCost:
    raised: tuple[str, ...]  # the exception's class and its bases, by name; () if none
    message: str
    cpu_seconds: float  # the child's own CPU around the call: the same on a busy machine
    memory_growth_mib: float  # how far the call raised the child's peak above what it held

    def refused_with(self, error: type[BaseException]) -> bool:
        return error.__name__ in self.raised


def refusal_cost(setup: str, call: str, *args: str, timeout_s: float = 300.0) -> RefusalCost:
    """Run `setup` then `call` (Python source; both see ARGS, the strings in `args`) in a fresh
    interpreter with the app on its path. `timeout_s` only catches a hang, sized for a loaded
    machine; nothing here reads the clock."""
    env = {**os.environ, "PYTHONPATH": str(DESKTOP), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, setup, call, *args],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        env=env,
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise AssertionError(f"the probe child failed ({done.returncode}): {done.stderr[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    raised = report["raised"] or {"types": [], "message": ""}
    return RefusalCost(
        tuple(raised["types"]),
        raised["message"],
        float(report["cpu"]),
        report["growth_kib"] / 1024,
    )
