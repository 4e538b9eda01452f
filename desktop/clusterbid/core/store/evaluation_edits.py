"""Edits that change the evaluation (add, correct or remove a bid, the workload, the policy, a
whole snapshot with its files): each validated, then committed with its audit row in one
transaction. Mixed into EvaluationDocument (document.py), which opens, commits and records."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation, ScoringPolicy
from clusterbid.core.store import artefacts, audit, changes, snapshot
from clusterbid.core.store.artefacts import ArtefactInfo, NewArtefact
from clusterbid.core.workloads import AnyWorkload

Entry = tuple[str, str | None, str | None, str | None]
Write = Callable[[sqlite3.Connection], object]
Made = TypeVar("Made")  # what a validated build makes: an Evaluation or a Bid


class EvaluationEdits:
    """Needs the document's path, evaluation and its commit, validation and lookup helpers."""

    if TYPE_CHECKING:  # EvaluationDocument's own (document.py, records.py)
        path: Path
        _evaluation: Evaluation
        _commit: Callable[..., tuple[audit.AuditRow, object]]
        _commit_many: Callable[..., tuple[audit.AuditRow, object]]
        _bid_index: Callable[[str], int]
        _require_text: Callable[..., str]
        artefacts: Callable[[], tuple[ArtefactInfo, ...]]

        def _validated(self, what: str, build: Callable[[], Made]) -> Made: ...

    def add_bid(self, bid: Bid) -> Evaluation:
        return self.add_bids([bid])

    def add_bids(self, bids: list[Bid], label: str | None = None) -> Evaluation:
        """Add bids (one, or an imported sheet) in one transaction and one audit row: all of them or none."""
        bids = [self._validated("the new bid", partial(Bid.model_validate, b)) for b in bids]
        if not bids:
            return self._evaluation
        names = ", ".join(repr(b.id) for b in bids)
        new = self._validated(
            f"adding bid {names}",
            lambda: snapshot.rebuild(self._evaluation, bids=(*self._evaluation.bids, *bids)),
        )
        if len(bids) > 1:
            return self.apply(new, label or f"Add {len(bids)} bids")
        rows = [(bid.id, snapshot.to_json(bid)) for bid in bids]
        self._commit_many(
            [(audit.ADD_BID, bid_id, None, bid_json) for bid_id, bid_json in rows],
            lambda c: c.executemany(
                "INSERT INTO bid (position, bid_id, bid_json) SELECT coalesce(max(position), 0) + "
                "1, ?, ? FROM bid",
                rows,
            ),
            evaluation=new,
        )
        return new

    def apply(
        self, target: Evaluation, label: str, files: Sequence[NewArtefact] = ()
    ) -> Evaluation:
        """Bring the document to `target` (one user action: an edit, an import, an undo or a redo) in
        one transaction recorded as one audit row, so a crash leaves the state before or after it.
        `files`: raw evidence files the edit's evidence comes from, kept in the same transaction
        (one attach row each before the edit's row); a file already kept is not stored twice."""
        current = self._evaluation
        new = self._validated(label, lambda: snapshot.rebuild(target))
        steps = changes.diff_steps(current, new)
        fresh = self._not_yet_kept(files)
        if not steps and not fresh:
            return current
        if (
            not fresh
            and len(steps) == 1
            and steps[0]["action"] not in (changes.SET_HEADER, changes.REORDER)
        ):
            return self._apply_one(steps[0], new)
        label = self._require_text("the description of the change", label, 200)

        entries = _attach_entries(fresh)
        if steps:
            entries.append((audit.EDIT, None, None, changes.edit_payload(label, steps)))
        self._commit_many(
            entries, lambda conn: _store_edit(conn, current, new, fresh), evaluation=new
        )
        return new

    def _not_yet_kept(self, files: Sequence[NewArtefact]) -> list[tuple[NewArtefact, str]]:
        """The files not stored yet, each checked (size, name) and with its SHA-256."""
        kept = {info.sha256 for info in self.artefacts()}
        fresh = []
        for item in files:
            sha256 = artefacts.check_artefact(self.path, item.name, item.data, item.media_type)
            if sha256 not in kept:
                kept.add(sha256)
                fresh.append((item, sha256))
        return fresh

    def _apply_one(self, step: dict[str, Any], new: Evaluation) -> Evaluation:
        # A single-part change keeps its plain row (add_bid, replace_bid, ...), as older trails have.
        action, target = step["action"], step["target"]
        if action == audit.SET_WORKLOAD:
            return self.set_workload(new.workload)
        if action == audit.SET_POLICY:
            return self.set_policy(new.policy)
        if action == audit.REMOVE_BID:
            return self.remove_bid(target)
        bid = next(b for b in new.bids if b.id == target)
        return (
            self.replace_bid(target, bid) if action == audit.REPLACE_BID else self.add_bids([bid])
        )

    def replace_bid(self, bid_id: str, bid: Bid) -> Evaluation:
        """Record a correction: the old and the corrected bid both stay in the trail."""
        index = self._bid_index(bid_id)
        bid = self._validated("the corrected bid", lambda: Bid.model_validate(bid))
        bids = list(self._evaluation.bids)
        old_json, bids[index] = snapshot.to_json(bids[index]), bid
        new = self._validated(
            f"correcting bid {bid_id!r}",
            lambda: snapshot.rebuild(self._evaluation, bids=tuple(bids)),
        )
        bid_json = snapshot.to_json(bid)
        self._commit(
            audit.REPLACE_BID,
            bid_id,
            old_json,
            bid_json,
            lambda c: c.execute(
                "UPDATE bid SET bid_id = ?, bid_json = ? WHERE bid_id = ?",
                (bid.id, bid_json, bid_id),
            ),
            evaluation=new,
        )
        return new

    def remove_bid(self, bid_id: str) -> Evaluation:
        index = self._bid_index(bid_id)
        bids = list(self._evaluation.bids)
        removed = bids.pop(index)
        new = self._validated(
            f"removing bid {bid_id!r}", lambda: snapshot.rebuild(self._evaluation, bids=tuple(bids))
        )
        self._commit(
            audit.REMOVE_BID,
            bid_id,
            snapshot.to_json(removed),
            None,
            lambda c: c.execute("DELETE FROM bid WHERE bid_id = ?", (bid_id,)),
            evaluation=new,
        )
        return new

    def _set_header_part(self, action: str, name: str, value: BaseModel) -> Evaluation:
        new = self._validated(
            f"the new {name}", lambda: snapshot.rebuild(self._evaluation, **{name: value})
        )
        old_json, new_json = (
            snapshot.to_json(getattr(self._evaluation, name)),
            snapshot.to_json(getattr(new, name)),
        )
        self._commit(
            action,
            name,
            old_json,
            new_json,
            lambda c: c.execute(
                "UPDATE evaluation SET header_json = ? WHERE singleton = 1",
                (snapshot.header_json(new),),
            ),
            evaluation=new,
        )
        return new

    def set_workload(self, workload: AnyWorkload) -> Evaluation:
        return self._set_header_part(audit.SET_WORKLOAD, "workload", workload)

    def set_policy(self, policy: ScoringPolicy) -> Evaluation:
        """Weights, required certifications, exchange rates or seed changed."""
        return self._set_header_part(audit.SET_POLICY, "policy", policy)


def _store_edit(
    conn: sqlite3.Connection,
    current: Evaluation,
    new: Evaluation,
    fresh: list[tuple[NewArtefact, str]],
) -> None:
    """Inside the edit's transaction: the new files, then the header and bids only if changed."""
    for item, sha256 in fresh:
        artefacts.insert(
            conn,
            bid_id=item.bid_id,
            name=item.name,
            data=item.data,
            sha256=sha256,
            media_type=item.media_type,
        )
    if snapshot.header_json(new) != snapshot.header_json(current):
        conn.execute(
            "UPDATE evaluation SET header_json = ? WHERE singleton = 1",
            (snapshot.header_json(new),),
        )
    if new.bids != current.bids:
        conn.execute("DELETE FROM bid")
        conn.executemany(
            "INSERT INTO bid (position, bid_id, bid_json) VALUES (?, ?, ?)",
            [(i, bid.id, snapshot.to_json(bid)) for i, bid in enumerate(new.bids, start=1)],
        )


def _attach_entries(
    fresh: list[tuple[NewArtefact, str]],
) -> list[tuple[str, str | None, str | None, str | None]]:
    """One attach row per file not kept yet, before the edit's own row."""
    return [
        (
            audit.ATTACH_ARTEFACT,
            item.bid_id,
            None,
            artefacts.attach_payload(item.name, item.data, item.media_type, item.bid_id, sha256),
        )
        for item, sha256 in fresh
    ]
