"""Write a bid's pack to a folder and keep it in the document: one operation for CLI and app."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence_request.build import build_pack
from clusterbid.core.evidence_request.model import RequestPack
from clusterbid.core.evidence_request.render import pack_json, pack_markdown
from clusterbid.core.evidence_request.status import record_pack
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.core.uncertainty.value_of_information import ValueOfInformation

DEFAULT_DAYS = 14  # two weeks: long enough to book a 2-node slot and a training run


def export_pack(evaluation: Evaluation, bid_id: str, voi: ValueOfInformation, folder: Path,
                issued: dt.date, deadline: dt.date | None = None,
                document: EvaluationDocument | None = None) -> tuple[RequestPack, list[Path]]:
    """Both files written, then the pack kept in `document` (when given) for matching returns."""
    pack = build_pack(evaluation, bid_id, voi, issued, deadline or issued + dt.timedelta(days=DEFAULT_DAYS))
    data = pack_json(pack)
    stem = folder / f"{bid_id}-evidence-request-{issued.isoformat()}"
    paths = [stem.with_suffix(".md"), stem.with_suffix(".json")]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths[0].write_text(pack_markdown(pack), encoding="utf-8")
        paths[1].write_text(data, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{folder}: cannot write the request pack there ({exc.strerror or exc})") from None
    if document is not None:
        record_pack(document, pack, data.encode("utf-8"))
    return pack, paths
