"""Beneath Details: the evidence worth asking the selected bid's provider for, the pack's export
from the app, and a returned log closing its request."""

from __future__ import annotations

import json
from pathlib import Path

from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.evidence_request.summary import asks
from clusterbid.core.uncertainty.value_of_information import value_of_information
from clusterbid.gui.uncertainty_source import MONTE_CARLO_SAMPLES

PUBLIC_LOG = (
    Path(__file__).parents[1] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)


def test_top_requests_show_then_a_returned_log_answers_the_exported_pack(qtbot, window, tmp_path):
    panel = window.requests
    window.comparison.select_bid("northwind-ib")
    qtbot.waitUntil(lambda: panel.voi is not None, timeout=HANG_GUARD_MS)
    evaluation = window.session.evaluation
    expected = asks(
        evaluation, value_of_information(evaluation, MONTE_CARLO_SAMPLES), "northwind-ib"
    )
    assert expected, "on the demo a measurement of the cheapest bid can change the choice"
    text = panel.text.toPlainText()
    assert all(a.text in text for a in expected) and "Ask Northwind AI Cloud for" in text
    assert panel.export_button.isEnabled()

    paths = panel.export_to(tmp_path / "pack")
    assert [p.suffix for p in paths] == [".md", ".json"] and all(p.exists() for p in paths)
    # The officer is told what was written, and where (issue 38, item 7).
    told = window.statusBar().currentMessage()
    assert all(str(p) in told for p in paths) and "Northwind AI Cloud" in told
    requests = {r["input"]: r for r in json.loads(paths[1].read_text(encoding="utf-8"))["requests"]}
    assert "Requests issued" in panel.text.toPlainText() and "open, due" in panel.text.toPlainText()

    rid = requests["busbw"]["request_id"]
    runs = [run["return_as"] for run in requests["busbw"]["runs"]]
    for count, name in enumerate(runs, start=1):
        # each returned file its own bytes: a document keeps one piece of evidence per file
        data = PUBLIC_LOG.read_bytes() + f"# returned as {name}\n".encode()
        reading = read_evidence(data, name)
        window.session.document.attach_evidence("northwind-ib", name, data, list(reading.evidence))
        panel.show_bid(window.session, "northwind-ib")
        shown = panel.text.toPlainText()
        assert f"{rid} " in shown and "answered, due" in shown, shown
        partly = "partly answered, due" in shown and f"{count} of {len(runs)} runs on file" in shown
        assert partly == (count < len(runs)), (count, shown)


def test_the_panel_reads_the_document_only_once_the_commit_lane_has_written(
    qtbot, window, monkeypatch
):
    """The panel asks the session for the document at each read (as every other panel does):
    a write queued on the commit lane is finished before the panel reads the connection. It kept
    a reference of its own, and read through it while the lane wrote."""
    import threading

    from clusterbid.gui import evidence_requests_panel

    panel, lane = window.requests, window.session.lane
    window.comparison.select_bid("northwind-ib")
    qtbot.waitUntil(lambda: panel.voi is not None, timeout=HANG_GUARD_MS)
    lane.settle()
    read_while_writing: list[bool] = []
    original = evidence_requests_panel.request_statuses

    def recording(document, today):
        read_while_writing.append(lane.unfinished())
        return original(document, today)

    monkeypatch.setattr(evidence_requests_panel, "request_statuses", recording)
    release = threading.Event()
    written: list[bool] = []
    # A write that holds the lane until released from another thread, a moment later.
    window.session.write_behind(lambda _document: written.append(release.wait(HANG_GUARD_MS)))
    releaser = threading.Timer(0.3, release.set)
    releaser.start()
    try:
        panel.show_bid(window.session, "northwind-ib")  # e.g. the bid selected again
    finally:
        release.set()
        releaser.join()
    assert read_while_writing == [False]
    assert written == [True]  # the queued write finished before the read
    assert not hasattr(panel, "_document") and isinstance(
        type(panel).__dict__["document"], property
    )
