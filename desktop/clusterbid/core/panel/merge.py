"""Bringing an evaluator's copy back into the lead document, checked, in one audited row.

A copy is merged only when it is what the lead made: its trail audits whole, it starts with the
lead's own rows up to the invitation, after that it holds only the evaluator's panel records, and
its bids, workload and policy are the lead's. Nothing is overwritten: each merge is its own
`panel_merge` row. The same copy merged twice is recorded once, and which judgement counts for
an evaluator depends only on how far their copy had got, never on the order of the merges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clusterbid.core.errors import InputError
from clusterbid.core.panel.copies import copy_invitation, current_judgement, invitations
from clusterbid.core.panel.model import Invitation, Judgement, judgement_problems
from clusterbid.core.store import DocumentError, EvaluationDocument, audit
from clusterbid.core.store.panel_lock import ALLOWED_IN_COPY

LOCKED_PARTS = ("title", "currency", "workload", "policy")


@dataclass(frozen=True)
class Merged:
    """What one merge did: the evaluator, and whether a row was written (False: already merged)."""

    copy: Path
    evaluator: str
    recorded: bool


def merged_judgements(
    lead: EvaluationDocument,
) -> dict[str, tuple[Invitation, Judgement, dict[str, Any]]]:
    """Each evaluator's judgement as merged: from the latest copy issued to them (the lead row it
    was made at) and the furthest point of it merged so far (its row number in the copy), whatever
    the order the copies came in."""
    invited = invitations(lead)
    best: dict[str, dict[str, Any]] = {}
    for row in lead.panel_rows():
        if row.action != audit.PANEL_MERGE:
            continue
        payload = json.loads(row.new_json or "{}")
        name = payload["evaluator"]
        # .get: a merge row written before copies' issue points were kept counts as the first issue
        where = (payload.get("lead_seq", 0), payload["copy_seq"])
        if name not in best or where > (best[name].get("lead_seq", 0), best[name]["copy_seq"]):
            best[name] = payload
    return {
        name: (invited[name], Judgement.from_json(p["judgement"]), p)
        for name, p in sorted(best.items())
    }


def _refusal(copy_path: Path, why: str) -> InputError:
    return InputError(f"{copy_path.name} was not merged: {why}. Nothing was written")


def _check_copy(lead: EvaluationDocument, copy: EvaluationDocument) -> tuple[Invitation, int, str]:
    """(invitation, copy head seq, copy head hash), or InputError naming why the copy is refused."""
    try:
        invitation, stamp = copy_invitation(copy)
    except InputError:
        raise _refusal(copy.path, "it is not an evaluator's copy of a panel evaluation") from None
    report = copy.audit_now()
    if not report.ok:
        raise _refusal(copy.path, f"its audit trail fails its audit ({report.reason})")
    lead_seq, lead_hash = int(stamp["lead_seq"]), str(stamp["lead_hash"])
    lead_rows = {row.seq: row for row in lead.audit_rows()}
    copy_rows = copy.audit_rows()
    if lead_rows.get(lead_seq) is None or lead_rows[lead_seq].hash != lead_hash:
        raise _refusal(
            copy.path,
            f"its audit trail does not come from this lead document (row #{lead_seq} "
            f"of {lead.path.name} is not the one the copy was made at)",
        )
    if len(copy_rows) < lead_seq or copy_rows[lead_seq - 1].hash != lead_hash:
        raise _refusal(
            copy.path,
            f"its audit trail differs from the lead's before row #{lead_seq}, where it was made",
        )
    stray = [row for row in copy_rows[lead_seq:] if row.action not in ALLOWED_IN_COPY]
    if stray:
        raise _refusal(copy.path, f"row #{stray[0].seq} of its trail is not an evaluator's record")
    lead_invitation = invitations(lead).get(invitation.evaluator)
    if lead_invitation != invitation:
        raise _refusal(
            copy.path, f"the lead has no invitation for {invitation.title} as the copy states it"
        )
    for part in LOCKED_PARTS:
        if getattr(copy.evaluation, part) != getattr(lead.evaluation, part):
            raise _refusal(
                copy.path,
                f"its {part} differs from the lead's (locked parts must match: "
                "invite the panel again after changing the lead)",
            )
    if copy.evaluation.bids != lead.evaluation.bids:
        raise _refusal(
            copy.path,
            "its bids differ from the lead's (locked parts must match: invite the "
            "panel again after changing the lead's bids)",
        )
    return invitation, copy_rows[-1].seq, copy_rows[-1].hash


def _judged(
    lead: EvaluationDocument, copy: EvaluationDocument, copy_path: Path
) -> tuple[Invitation, int, str, Judgement, bool, dict[str, Any]]:
    """The checked copy's invitation, head, latest judgement, whether it is countersigned, and
    where it stands: the lead row it was made at and the hashes of its own rows since."""
    invitation, copy_seq, copy_hash = _check_copy(lead, copy)
    made_at = int((copy.copy_stamp() or {})["lead_seq"])
    judged = [row for row in copy.audit_rows()[made_at:] if row.action == audit.PANEL_JUDGEMENT]
    if not judged:
        raise _refusal(copy_path, f"{invitation.evaluator} has not recorded a judgement in it yet")
    # A countersignature after the last judgement vouches for it with the evaluator's key.
    signed = any(
        row.action == audit.COUNTERSIGN and row.seq > judged[-1].seq
        for row in copy.audit_rows()[made_at:]
    )
    trail = {"lead_seq": made_at, "copy_trail": [row.hash for row in copy.audit_rows()[made_at:]]}
    return invitation, copy_seq, copy_hash, current_judgement(copy), signed, trail


def _same_line(earlier: dict[str, Any], trail: dict[str, Any]) -> bool:
    """True when two merges of one evaluator's copy made at the same lead row are one line of
    work, the one an earlier point of the other (False: the copy was duplicated and both edited)."""
    mine, theirs = trail["copy_trail"], earlier.get("copy_trail", [])
    shorter = min(len(mine), len(theirs))
    return bool(mine[:shorter] == theirs[:shorter])


def _merged_before(
    lead: EvaluationDocument,
    copy_path: Path,
    evaluator: str,
    copy_hash: str,
    trail: dict[str, Any],
) -> bool:
    """True when this very copy was merged already; a refusal when another copy of the same
    evaluator's work from the same start went another way and was merged."""
    for row in lead.panel_rows():
        if row.action != audit.PANEL_MERGE:
            continue
        earlier = json.loads(row.new_json or "{}")
        if earlier["evaluator"] != evaluator or earlier.get("lead_seq") != trail["lead_seq"]:
            continue
        if earlier["copy_hash"] == copy_hash:
            return True  # this very copy: merging it again is a no-op
        if not _same_line(earlier, trail):
            raise _refusal(
                copy_path,
                f"another copy of {evaluator}'s evaluation, which went a "
                "different way after the same start, was merged already (from "
                f"{earlier['copy_file']}); "
                f"ask {evaluator} which is theirs",
            )
    return False


def merge_copy(lead: EvaluationDocument, copy_path: Path) -> Merged:
    """Merge one copy into `lead` in one audited transaction, or refuse it with the reason."""
    if lead.copy_stamp() is not None:
        raise InputError(f"{lead.path.name} is an evaluator's copy; merge into the lead document")
    try:
        copy = EvaluationDocument.open(copy_path, read_only=True)
    except DocumentError as exc:
        raise _refusal(Path(copy_path), f"it cannot be opened ({exc})") from None
    try:
        with copy:
            found = _judged(lead, copy, Path(copy_path))
    except InputError:
        raise
    except (KeyError, TypeError, ValueError):  # a panel row whose payload ClusterBid did not write
        raise _refusal(
            Path(copy_path),
            "its panel records are not ones ClusterBid wrote (a part is missing "
            "or of the wrong kind)",
        ) from None
    invitation, copy_seq, copy_hash, judgement, signed, trail = found
    problems = judgement_problems(judgement, invitation, lead.evaluation)
    if problems:
        raise _refusal(
            Path(copy_path),
            "its judgement is not one the invitation allows: " + "; ".join(problems),
        )
    if _merged_before(lead, Path(copy_path), invitation.evaluator, copy_hash, trail):
        return Merged(Path(copy_path), invitation.evaluator, False)  # this very copy: a no-op
    lead.record_panel(
        [
            (
                audit.PANEL_MERGE,
                invitation.evaluator,
                {
                    "evaluator": invitation.evaluator,
                    "role": invitation.role,
                    "copy_file": Path(copy_path).name,
                    "copy_seq": copy_seq,
                    "copy_hash": copy_hash,
                    "countersigned": signed,
                    "judgement": judgement.as_json(),
                    **trail,
                },
            )
        ]
    )
    return Merged(Path(copy_path), invitation.evaluator, True)
