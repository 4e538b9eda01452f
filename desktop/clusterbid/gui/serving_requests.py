"""File > Request Evidence… in the serving window: the selected bid's request-for-evidence pack
(the serving benchmark to run, and the terms to state), written to a folder and kept in the
document so the benchmark files the provider returns are matched to it when attached.

The same operation as `clusterbid request-evidence` on a serving document
(operations/evidence_request.py), run on the session's commit lane after every edit before it,
as Attach Serving Benchmark runs its write: a refusal is said in words and nothing is issued.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui.serving_window import ServingWindow


def choose_folder(window: ServingWindow) -> str:
    """Where the letter and its JSON go (a seam the tests answer)."""
    return QFileDialog.getExistingDirectory(window, "Folder for the request for evidence")


def _write(document: EvaluationDocument, bid_id: str, folder: Path) -> RequestPackResult:
    evaluation = document.evaluation
    value = value_requests(evaluation, bid_id, no_progress, NEVER_CANCELLED)  # None: serving
    return request_evidence(
        evaluation,
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


def request_serving_evidence(window: ServingWindow) -> RequestPackResult | None:
    """Ask for the folder, write and keep the selected bid's pack, and say where it went."""
    session = window.session
    bid_id = window.selected_bid_id()
    bid = next((b for b in session.evaluation.bids if b.id == bid_id), None)
    if bid is None:
        window.statusBar().showMessage("Select a bid first, then request its evidence.", 5000)
        return None
    folder = choose_folder(window)
    if not folder:
        return None
    outcome = _attach_on_the_lane(session, partial(_write, bid_id=bid.id, folder=Path(folder)))
    if isinstance(outcome, RequestPackResult):
        window.statusBar().showMessage(_with_value(session.evaluation, outcome, bid.id), 15_000)
        return outcome
    said = str(outcome).replace(repr(bid.id), bid_label(bid))  # the bid in words, never its id
    dialogs.show_problem(window, "The request for evidence was not written", said)
    return None
