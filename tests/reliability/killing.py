"""Start committing children, SIGKILL each at a random instant, collect what each acknowledged.

Processes only (no threads in the test process, whose join once failed under load), every wait
bounded by a deadline that only catches a hung child. The number of kills is fixed, never "as
many as fit in N seconds": a busy machine makes the run slower, not weaker, and the callers give
the test a per-test timeout sized for a loaded machine (a hang guard, not a speed check).
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
BUILDERS = Path(__file__).resolve().parents[1] / "core" / "store"
START_TIMEOUT_S = 120.0  # a child that has not committed once by then is hung, not on a slow disk


@dataclass
class Child:
    path: Path
    process: subprocess.Popen
    output: bytearray = field(default_factory=bytearray)

    def read_available(self, timeout: float) -> bool:
        """Append what the child wrote within `timeout`; False at end of output."""
        fd = self.process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(timeout, 0.0))
        if not ready:
            return True
        chunk = os.read(fd, 65536)
        self.output.extend(chunk)
        return bool(chunk)

    def wait_for_acks(self, count: int, deadline: float) -> None:
        while self.output.count(b"\nack ") + self.output.startswith(b"ack ") < count:
            if time.monotonic() > deadline or not self.read_available(deadline - time.monotonic()):
                self.process.kill()
                self.process.wait()
                err = self.process.stderr.read().decode(errors="replace")[-2000:]
                raise AssertionError(
                    f"child on {self.path.name} did not commit in time: {bytes(self.output)!r} "
                    f"{err}"
                )

    def kill_and_collect(self) -> tuple[list[list[str]], bool]:
        """SIGKILL; return the complete `ack ...` lines and whether a hot journal was left."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        while self.read_available(1.0):
            pass
        self.process.stdout.close()
        self.process.stderr.close()
        mid_transaction = self.path.with_name(self.path.name + "-journal").exists()
        lines = (
            bytes(self.output).decode().split("\n")[:-1]
        )  # a line cut by the kill was never acknowledged
        return [line.split()[1:] for line in lines if line.startswith("ack ")], mid_transaction


def start(script: Path, path: Path, run: int) -> Child:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(DESKTOP), str(BUILDERS)])}
    process = subprocess.Popen(
        [sys.executable, str(script), str(path), str(run)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    return Child(path, process)


@dataclass
class KillRun:
    acks: dict[Path, list[list[str]]]
    kills: int
    mid_transaction: int
    seconds: float


def kill_repeatedly(
    script: Path,
    paths: list[Path],
    kills: int,
    max_delay_s: float,
    seed: int,
    after_kill: Callable[[Path], None] | None = None,
) -> KillRun:
    """Rounds of one child per file until `kills` children were killed: each commits once, then
    is killed after a random delay; `after_kill(path)` inspects the file as the next user would."""
    rng = random.Random(seed)
    acks: dict[Path, list[list[str]]] = {path: [] for path in paths}
    done = mid = 0
    started = time.monotonic()
    while done < kills:
        children = [start(script, path, done + i) for i, path in enumerate(paths[: kills - done])]
        deadline = time.monotonic() + START_TIMEOUT_S
        for child in children:
            child.wait_for_acks(
                1, deadline
            )  # every run has something to lose, however slow the disk
        for child in rng.sample(children, len(children)):
            time.sleep(rng.uniform(0, max_delay_s))
            child_acks, hot = child.kill_and_collect()
            acks[child.path].extend(child_acks)
            mid += hot
            if after_kill is not None:
                after_kill(child.path)
            done += 1
    return KillRun(acks, done, mid, time.monotonic() - started)
