"""Write a bid's pack to a folder and keep it in the document: one operation for CLI and app."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence_request.build import build_pack
from clusterbid.core.evidence_request.model import RequestPack
from clusterbid.core.evidence_request.render import pack_json, pack_markdown
from clusterbid.core.evidence_request.serving_build import build_serving_pack
from clusterbid.core.evidence_request.status import record_pack
from clusterbid.core.safe_files import write_bytes_atomically
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.core.store.fileformat import read_only_refusal
from clusterbid.core.uncertainty.value_of_information import ValueOfInformation

DEFAULT_DAYS = 14  # two weeks: long enough to book a 2-node slot and a training run


def export_pack(
    evaluation: Evaluation,
    bid_id: str,
    voi: ValueOfInformation | None,  # serving: serving_value.py's, or None (fixed order)
    folder: Path,
    issued: dt.date,
    deadline: dt.date | None = None,
    document: EvaluationDocument | None = None,
) -> tuple[RequestPack, list[Path]]:
    """Both files written, then the pack kept in `document` (when given) for matching returns."""
    due = deadline or issued + dt.timedelta(days=DEFAULT_DAYS)
    if isinstance(evaluation.workload, InferenceWorkload):  # one benchmark, questions ranked
        pack = build_serving_pack(evaluation, bid_id, issued, due, voi)
    elif voi is None:  # a caller's slip, never the officer's: training packs are ranked
        raise ValueError("a training request pack needs the value of information to rank it")
    else:
        pack = build_pack(evaluation, bid_id, voi, issued, due)
    data = pack_json(pack)
    stem = folder / f"{bid_id}-evidence-request-{issued.isoformat()}"
    paths = [stem.with_suffix(".md"), stem.with_suffix(".json")]
    if document is not None:  # a document that cannot keep the pack gets no files either
        refusal = read_only_refusal(document.path, "the request pack")
        if refusal:
            raise InputError(refusal)
    written: list[Path] = []  # only what this call wrote is ever taken back
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, text in ((paths[0], pack_markdown(pack)), (paths[1], data)):
            existed = path.exists()
            write_bytes_atomically(path, text.encode("utf-8"))
            if not existed:
                written.append(path)
    except (OSError, InputError) as exc:  # the safe writer leaves no partial file of its own
        for path in written:
            path.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InputError(
            f"{folder}: cannot write the request pack there ({reason}); no pack file was left"
        ) from None
    if document is not None:
        try:
            record_pack(document, pack, data.encode("utf-8"))
        except InputError as exc:  # unmatched files would look issued: take them back, and say so
            for path in written:
                path.unlink(missing_ok=True)
            raise InputError(
                f"the request pack could not be kept in {document.path.name} ({exc}); its "
                "files were removed again, so nothing was issued"
            ) from None
    return pack, paths
