"""SIGKILL a process doing multi-part user actions: the file only ever holds a state the user saw.

Each action renames a bid (the wizard), removes one and adds four (an imported sheet), or undoes
all of that at once; before this was one transaction, 47 of 200 kills left a state in between.
"""

from __future__ import annotations

import random
import signal
import sys
import textwrap
from pathlib import Path

import pytest
from tests.reliability.killing import BUILDERS, kill_repeatedly

from clusterbid.core.store import EvaluationDocument, verify_audit_chain

KILLS = 40  # exactly this many, however busy the machine (about 20 s on 2 quiet cores)
LOADED_MACHINE_TIMEOUT_S = 600  # a hang guard sized for a loaded machine, not a speed check
FILES = 2
MAX_DELAY_S = 0.05

pytestmark = [
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL"),
    pytest.mark.reliability,
    pytest.mark.timeout(LOADED_MACHINE_TIMEOUT_S),
]

STATES = textwrap.dedent(
    """
    from builders import make_bid, make_evaluation

    def states():
        before = make_evaluation(3)
        kept = [b for b in before.bids if b.id != "bid-2"]
        renamed = [make_bid("bid-1-rev", price="1.50", provider="Provider 1") if b.id == "bid-1" else b for b in kept]
        sheet = [make_bid(f"sheet-{i}", price="2.20") for i in range(4)]
        return before, before.model_copy(update={"bids": (*renamed, *sheet)})
    """
)

CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from states import states
    from clusterbid.core.store import EvaluationDocument

    before, after = states()
    path = Path(sys.argv[1])
    doc = EvaluationDocument.open(path, user="kill-test") if path.exists() else EvaluationDocument.create(path, before)
    while True:
        target, label = (after, "Import and rename") if doc.evaluation == before else (before, "Undo Import and rename")
        doc.apply(target, label)
        print("ack", *doc.head, flush=True)
    """
)


def test_a_killed_user_action_leaves_the_state_before_or_after_it(tmp_path):
    (tmp_path / "states.py").write_text(STATES)
    script = tmp_path / "actor.py"
    script.write_text(CHILD)
    sys.path[:0] = [str(tmp_path), str(BUILDERS)]
    try:
        from states import states
    finally:
        del sys.path[:2]
    before, after = states()
    assert len(after.bids) == 6 and before != after  # the action touches five bids at once
    found: list[str] = []

    def inspect(path: Path) -> None:
        with EvaluationDocument.open(path) as doc:
            found.append(
                "before"
                if doc.evaluation == before
                else "after"
                if doc.evaluation == after
                else "between"
            )
        report = verify_audit_chain(path)
        assert report.ok, report.reason

    paths = [tmp_path / f"act-{i}.clusterbid" for i in range(FILES)]
    run = kill_repeatedly(
        script, paths, KILLS, MAX_DELAY_S, random.randrange(2**32), after_kill=inspect
    )
    assert run.kills == KILLS and len(found) == KILLS
    assert found.count("between") == 0
    assert run.mid_transaction >= run.kills // 10, "too few kills landed inside a transaction"
    with EvaluationDocument.open(tmp_path / "act-0.clusterbid") as doc:
        rows = doc.audit_rows()
    # One row per acknowledged action: the create row, then only `edit` rows, with the replay
    # checkpoint the store writes after every 500th row (issue 32) and nothing else.
    actions = [row.action for row in rows[1:]]
    assert set(actions) <= {"edit", "checkpoint"} and "edit" in actions
    assert actions.count("checkpoint") <= len(rows) // 500
