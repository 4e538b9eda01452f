"""SIGKILL a process that is committing edits at 200 random instants: 0 corrupt files, 0 lost edits."""

from __future__ import annotations

import random
import signal
import sqlite3
import sys
import textwrap
from pathlib import Path

import pytest
from tests.reliability.killing import kill_repeatedly

from clusterbid.core.store import EvaluationDocument, replay_audit, verify_audit_chain

KILLS = 100  # exactly this many, however busy the machine (about 40 s on 2 quiet cores)
LOADED_MACHINE_TIMEOUT_S = 900  # a hang guard: ten times the quiet run, for a machine under load
FILES = 4  # one committing child per file at a time; files are reused across kills
MAX_DELAY_S = 0.03

pytestmark = [
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL"),
    pytest.mark.reliability,
    pytest.mark.timeout(LOADED_MACHINE_TIMEOUT_S),
]

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


def _check_files(paths: list[Path], acknowledged: dict[Path, list[list[str]]]) -> tuple[int, int]:
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
            lost += rows.get(int(seq)) != digest or bid_id not in bid_ids
    return corrupt, lost


def test_kill_during_commits_loses_and_corrupts_nothing(tmp_path):
    script = tmp_path / "committer.py"
    script.write_text(CHILD)
    paths = [tmp_path / f"kill-{i}.clusterbid" for i in range(FILES)]
    seed = random.randrange(2**32)
    run = kill_repeatedly(script, paths, KILLS, MAX_DELAY_S, seed)
    # Every file must open (integrity check included) as every user would after a crash.
    for path in paths:
        EvaluationDocument.open(path).close()
    corrupt, lost = _check_files(paths, run.acks)
    total_acks = sum(len(acks) for acks in run.acks.values())
    print(
        f"\nkill test: {run.kills} kills over {FILES} files, {total_acks} acknowledged edits, "
        f"{run.mid_transaction} kills inside a transaction (hot journal left), "
        f"{corrupt} corrupt, {lost} lost, {run.seconds:.1f} s wall (seed {seed})",
        file=sys.stderr,
    )
    assert run.kills == KILLS, f"seed {seed}: {run.kills} kills, {KILLS} asked for"
    # The test only means something if kills land inside transactions, not only between them.
    assert run.mid_transaction >= run.kills // 10, (
        f"seed {seed}: too few kills landed inside a transaction"
    )
    assert total_acks >= run.kills, "every run acknowledges at least one edit before its kill"
    assert corrupt == 0 and lost == 0, f"seed {seed}"
