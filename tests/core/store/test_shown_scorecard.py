"""Issue 24: the table as last shown is kept in the document for the next start's first paint,
and is never shown once the document has changed since, or when it is not as written."""

from __future__ import annotations

import json
import sqlite3

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.shown_scorecard import SHOWN_KEY, read_shown
from clusterbid.core.store import EvaluationDocument

COLUMNS = ["Rank", "Provider", "Net plan cost"]
ROWS = [["1", "Northwind AI Cloud", "$1,531,076"], ["2", "Cumulus Compute", "$1,615,491"]]


def test_the_table_kept_at_the_current_head_is_read_back_and_a_later_edit_makes_it_stale(tmp_path):
    path = tmp_path / "bids.clusterbid"
    with EvaluationDocument.create(path, demo_evaluation()) as document:
        assert read_shown(path) is None  # nothing kept yet
        assert document.remember_shown("Q1 2027", COLUMNS, ROWS)
        shown = read_shown(path)
        assert (shown["title"], shown["columns"], shown["rows"]) == ("Q1 2027", COLUMNS, ROWS)
        rows_before = len(document.audit_rows())
        assert (
            document.audit_report.ok and len(document.audit_rows()) == rows_before
        )  # not a record
        document.remove_bid("legacy-a100")
        assert read_shown(path) is None  # the scores shown were of the evaluation before the edit


def test_a_kept_table_that_is_not_as_written_is_not_shown(tmp_path):
    path = tmp_path / "bids.clusterbid"
    with EvaluationDocument.create(path, demo_evaluation()) as document:
        document.remember_shown("Q1 2027", COLUMNS, ROWS)
    for damaged in (
        "not json",
        json.dumps({"head": "x", "title": "t", "columns": [], "rows": []}),
        json.dumps({"title": "t", "columns": ["a"], "rows": [["1", "2"]]}),
    ):
        with sqlite3.connect(path) as conn:
            if damaged.startswith("{") and '"head": "x"' not in damaged:
                head = conn.execute("SELECT value FROM meta WHERE key = 'audit_head'").fetchone()[0]
                damaged = json.dumps(
                    {**json.loads(damaged), "head": head}
                )  # current head, ragged rows
            conn.execute("UPDATE meta SET value = ? WHERE key = ?", (damaged.encode(), SHOWN_KEY))
        assert read_shown(path) is None, damaged
    assert (
        read_shown(tmp_path / "missing.clusterbid") is None
        and read_shown(tmp_path / "bids.json") is None
    )


def test_a_huge_kept_table_is_refused_without_reading_it(tmp_path):
    """Time and memory of the refusal, through a subprocess: a 200 MB value in a hostile document."""
    path = tmp_path / "hostile.clusterbid"
    with EvaluationDocument.create(path, demo_evaluation()) as document:
        document.remember_shown("t", ["a"], [["1"]])
    for hostile in ("zeroblob(200000000)", "'x' || zeroblob(200000000)"):  # as bytes, and as text
        with sqlite3.connect(path) as conn:
            conn.execute(f"UPDATE meta SET value = {hostile} WHERE key = ?", (SHOWN_KEY,))
        _refused_quickly_and_small(path)


def _refused_quickly_and_small(path) -> None:
    import subprocess
    import sys

    # VmHWM, this process's own peak (ru_maxrss can carry the forking parent's on Linux); CPU
    # seconds rather than wall time, which a busy machine inflates.
    probe = (
        "import re, time; t = time.process_time(); "
        "from clusterbid.core.shown_scorecard import read_shown; "
        f"assert read_shown({str(path)!r}) is None; "
        "status = open('/proc/self/status').read(); "
        "print(time.process_time() - t, re.search(r'VmHWM:\\s+(\\d+)', status).group(1))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seconds, peak_kib = done.stdout.split()
    assert float(seconds) < 1.0 and int(peak_kib) < 100 * 1024  # never the 200 MB


def _forge(path, payload: dict) -> None:
    """What anyone who can write the file can do: a table of their own beside the current head."""
    with sqlite3.connect(path) as conn:
        head = conn.execute("SELECT value FROM meta WHERE key = 'audit_head'").fetchone()[0]
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = ?",
            (json.dumps({**payload, "head": head}).encode(), SHOWN_KEY),
        )


def test_a_forged_table_with_the_current_head_is_not_shown(tmp_path, monkeypatch):
    """Issue 35: the kept table is outside the audit; binding it to the head alone let a forger
    copy the head beside a ranking of their own, painted until the real window replaced it."""
    path = tmp_path / "bids.clusterbid"
    with EvaluationDocument.create(path, demo_evaluation()) as document:
        document.remember_shown("Q1 2027", COLUMNS, ROWS)
    kept = json.loads(
        sqlite3.connect(path)
        .execute("SELECT value FROM meta WHERE key = ?", (SHOWN_KEY,))
        .fetchone()[0]
    )
    flipped = [["1", "Cumulus Compute", "$1,615,491"], ["2", "Northwind AI Cloud", "$1,531,076"]]
    _forge(path, {"title": "Q1 2027", "columns": COLUMNS, "rows": flipped})  # no seal at all
    assert read_shown(path) is None
    _forge(path, {**kept, "rows": flipped})  # the honest table's seal over other rows
    assert read_shown(path) is None
    # Sealed by another user's key (another computer, or a forger's own copy of the app).
    monkeypatch.setenv("CLUSTERBID_DISPLAY_KEY", str(tmp_path / "mallory.key"))
    with EvaluationDocument.open(path) as document:
        document.remember_shown("Q1 2027", COLUMNS, flipped)
    assert read_shown(path)["rows"] == flipped  # mallory's app shows mallory's table to mallory
    monkeypatch.undo()
    assert read_shown(path) is None  # but not to this user
    _forge(path, kept)  # the honest table, as this user's app kept it, is shown again
    assert read_shown(path)["rows"] == ROWS
