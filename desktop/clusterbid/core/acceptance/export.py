"""Write a bid's acceptance plan (Markdown, JSON, PDF) and keep it in the document, so the files
returned after handover are judged against the thresholds that were issued."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from pydantic import ValidationError

from clusterbid.core.acceptance.build import build_plan
from clusterbid.core.acceptance.model import AcceptancePlan
from clusterbid.core.acceptance.render import plan_json, plan_markdown, plan_pdf
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.safe_files import write_bytes_atomically
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.core.store.fileformat import read_only_refusal

PLAN_PREFIX = "acceptance-plan-"


def plan_artefact_name(plan: AcceptancePlan) -> str:
    return f"{PLAN_PREFIX}{plan.bid_id}-{plan.issued_on.isoformat()}.json"


def kept_plan(document: EvaluationDocument, bid_id: str) -> AcceptancePlan | None:
    """The latest plan kept for the bid (the one issued last wins), or None."""
    found = None
    for info in document.artefacts():
        if (
            info.bid_id == bid_id
            and info.name.startswith(PLAN_PREFIX)
            and info.media_type == "application/json"
        ):
            try:
                found = AcceptancePlan.model_validate(json.loads(document.artefact_bytes(info.id)))
            except (ValueError, ValidationError):
                continue  # shares the prefix, not the format: not ours
    return found


def export_plan(
    evaluation: Evaluation,
    bid_id: str,
    folder: Path,
    issued: dt.date,
    document: EvaluationDocument | None = None,
) -> tuple[AcceptancePlan, list[Path]]:
    """All three files written, then the plan kept in `document`; on any failure the files this
    call wrote are removed again, so no annex exists that the document does not know."""
    plan = build_plan(evaluation, bid_id, issued)
    data = plan_json(plan)
    if document is not None:
        refusal = read_only_refusal(document.path, "the acceptance plan")
        if refusal:
            raise InputError(refusal)
    stem = folder / f"{bid_id}-acceptance-plan-{issued.isoformat()}"
    contents = [
        (stem.with_suffix(".md"), plan_markdown(plan).encode("utf-8")),
        (stem.with_suffix(".json"), data.encode("utf-8")),
        (stem.with_suffix(".pdf"), plan_pdf(plan)),
    ]
    written: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, content in contents:
            existed = path.exists()
            write_bytes_atomically(path, content)
            if not existed:
                written.append(path)
        if document is not None:
            sha = hashlib.sha256(data.encode("utf-8")).hexdigest()
            name = plan_artefact_name(plan)
            if not any(i.name == name and i.sha256 == sha for i in document.artefacts()):
                document.attach_artefact(
                    name, data.encode("utf-8"), bid_id=bid_id, media_type="application/json"
                )
    except (OSError, InputError) as exc:
        for path in written:
            path.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InputError(
            f"{folder}: the acceptance plan was not written ({reason}); no file of it was left"
        ) from None
    return plan, [path for path, _ in contents]
