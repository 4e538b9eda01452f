"""Render a memo again from its attached inputs, as `clusterbid memo` and the app made it.

Export is deterministic: the same inputs give the same bytes. So when the attached inputs record
what the pages were drawn from besides the evaluation (the Monte Carlo sample count and the
evidence lines, `rendering`) and were made by this version, verify renders them again and
compares the result with the memo as exported, byte for byte: every page, chart and table is then
proven to be the attachment's, not only page 1's text.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from clusterbid import __version__
from clusterbid.core.errors import InputError
from clusterbid.core.memo.inputs import RecommendationOverride


def why_not_rerendered(data: dict[str, Any]) -> str | None:
    """None when the inputs can be rendered again here; else why not, in words."""
    if not isinstance(data.get("rendering"), dict):
        return "the attached inputs predate the record of the sample count and evidence lines"
    if data.get("software_version") != __version__:
        return (f"the memo was made by ClusterBid {data.get('software_version')}, this is {__version__}: "
                "its pages may be drawn differently")
    from clusterbid.core.memo.render import rendering_libraries

    made_with, here = data["rendering"].get("libraries") or {}, rendering_libraries()
    other = [f"{name} {made_with.get(name, '?')} there, {here[name]} here" for name in here
             if made_with.get(name) != here[name]]
    if other:
        return "drawn with other library versions (" + "; ".join(other) + ")"
    return None


def rerender_memo(data: dict[str, Any]) -> bytes:
    """The memo the attached inputs `data` render to (InputError when they cannot be read)."""
    from clusterbid.core.evaluation import Evaluation

    rendering = data["rendering"]
    try:
        samples = int(rendering["samples"])
        requests = tuple(str(line) for line in rendering.get("evidence_requests") or ())
        evaluation = Evaluation.model_validate(data["evaluation"])
        override = data.get("override")
        override = None if not override else RecommendationOverride(str(override["bid_id"]),
                                                                     str(override["justification"]))
        decision = data.get("decision_date")
        decision = None if decision is None else dt.date.fromisoformat(decision)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"memo inputs: cannot be rendered again ({exc})") from None
    from clusterbid.core.memo.making import make_memo

    return make_memo(evaluation, approvers=data.get("approvers") or (), notes=str(data.get("notes") or ""),
                     override=override, decision_date=decision, audit_anchor=data.get("audit_anchor"),
                     samples=samples, evidence_lines=requests)


def first_difference(a: bytes, b: bytes) -> int:
    """The offset of the first byte where a and b differ (the shorter length when one is a prefix)."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
