"""Inviting a panel: one evaluator copy per person, and an evaluator's judgements in their copy.

The lead records every invitation in its own trail first (one transaction), then writes each
copy through SQLite's backup API and stamps it with a `panel_copy` row: the copy's trail is the
lead's up to that point, which is how a merge later knows the copy came from this document.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from clusterbid.core.errors import InputError
from clusterbid.core.panel.model import (
    COMPUTED,
    WEIGHT_LIMITS,
    Invitation,
    Judgement,
    check_ranges,
    judgement_problems,
)
from clusterbid.core.store import EvaluationDocument, audit
from clusterbid.core.workloads import is_serving

MAX_NAME = 120


def parse_evaluator(text: str) -> tuple[str, str]:
    """ "Name, Role" as typed on the command line or in the dialog."""
    name, _, role = text.partition(",")
    name, role = name.strip(), role.strip()
    if not name or not role or len(name) > MAX_NAME or len(role) > MAX_NAME:
        raise InputError(
            f'evaluator {text.strip()!r}: write it as "Name, Role" (for example "Ana Ruiz, '
            f'Technical lead"), each part 1-{MAX_NAME} characters'
        )
    return name, role


def invitations(document: EvaluationDocument) -> dict[str, Invitation]:
    """The evaluators the lead invited, by name, from its `panel_invite` rows."""
    found = {}
    for row in document.panel_rows():
        if row.action == audit.PANEL_INVITE:
            invitation = Invitation.from_json(json.loads(row.new_json or "{}"))
            found[invitation.evaluator] = invitation
    return found


def copy_file_name(evaluator: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", evaluator).strip("-").lower() or "evaluator"
    return f"panel-{slug}.clusterbid"


def invite(
    lead: EvaluationDocument,
    people: list[tuple[str, str]],
    folder: Path,
    criteria: tuple[str, ...] = (),
    ranges: dict[str, tuple[float, float]] | None = None,
) -> list[Path]:
    """Record each new evaluator's invitation in `lead` and write one copy per person into
    `folder`. Someone invited before gets a fresh copy of the same invitation. Everything is
    checked before anything is written; a copy that cannot be written is removed."""
    earlier = _checked_invitations(lead, people)
    names = [name for name, _ in people]
    fresh = [(name, role) for name, role in people if name not in earlier]
    invitation_of = dict(earlier)
    for name, role in fresh:
        invitation_of[name] = new_invitation(lead, name, role, criteria, ranges or {})
    targets = _free_copy_files(Path(folder), names)
    Path(folder).mkdir(parents=True, exist_ok=True)
    if fresh:
        lead.record_panel(
            [(audit.PANEL_INVITE, name, invitation_of[name].as_json()) for name, _ in fresh]
        )
    lead_head = lead.head  # after the invitations: each copy names the row that invited it
    for name, target in zip(names, targets):
        _write_copy(lead, name, target, invitation_of[name], lead_head)
    return targets


def _checked_invitations(
    lead: EvaluationDocument, people: list[tuple[str, str]]
) -> dict[str, Invitation]:
    """The invitations `lead` already holds, once the new list is fit to invite: from the lead
    document of a training evaluation, each person named once and in the role given before."""
    if lead.copy_stamp() is not None:
        raise InputError(
            f"{lead.path.name} is an evaluator's copy; invite the panel from the lead document"
        )
    if is_serving(lead.evaluation):
        raise InputError(
            "a panel evaluates a training job's bids; this evaluation buys an inference service"
        )
    if not people:
        raise InputError('name at least one evaluator ("Name, Role")')
    names = [name for name, _ in people]
    if len(set(names)) != len(names):
        raise InputError(
            "each evaluator may be named once: "
            + ", ".join(sorted({n for n in names if names.count(n) > 1}))
        )
    earlier = invitations(lead)
    for name, role in people:
        if name in earlier and earlier[name].role != role:
            raise InputError(
                f"{name} was invited as {earlier[name].role!r}; use that role, or another name"
            )
    return earlier


def _free_copy_files(folder: Path, names: list[str]) -> list[Path]:
    """One copy file per evaluator, none already there and no two alike (checked before writing)."""
    targets = [folder / copy_file_name(name) for name in names]
    for target in targets:
        if target.exists():
            raise InputError(
                f"{target.name} already exists in {folder.name}; choose another folder "
                "or move it away (nothing was written)"
            )
    if len(set(targets)) != len(targets):
        raise InputError("two evaluators' names give the same copy file name; tell them apart")
    return targets


def _write_copy(
    lead: EvaluationDocument,
    name: str,
    target: Path,
    invitation: Invitation,
    lead_head: tuple[int, str],
) -> None:
    """One evaluator's copy of the lead, recording the invitation and the lead's head; a copy that
    cannot be written is removed."""
    lead_seq, lead_hash = lead_head
    lead.save_copy(target)
    try:
        with EvaluationDocument.open(target, user=name) as copy:
            copy.record_panel(
                [
                    (
                        audit.PANEL_COPY,
                        name,
                        {
                            "invitation": invitation.as_json(),
                            "lead_seq": lead_seq,
                            "lead_hash": lead_hash,
                            "lead_file": lead.path.name,
                        },
                    )
                ]
            )
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def new_invitation(
    lead: EvaluationDocument,
    name: str,
    role: str,
    criteria: tuple[str, ...],
    ranges: dict[str, tuple[float, float]],
) -> Invitation:
    clash = [c for c in criteria if c.casefold() in {k.casefold() for k in COMPUTED}]
    if (
        clash
        or len({c.casefold() for c in criteria}) != len(criteria)
        or any(not c.strip() for c in criteria)
    ):
        raise InputError(
            "the panel's own criteria need distinct names, none a criterion the model scores"
        )
    every = {key: WEIGHT_LIMITS for key in (*COMPUTED, *criteria)}
    unknown = [key for key in ranges if key not in every]
    if unknown:
        raise InputError(f"a weight range names no criterion of this panel: {', '.join(unknown)}")
    every.update(ranges)
    check_ranges(every)
    policy = lead.evaluation.policy.weights.model_dump()
    start = {
        key: min(max(float(policy.get(key, low)), low), high) for key, (low, high) in every.items()
    }
    return Invitation(name, role, tuple(criteria), every, start)


def copy_invitation(copy: EvaluationDocument) -> tuple[Invitation, dict[str, Any]]:
    stamp = copy.copy_stamp()
    if stamp is None:
        raise InputError(f"{copy.path.name} is not an evaluator's copy of a panel evaluation")
    return Invitation.from_json(stamp["invitation"]), stamp


def current_judgement(copy: EvaluationDocument) -> Judgement:
    """The evaluator's latest judgement in their copy; before any, the invitation's start weights."""
    invitation, _ = copy_invitation(copy)
    rows = [row for row in copy.panel_rows() if row.action == audit.PANEL_JUDGEMENT]
    if not rows:
        return Judgement(dict(invitation.start_weights))
    return Judgement.from_json(json.loads(rows[-1].new_json or "{}")["judgement"])


def record_judgement(copy: EvaluationDocument, judgement: Judgement) -> Judgement:
    """Record the evaluator's judgement in their copy, refused with words outside the invitation."""
    invitation, _ = copy_invitation(copy)
    problems = judgement_problems(judgement, invitation, copy.evaluation)
    if problems:
        raise InputError(f"{copy.path.name}: the judgement was refused: " + "; ".join(problems))
    if judgement == current_judgement(copy):
        return judgement
    copy.record_panel(
        [
            (
                audit.PANEL_JUDGEMENT,
                invitation.evaluator,
                {"evaluator": invitation.evaluator, "judgement": judgement.as_json()},
            )
        ]
    )
    return judgement
