"""File > Request Evidence… in the serving window: the selected bid's request-for-evidence pack
(the serving benchmark to run, and the terms to state), written to a folder and kept in the
document so the benchmark files the provider returns are matched to it when attached.

The same operation as `clusterbid request-evidence` on a serving document
(operations/evidence_request.py): what each measurement is worth (a full serving Monte Carlo,
0.3 s on the demo, seconds at 50 bids) is drawn on the background runner, never while the window
waits; then the pack is written on the session's commit lane after every edit before it, as
Attach Serving Benchmark runs its write. A refusal is said in words and nothing is issued.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QFileDialog

from clusterbid.core.evidence_request.serving_summary import ask_line, serving_asks
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.gui import dialogs
from clusterbid.gui.serving_benchmark import _attach_on_the_lane
from clusterbid.operations.evidence_request import (
    RequestPackResult,
    request_evidence,
    value_requests,
)
from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

VALUE_TASK = "serving request value"  # the background runner's name for the valuation

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui.serving_window import ServingWindow


def choose_folder(window: ServingWindow) -> str:
    """Where the letter and its JSON go (a seam the tests answer)."""
    return QFileDialog.getExistingDirectory(window, "Folder for the request for evidence")


def _write(
    document: EvaluationDocument, bid_id: str, folder: Path, value: Any
) -> RequestPackResult:
    return request_evidence(
        document.evaluation,
        bid_id,
        value,
        folder,
        no_progress,
        NEVER_CANCELLED,
        issued=dt.date.today(),
        document=document,
    )


def _with_value(evaluation: Evaluation, outcome: RequestPackResult, bid_id: str) -> str:
    """Where the pack went, then what its measurement is worth to the choice (issue 37: the
    value of information that ranked it; the CLI prints the same words)."""
    if outcome.value is None or outcome.value.choice is None:
        return outcome.written_words()
    found = serving_asks(outcome.value, bid_id, limit=1)
    worth = (
        ask_line(evaluation, found[0])
        if found
        else "no single measurement of this bid can change the choice"
    )
    return f"{outcome.written_words()}. {worth}"


def request_serving_evidence(window: ServingWindow) -> None:
    """Ask for the folder, value the requests on the background runner, then write and keep the
    selected bid's pack and say where it went (or why not)."""
    session = window.session
    bid_id = window.selected_bid_id()
    bid = next((b for b in session.evaluation.bids if b.id == bid_id), None)
    if bid is None:
        window.statusBar().showMessage("Select a bid first, then request its evidence.", 5000)
        return
    folder = choose_folder(window)
    if not folder:
        return
    evaluation = session.evaluation  # every edit made so far; the pack is written after them

    def value(progress: Any) -> Any:
        return value_requests(evaluation, bid.id, progress, NEVER_CANCELLED)

    def write(found: Any) -> None:
        write_pack = partial(_write, bid_id=bid.id, folder=Path(folder), value=found)
        _said(window, bid, _attach_on_the_lane(session, write_pack))

    window.statusBar().showMessage(f"Valuing what {bid_label(bid)}'s evidence would settle…")
    window.tasks.run(VALUE_TASK, value, write, lambda error: _said(window, bid, error))


def _said(window: ServingWindow, bid: Any, outcome: object) -> None:
    """The pack written (where, and what its measurement is worth), or its refusal in words."""
    if isinstance(outcome, RequestPackResult):
        window.statusBar().showMessage(
            _with_value(window.session.evaluation, outcome, bid.id), 15_000
        )
        return
    window.statusBar().clearMessage()
    said = str(outcome).replace(repr(bid.id), bid_label(bid))  # the bid in words, never its id
    dialogs.show_problem(window, "The request for evidence was not written", said)
