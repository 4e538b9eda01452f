"""Render a memo again from its attached inputs, as `clusterbid memo` and the app made it.

Export is deterministic: the same inputs give the same bytes. The attached inputs record what
the pages were drawn from besides the evaluation (the Monte Carlo sample count and the evidence
lines, `rendering`) and the versions that drew them; verify renders them again here, always,
with the recorded versions written into the attachment (so its hash and page 1 come out as they
were) and this computer's libraries drawing. Identical bytes prove every page; otherwise
page_images.py compares every page as images.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from clusterbid import __version__
from clusterbid.core.errors import InputError
from clusterbid.core.memo.inputs import RecommendationOverride


def why_not_rerendered(data: dict[str, Any]) -> str | None:
    """None when the inputs record what the pages were drawn from; else why they cannot be drawn
    again, in words. The versions recorded never stop the re-render (version_notes)."""
    if not isinstance(data.get("rendering"), dict):
        return "the attached inputs predate the record of the sample count and evidence lines"
    return None


def version_notes(data: dict[str, Any]) -> list[str]:
    """How the software and libraries recorded in the inputs differ from this computer's, in words:
    they explain why bytes differ, they never excuse a page that looks different."""
    from clusterbid.core.memo.render import rendering_libraries

    notes = []
    if data.get("software_version") != __version__:
        notes.append(f"made by ClusterBid {data.get('software_version')}, this is {__version__}")
    recorded = data.get("rendering")
    rendering: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
    made_with, here = rendering.get("libraries") or {}, rendering_libraries()
    other = [
        f"{name} {made_with.get(name, '?')} there, {here[name]} here"
        for name in here
        if made_with.get(name) != here[name]
    ]
    if other:
        notes.append("drawn with other library versions (" + "; ".join(other) + ")")
    return notes


_LAST_RENDERED: dict[str, bytes] = {}  # the same inputs render to the same bytes: kept for one


def rerender_memo(data: dict[str, Any]) -> bytes:
    """The memo the attached inputs `data` render to (InputError when they cannot be read). The
    last one is kept in the process: the app verifying again after adding a CA, or a memo
    checked twice, pays for one render."""
    import json

    key = json.dumps(data, sort_keys=True, default=str)
    if key not in _LAST_RENDERED:
        rendered = _render(data)
        _LAST_RENDERED.clear()
        _LAST_RENDERED[key] = rendered
    return _LAST_RENDERED[key]


def _render(data: dict[str, Any]) -> bytes:
    from clusterbid.core.evaluation import Evaluation

    rendering = data["rendering"]
    try:
        samples = int(rendering["samples"])
        requests = tuple(str(line) for line in rendering.get("evidence_requests") or ())
        evaluation = Evaluation.model_validate(data["evaluation"])
        override = data.get("override")
        override = (
            None
            if not override
            else RecommendationOverride(str(override["bid_id"]), str(override["justification"]))
        )
        decision = data.get("decision_date")
        decision = None if decision is None else dt.date.fromisoformat(decision)
        libraries = rendering.get("libraries")
        made_by = {
            "software_version": str(data.get("software_version") or __version__),
            "libraries": dict(libraries) if isinstance(libraries, dict) else None,
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"memo inputs: cannot be rendered again ({exc})") from None
    from clusterbid.core.memo.making import make_memo

    return make_memo(
        evaluation,
        approvers=data.get("approvers") or (),
        notes=str(data.get("notes") or ""),
        override=override,
        decision_date=decision,
        audit_anchor=data.get("audit_anchor"),
        samples=samples,
        evidence_lines=requests,
        made_by=made_by,
        rationale=str(data.get("tradeoff_rationale") or ""),
        panel=rendering.get("panel") or None,
    )
