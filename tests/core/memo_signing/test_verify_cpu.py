"""`clusterbid verify` stays within a CPU bound set by an anchor measured in the same test.

CPU seconds of a child process (user + system, from wait4, its chart worker included), never wall
time: on a shared machine wall time measures the neighbours. The anchor is `python -c "import
numpy"` in the same conditions, so the bound moves with the machine. Bytecode goes to a
temporary folder on an untimed first run, as an installed package has it.

The bound: verify re-renders the memo (models, Monte Carlo, reportlab layout) and checks two
signatures: 12-14x the anchor on a 2-core machine at load average 6-11, with the charts kept by
the export (35x when the chart worker imports matplotlib and draws every chart, as on a computer
that never exported the memo: drawing them in the verify process again, or a heavy new import,
fails the bound). 20x leaves room for the anchor's own spread on a shared machine.
The seconds themselves are in tests/perf/bench_signing.py.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO

BOUND_TIMES_ANCHOR = 20.0


def _child_cpu(args: list[str], env: dict[str, str]) -> float:
    process = subprocess.Popen(
        [sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _pid, status, usage = os.wait4(process.pid, 0)
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 0, f"{args} failed: {stderr[-1500:]}"
    return usage.ru_utime + usage.ru_stime


def test_verify_cpu_seconds_stay_within_twenty_times_the_numpy_import(
    pki, signed_twice, memo_file, tmp_path
):
    memo = memo_file(signed_twice)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"PYTHONPATH": str(REPO / "desktop"), "PYTHONPYCACHEPREFIX": str(tmp_path / "pyc")})
    verify = ["-m", "clusterbid", "verify", str(memo), "--trust", str(pki.ca_pem)]
    anchor_args = ["-c", "import numpy"]
    _child_cpu(verify, env)  # untimed: bytecode written; the charts are kept by the memo's export
    _child_cpu(anchor_args, env)
    anchor = min(_child_cpu(anchor_args, env) for _ in range(3))
    verified = min(_child_cpu(verify, env) for _ in range(2))
    assert verified <= BOUND_TIMES_ANCHOR * anchor, (
        f"verify used {verified:.2f} CPU s = {verified / anchor:.1f}x the numpy import "
        f"({anchor:.3f} CPU s); the bound is {BOUND_TIMES_ANCHOR:.0f}x"
    )
    print(f"verify {verified:.2f} CPU s = {verified / anchor:.1f}x the anchor ({anchor:.3f} CPU s)")
