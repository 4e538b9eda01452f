"""The app's acceptance doors run the shared operations: the Edit menu writes the selected bid's
acceptance plan (the same three files as `clusterbid acceptance-plan`) and its results dialog
judges a returned nccl-tests log against the plan kept in the document."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.gui.test_no_codes_where_officers_read import ALLOWED, CODE, _widget_texts

PUBLIC_LOG = (
    Path(__file__).parents[1] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)


def test_the_selected_bids_plan_is_written_and_a_returned_log_is_judged(
    qtbot, window, dialog_log, tmp_path
):
    window.comparison.select_bid("northwind-ib")
    assert (
        window.actions_.acceptance_plan.isEnabled()
        and window.actions_.acceptance_status.isEnabled()
    )
    paths = window.acceptance.write_plan(tmp_path / "annex")
    assert [p.suffix for p in paths] == [".md", ".json", ".pdf"] and all(p.exists() for p in paths)
    assert "Acceptance plan for Northwind AI Cloud (9 tests)" in window.statusBar().currentMessage()

    window.actions_.acceptance_status.trigger()
    dialog = window.acceptance.dialog
    assert dialog is not None and dialog.isVisible()
    text = dialog.text.toPlainText()
    assert "nccl-tests all-reduce bus bandwidth on 2 nodes: missing: nothing returned yet" in text
    log = tmp_path / "ACC-busbw-2nodes_allreduce_default.log"
    shutil.copyfile(PUBLIC_LOG, log)
    assert dialog.attach([log])
    # 338.82 GB/s against 90% of 8 x 400 Gb/s x 0.94 = 338.4 GB/s: passed.
    assert (
        "2 nodes: passed, measured 338.82 GB/s (pass at least 338.4 GB/s)"
        in dialog.text.toPlainText()
    )
    dialog.show_results(with_what_if=True)
    assert "What-if with the measured figures" in dialog.text.toPlainText()
    # Words, not codes: only the names of the files returned (the provider's, by the plan's rule)
    # and nccl-tests' own collective may look like identifiers.
    returned = re.compile(r"\bACC-[A-Za-z0-9_.-]+\.(?:log|csv|json)\b")
    texts = [*_widget_texts(dialog), ("results", dialog.text.toPlainText())]
    codes = [
        (where, hit)
        for where, text in texts
        for hit in CODE.findall(ALLOWED.sub("", returned.sub("", text)))
    ]
    assert not codes, codes
    assert CODE.findall("a busbw_evidence slip")  # the scan would catch one

    stray = tmp_path / "results.log"
    shutil.copyfile(PUBLIC_LOG, stray)
    assert not dialog.attach([stray])
    assert dialog_log.shown[-1][:2] == ("problem", "Nothing was attached")
    assert "does not begin with a test id" in dialog_log.shown[-1][2]
    dialog.close()
