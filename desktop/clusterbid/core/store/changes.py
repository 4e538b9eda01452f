"""One user action as one audited change: the steps between two evaluations, and their replay.

A user action (an edit in the wizard that renames a bid, an imported sheet, an undo or a redo)
can touch several bids and the header at once. It is recorded as one `edit` row whose steps are
applied in order, so the trail never holds a state the user did not see.
"""

from __future__ import annotations

import json

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import audit, checkpoint
from clusterbid.core.store.audit import AuditRow
from clusterbid.core.store.snapshot import assemble, header_json, parse_evaluation, to_json

Step = dict[str, object]
# Steps only an `edit` row holds: plain header fields (the title) and the order of the bids.
SET_HEADER, REORDER = "set_header", "reorder"
HEADER_FIELDS = ("title", "currency")


def _parsed(json_text: str) -> object:
    return json.loads(json_text)


def diff_steps(current: Evaluation, target: Evaluation) -> list[Step]:
    """The steps that turn `current` into `target`: header parts, removals, corrections, additions, order."""
    return _header_steps(current, target) + _bid_steps(current, target)


def _header_steps(current: Evaluation, target: Evaluation) -> list[Step]:
    """Title and currency, the provider ratings, the workload and the policy, each when changed."""
    steps: list[Step] = []
    header = {
        name: getattr(target, name)
        for name in HEADER_FIELDS
        if getattr(target, name) != getattr(current, name)
    }
    if header:
        steps.append(
            {
                "action": SET_HEADER,
                "target": ", ".join(header),
                "old": {name: getattr(current, name) for name in header},
                "new": header,
            }
        )
    if target.provider_ratings != current.provider_ratings:
        # Issue 39: the ratings are a header field like the title; a set_header step carries them
        # as JSON, so the replayed trail reaches the same header.
        steps.append(
            {
                "action": SET_HEADER,
                "target": "provider ratings",
                "old": {"provider_ratings": _parsed(header_json(current))["provider_ratings"]},
                "new": {"provider_ratings": _parsed(header_json(target))["provider_ratings"]},
            }
        )
    for action, part in ((audit.SET_WORKLOAD, "workload"), (audit.SET_POLICY, "policy")):
        old, new = getattr(current, part), getattr(target, part)
        if new != old:
            steps.append(
                {
                    "action": action,
                    "target": part,
                    "old": _parsed(to_json(old)),
                    "new": _parsed(to_json(new)),
                }
            )
    return steps


def _bid_steps(current: Evaluation, target: Evaluation) -> list[Step]:
    """Bids removed or corrected (in the current order), bids added, then the order if it moved."""
    steps: list[Step] = []
    wanted = {bid.id: bid for bid in target.bids}
    have = {bid.id: bid for bid in current.bids}
    for bid in current.bids:
        if bid.id not in wanted:
            steps.append(
                {"action": audit.REMOVE_BID, "target": bid.id, "old": _parsed(to_json(bid))}
            )
        elif wanted[bid.id] != bid:
            steps.append(
                {
                    "action": audit.REPLACE_BID,
                    "target": bid.id,
                    "old": _parsed(to_json(bid)),
                    "new": _parsed(to_json(wanted[bid.id])),
                }
            )
    for bid in target.bids:
        if bid.id not in have:
            steps.append({"action": audit.ADD_BID, "target": bid.id, "new": _parsed(to_json(bid))})
    kept = [bid.id for bid in current.bids if bid.id in wanted] + [
        bid.id for bid in target.bids if bid.id not in have
    ]
    order = [bid.id for bid in target.bids]
    if kept != order:  # an undone removal puts the bid back where it was, not at the end
        steps.append({"action": REORDER, "target": None, "order": order})
    return steps


class ReplayState:
    """The evaluation being replayed, kept as JSON text so replaying a long trail validates once."""

    def __init__(self, header: str, bids: list[str], ids: list[str]) -> None:
        self.header, self.bids, self.ids = header, list(bids), list(ids)
        self._canonical_digests: dict[
            str, bytes
        ] = {}  # a bid unchanged between checkpoints is hashed once

    @classmethod
    def created(cls, evaluation: Evaluation) -> ReplayState:
        return cls(
            header_json(evaluation),
            [to_json(bid) for bid in evaluation.bids],
            [bid.id for bid in evaluation.bids],
        )

    def evaluation(self) -> Evaluation:
        return assemble(self.header, self.bids)

    def check_checkpoint(self, row: AuditRow) -> None:
        """A checkpoint row must record the state its earlier rows replay to, or it was forged."""
        digest = checkpoint.state_sha256(
            self.header, self.bids, self.ids, cache=self._canonical_digests
        )
        if digest != checkpoint.recorded_digest(row):
            raise ValueError(
                f"row #{row.seq} is a checkpoint of a state the rows before it do not replay to "
                "(it was forged or altered)"
            )

    def apply(
        self, action: str, target: str | None, new_json: str | None, order: list | None = None
    ) -> None:
        if action == audit.ADD_BID:
            self.bids.append(new_json or "")
            self.ids.append(json.loads(new_json or "{}")["id"])
        elif action == audit.REPLACE_BID:
            index = self.ids.index(target)
            self.bids[index], self.ids[index] = new_json or "", json.loads(new_json or "{}")["id"]
        elif action == audit.REMOVE_BID:
            index = self.ids.index(target)
            del self.bids[index], self.ids[index]
        elif action in (audit.SET_WORKLOAD, audit.SET_POLICY):
            fields = json.loads(self.header)
            fields["workload" if action == audit.SET_WORKLOAD else "policy"] = json.loads(
                new_json or "null"
            )
            self.header = json.dumps(fields)
        elif action == SET_HEADER:
            fields = json.loads(self.header)
            fields.update(json.loads(new_json or "{}"))
            self.header = json.dumps(fields)
        elif action == REORDER:
            if sorted(order or []) != sorted(self.ids):
                raise ValueError("a reorder step names other bids than the document holds")
            by_id = dict(zip(self.ids, self.bids))
            self.ids, self.bids = list(order or []), [by_id[bid_id] for bid_id in order or []]
        else:
            raise ValueError(f"unknown step {action!r}")

    def apply_edit(self, row: AuditRow) -> None:
        payload = json.loads(row.new_json or "{}")
        for step in payload.get("steps", []):
            new = step.get("new")
            self.apply(
                step["action"],
                step.get("target"),
                None if new is None else json.dumps(new),
                step.get("order"),
            )


def edit_payload(label: str, steps: list[Step]) -> str:
    return json.dumps({"label": label, "steps": steps}, sort_keys=True, ensure_ascii=False)


def replay_state(
    rows: tuple[AuditRow, ...] | list[AuditRow], state: ReplayState | None = None
) -> ReplayState:
    """Apply `rows` in order to `state` (None: from the empty document, the first row creating
    it), checking each checkpoint row met on the way against the state reached there."""
    for row in rows:
        if row.action == audit.CREATE:
            state = ReplayState.created(parse_evaluation(row.new_json or ""))
            continue
        if state is None:
            raise ValueError(
                f"row #{row.seq} ({row.action}) comes before the evaluation was created"
            )
        if row.action == audit.EDIT:
            state.apply_edit(row)
        elif row.action in (
            audit.ADD_BID,
            audit.REPLACE_BID,
            audit.REMOVE_BID,
            audit.SET_WORKLOAD,
            audit.SET_POLICY,
        ):
            state.apply(row.action, row.target, row.new_json)
        elif row.action == audit.CHECKPOINT:
            state.check_checkpoint(row)
        elif row.action not in audit.ACTIONS:
            raise ValueError(f"row #{row.seq} has an unknown action {row.action!r}")
    if state is None:
        raise ValueError("the trail has no create row")
    return state


def replay_audit(rows: tuple[AuditRow, ...] | list[AuditRow]) -> Evaluation:
    """Rebuild the evaluation from the empty document by applying every row in order."""
    return replay_state(rows).evaluation()
