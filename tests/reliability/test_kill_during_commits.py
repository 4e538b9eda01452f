"""SIGKILL a process that is committing edits at 200 random instants: 0 corrupt files, 0 lost edits."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from clusterbid.core.store import EvaluationDocument, replay_audit, verify_audit_chain

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
BUILDERS = Path(__file__).resolve().parents[1] / "core" / "store"
KILLS = 200
FILES = 4  # one committing child per file at a time; files are reused across kills
MAX_DELAY_S = 0.03

CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from builders import make_bid, make_evaluation
    from clusterbid.core.store import EvaluationDocument

    path, run = Path(sys.argv[1]), sys.argv[2]
    if path.exists():
        doc = EvaluationDocument.open(path, user="kill-test")
    else:
        doc = EvaluationDocument.create(path, make_evaluation(1), user="kill-test")
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        bid_id = f"r{run}-{n}"
        doc.add_bid(make_bid(bid_id, price="2.00"))
        print("ack", bid_id, *doc.head, flush=True)
        if n % 3 == 0:
            doc.replace_bid(bid_id, make_bid(bid_id, price="1.90"))
            print("ack", bid_id, *doc.head, flush=True)
        if n % 5 == 0:
            doc.attach_artefact(f"{bid_id}.log", bytes(range(256)) * 40, bid_id=bid_id)
            print("ack", bid_id, *doc.head, flush=True)
    """
)


def run_and_kill(script: Path, path: Path, run: int, rng: random.Random) -> tuple[list[tuple[str, int, str]], bool]:
    """Start a child, let it commit for a random moment, SIGKILL it; return its acknowledgements and
    whether the kill landed inside a transaction (a hot rollback journal was left beside the file)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(DESKTOP), str(BUILDERS)])}
    child = subprocess.Popen([sys.executable, str(script), str(path), str(run)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
    first = child.stdout.readline()
    if first != b"ready\n":
        child.kill()
        raise AssertionError(f"child failed to start: {first!r} {child.stderr.read().decode()[-2000:]}")
    # Wait for the first acknowledged edit before the random delay, so every run has something to
    # lose however slow the machine's disk is (a slow CI runner once gave fewer acks than kills).
    first_ack = child.stdout.readline()
    time.sleep(rng.uniform(0, MAX_DELAY_S))
    child.send_signal(signal.SIGKILL)
    out = first_ack + child.stdout.read()
    child.wait()
    mid_transaction = path.with_name(path.name + "-journal").exists()
    child.stderr.close()
    child.stdout.close()
    acks = []
    for line in out.decode().splitlines(keepends=True):
        if line.endswith("\n"):  # a line cut by the kill was never acknowledged
            _, bid_id, seq, digest = line.split()
            acks.append((bid_id, int(seq), digest))
    return acks, mid_transaction


def test_kill_during_commits_loses_and_corrupts_nothing(tmp_path):
    script = tmp_path / "committer.py"
    script.write_text(CHILD)
    paths = [tmp_path / f"kill-{i}.clusterbid" for i in range(FILES)]
    acknowledged: dict[Path, list[tuple[str, int, str]]] = {path: [] for path in paths}
    mid_transaction_kills: list[bool] = []
    errors: list[BaseException] = []
    seed = random.randrange(2**32)

    def worker(index: int) -> None:
        rng = random.Random(seed + index)
        try:
            for run in range(index, KILLS, FILES):
                acks, mid_transaction = run_and_kill(script, paths[index], run, rng)
                acknowledged[paths[index]].extend(acks)
                mid_transaction_kills.append(mid_transaction)
                # Between kills, the file must open (integrity check included) as every user would.
                EvaluationDocument.open(paths[index]).close()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    start = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(FILES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, f"seed {seed}: {errors[0]!r}"

    corrupt = lost = 0
    for path in paths:
        conn = sqlite3.connect(path)
        corrupt += conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
        rows = {seq: digest for seq, digest in conn.execute("SELECT seq, hash FROM audit")}
        conn.close()
        with EvaluationDocument.open(path) as doc:
            bid_ids = {bid.id for bid in doc.evaluation.bids}
            assert replay_audit(doc.audit_rows()) == doc.evaluation
        assert verify_audit_chain(path).ok
        for bid_id, seq, digest in acknowledged[path]:
            lost += rows.get(seq) != digest or bid_id not in bid_ids
    total_acks = sum(len(acks) for acks in acknowledged.values())
    print(f"\nkill test: {KILLS} kills over {FILES} files, {total_acks} acknowledged edits, "
          f"{sum(mid_transaction_kills)} kills inside a transaction (hot journal left), "
          f"{corrupt} corrupt, {lost} lost, {time.monotonic() - start:.1f} s (seed {seed})")
    # The test only means something if kills land inside transactions, not only between them.
    assert sum(mid_transaction_kills) >= KILLS // 10, "too few kills landed inside a transaction"
    assert total_acks >= KILLS, "every run should acknowledge at least one edit before its kill"
    assert corrupt == 0 and lost == 0
