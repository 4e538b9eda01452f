"""Before award: the training request's returned rows on the scale ladder, fitted and carried to
the job's size beside the step time the evaluation scores the bid at (issue 39, item 5). The
same fit the acceptance status shows after award (ladder_fit.py), read from the files kept in the
document under the request's id."""

from __future__ import annotations

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.evidence_request.ladder_fit import LadderFit, fit_ladder, runs_at_layout
from clusterbid.core.evidence_request.status import RequestStatus
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.core.workload import Workload


def ladder_fits(
    document: EvaluationDocument, statuses: list[RequestStatus]
) -> dict[str, LadderFit]:
    """request id -> the fit of its returned runs, for training requests with runs at two or more
    GPU counts kept as files in the document (the wizard keeps only a file's hash: no fit)."""
    w = document.evaluation.workload
    if not isinstance(w, Workload):
        return {}
    runs: dict[str, list[tuple[int, float]]] = {}
    for status in statuses:
        if status.request.input != "baseline_mfu" or not status.files:
            continue
        for info in document.artefacts():
            if info.bid_id != status.request.bid_id or info.name not in status.files:
                continue
            try:
                reading = read_evidence(document.artefact_bytes(info.id), info.name)
            except InputError:
                continue  # a log of another kind answers nothing here; its own reader said why
            table = reading.throughput
            runs.setdefault(status.request.request_id, []).extend(
                runs_at_layout(table.results if table else (), w)
            )
    ladders = {rid: found for rid, found in runs.items() if len({g for g, _ in found}) >= 2}
    if not ladders:
        return {}  # scoring only when there is a ladder to set beside the figure scored
    steps = {s.bid.id: s.estimate.step_s for s in score_evaluation(document.evaluation).scores}
    fits = {}
    for status in statuses:
        rid, bid_id = status.request.request_id, status.request.bid_id
        if rid in ladders and bid_id in steps:
            fitted = fit_ladder(
                ladders[rid], w, steps[bid_id], "the step time the evaluation scores this bid at"
            )
            if fitted is not None:
                fits[rid] = fitted
    return fits
