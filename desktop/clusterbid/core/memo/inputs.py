"""The canonical inputs of a memo: everything scored, and the figures the memo prints, as JSON."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import ValidationError

from clusterbid import __version__
from clusterbid.core.catalog import default_catalog
from clusterbid.core.documents import describe_validation_error
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.kinds import kind_of, kind_of_scorecard
from clusterbid.core.memo.approvers_listed import (  # re-exported: callers import them from here
    _EMAIL_AT_END,
    INPUTS_FORMAT,
    Approver,
    parse_memo_inputs,
)
from clusterbid.core.memo.four_eyes import refuse_same_person_twice
from clusterbid.core.memo.inputs_name import INPUTS_ATTACHMENT_NAME
from clusterbid.core.memo.memo_kinds import memo_kind
from clusterbid.core.memo.training_printed import printed_results  # re-exported
from clusterbid.core.scoring import Scorecard

MAX_JUSTIFICATION = 4000


# Without an approver the memo has no signature field, so nobody could ever sign it.
NO_APPROVER = (
    "the memo names no approver, so it would have no signature field and could not be signed: "
    'add one with --approver "Name, Role" (in the app, type a name and role in the Approvers table)'
)


def checked_email(text: str, who: str) -> str:
    """An approver's e-mail as typed in the app's table ('' when left empty); InputError otherwise."""
    text = text.strip()
    if text and not _EMAIL_AT_END.fullmatch(f"<{text}>"):
        raise InputError(f"{who}: {text!r} is not an e-mail address (name@example.org)")
    return text


@dataclass(frozen=True, slots=True)
class RecommendationOverride:
    """The officer recommends another bid than the model's first; the memo prints why."""

    bid_id: str
    justification: str


def checked_approvers(approvers) -> list[Approver]:
    """The approvers as the memo names them; InputError when there are none, one lacks a name or a
    role, or the same person is named twice (checked before any memo work starts, too)."""
    people = [_approver(a) for a in approvers]
    if not people:
        raise InputError(NO_APPROVER)
    for index, person in enumerate(people, start=1):
        if not person.name or not person.role:
            raise InputError(f'approver {index}: both a name and a role are needed ("Name, Role")')
    refuse_same_person_twice(people)  # four eyes: two approvers are two people
    return people


def _approver(value: Approver | tuple[str, str] | dict) -> Approver:
    if isinstance(value, Approver):
        return value
    if isinstance(value, dict):
        return Approver(
            str(value.get("name", "")).strip(),
            str(value.get("role", "")).strip(),
            str(value.get("email") or "").strip(),
        )
    name, role, *email = value
    return Approver(name.strip(), role.strip(), (email[0] if email else "").strip())


def check_override(scorecard: Scorecard, override: RecommendationOverride | None) -> None:
    """An override must name a ranked bid and carry a written justification."""
    if override is None:
        return
    ranked = [s.bid.id for s in scorecard.ranked]
    if override.bid_id not in ranked:
        raise InputError(
            f"override: bid {override.bid_id!r} is not a ranked bid of this evaluation "
            f"(ranked: {', '.join(ranked) or 'none'}); excluded bids cannot be recommended"
        )
    text = (override.justification or "").strip()
    if not text:
        raise InputError(
            f"override of the recommendation to {override.bid_id!r} needs a written justification "
            "explaining why; the memo prints it for the approvers"
        )
    if len(text) > MAX_JUSTIFICATION:
        raise InputError(
            f"override justification is {len(text)} characters; keep it to {MAX_JUSTIFICATION}"
        )


def _catalog_entries(evaluation: Evaluation) -> dict:
    catalog = default_catalog()
    gpus = sorted({b.capacity.gpu_model for b in evaluation.bids})
    fabrics = sorted({b.fabric.technology for b in evaluation.bids})
    return {
        "gpus": {name: catalog.gpu(name).model_dump(mode="json") for name in gpus},
        "fabrics": {name: catalog.fabric(name).model_dump(mode="json") for name in fabrics},
    }


@dataclass(frozen=True)
class MemoInputs:
    """The canonical inputs document; treat `data` as read-only (build a new one to change it)."""

    data: dict[str, Any]

    def canonical_bytes(self) -> bytes:
        return json.dumps(
            self.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode("utf-8")

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.canonical_bytes()).hexdigest()


def build_memo_inputs(
    scorecard: Scorecard,
    *,
    approvers,
    notes: str = "",
    override: RecommendationOverride | None = None,
    audit_anchor: dict[str, object] | None = None,
    decision_date=None,
    rendering: dict[str, object] | None = None,
    software_version: str = __version__,
    rationale: str = "",
) -> MemoInputs:
    """Everything the memo's figures come from; its SHA-256 names the memo. `audit_anchor` is the
    document's audit head ({"seq", "hash"}) when the memo is made from a .clusterbid document.
    `software_version`: this one, or the one a memo being rendered again records."""
    check_override(scorecard, override)
    evaluation = scorecard.evaluation
    people = checked_approvers(approvers)
    data = {
        "format": INPUTS_FORMAT,
        "software_version": software_version,
        "model_version": kind_of_scorecard(scorecard).model_version,
        "evaluation": evaluation.model_dump(mode="json"),
        "catalog": _catalog_entries(evaluation),
        "random_seed": evaluation.policy.random_seed,
        # The e-mail only when given: inputs without one stay byte for byte what they were.
        "approvers": [
            {"name": p.name, "role": p.role, **({"email": p.email} if p.email else {})}
            for p in people
        ],
        "notes": notes.strip(),
        "override": None
        if override is None
        else {"bid_id": override.bid_id, "justification": override.justification.strip()},
        "results": memo_kind(scorecard).printed(scorecard),
    }
    if rationale.strip():  # issue 34: absent when not given, so earlier memos keep their hash
        if len(rationale.strip()) > MAX_JUSTIFICATION:
            raise InputError(
                f"trade-off rationale is {len(rationale.strip())} characters; keep it to "
                f"{MAX_JUSTIFICATION}"
            )
        data["tradeoff_rationale"] = rationale.strip()
    if (
        decision_date is not None
    ):  # the approval meeting's date (datetime.date); absent when not given
        data["decision_date"] = decision_date.isoformat()
    if (
        rendering is not None
    ):  # what else the pages were drawn from: the Monte Carlo samples, the evidence lines
        data["rendering"] = rendering
    if (
        audit_anchor is not None
    ):  # absent, not null, for a JSON evaluation: its memos keep their hash
        data["audit_anchor"] = {"seq": int(audit_anchor["seq"]), "hash": str(audit_anchor["hash"])}
    # Round-trip through JSON so `data` holds only plain JSON values (the same as a reader sees).
    return MemoInputs(json.loads(MemoInputs(data).canonical_bytes()))


def rescore_memo_inputs(data: dict) -> dict:
    """Score the attached evaluation with today's model and return what the memo would print."""
    if not isinstance(data, dict) or data.get("format") != INPUTS_FORMAT:
        got = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise InputError(f"memo inputs: format is {got!r}, expected {INPUTS_FORMAT!r}")
    if "evaluation" not in data:
        raise InputError(
            "memo inputs: the 'evaluation' field is missing; the memo cannot be re-scored"
        )
    try:
        evaluation = Evaluation.model_validate(data["evaluation"])
    except ValidationError as exc:
        raise InputError(describe_validation_error(exc, "memo inputs: evaluation")) from None
    except InputError as exc:  # a catalog check inside a validator (unknown GPU or fabric)
        raise InputError(f"memo inputs: evaluation: {exc}") from None
    kind = kind_of(evaluation)
    rendering = data.get("rendering")
    samples = rendering.get("samples") if isinstance(rendering, dict) else None
    if isinstance(samples, int) and samples > 0:  # the memo ranked on its Monte Carlo (issue 31)
        scorecard = kind.monte_carlo(evaluation, samples)[0]
    else:
        scorecard = kind.point_score(evaluation)
    return memo_kind(scorecard).printed(scorecard)


__all__ = [
    "INPUTS_ATTACHMENT_NAME",
    "Approver",
    "MemoInputs",
    "RecommendationOverride",
    "build_memo_inputs",
    "check_override",
    "parse_memo_inputs",
    "printed_results",
    "rescore_memo_inputs",
]
