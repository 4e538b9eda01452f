"""One evaluation in one .clusterbid file: every edit is validated, committed and audited at once."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ValidationError

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation, ScoringPolicy
from clusterbid.core.model_parsing import one_line_problems
from clusterbid.core.shown_scorecard import restamp_shown
from clusterbid.core.store import (
    artefacts,
    audit,
    changes,
    checkpoint,
    fileformat,
    panel_lock,
    schema,
    snapshot,
    verify,
)
from clusterbid.core.store.approver_records import ApproverRecords
from clusterbid.core.store.copying import backup_to
from clusterbid.core.store.errors import (
    CorruptDocumentError,
    DocumentError,
    DocumentWriteError,
    EditRejectedError,
)
from clusterbid.core.store.records import DocumentRecords
from clusterbid.core.workload import Workload

# A document that fails its audit can still say what was done with it (never change it).
RECORDS_ALLOWED_AFTER_FAILED_AUDIT = (
    audit.RECORD_AUDIT_OVERRIDE,
    audit.RECORD_MEMO_EXPORTED,
    audit.RECORD_SIGNATURE,
)
Write = Callable[[sqlite3.Connection], object]


class EvaluationDocument(DocumentRecords, ApproverRecords, panel_lock.PanelRecords):
    """An open .clusterbid file and its current evaluation; there is never unsaved state."""

    def __init__(self, path: Path, conn: sqlite3.Connection, user: str | None) -> None:
        self.path = Path(path)
        self.user = user or audit.default_user()
        self._conn = conn
        self._closed = False
        try:
            self._evaluation = snapshot.load_evaluation(conn)
            self._head = audit.read_head(conn)
            # The audit from the last checkpoint on, at every open: a document whose recent rows,
            # head or stored state were changed is known before it is scored, shown or written to,
            # in a time that does not grow with its history (`clusterbid audit` checks it all).
            self.audit_report = verify.audit_connection(
                self.path, conn, self._evaluation, from_checkpoint=True
            )
            self._state = snapshot.state_digest(conn)
        except (ValidationError, ValueError) as exc:
            conn.close()
            raise CorruptDocumentError(
                self.path, f"holds an evaluation that does not validate: {exc}"
            ) from None
        except (
            sqlite3.Error
        ) as exc:  # e.g. text that is not valid UTF-8, which the integrity check lets pass
            conn.close()
            raise CorruptDocumentError(
                self.path,
                f"holds data that cannot be read ({exc}); it was altered outside "
                "ClusterBid: open a copy you trust",
            ) from None

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def create(
        cls, path: Path | str, evaluation: Evaluation, user: str | None = None
    ) -> EvaluationDocument:
        """Write a new document holding `evaluation`; refuses to overwrite an existing file."""
        path = Path(path)
        if path.suffix != fileformat.SUFFIX:
            raise DocumentError(path, f"an evaluation file name must end in {fileformat.SUFFIX}")
        who = user or audit.default_user()
        conn = fileformat.create_connection(path)
        try:
            # Schema, identity, data and the first audit row in one transaction: a kill leaves an
            # empty file that open() refuses, never a half-made document.
            conn.execute("BEGIN IMMEDIATE")
            schema.build_schema(conn)
            snapshot.write_evaluation(conn, evaluation)
            audit.append(
                conn,
                (0, audit.GENESIS_HASH),
                who=who,
                action=audit.CREATE,
                target=None,
                old_json=None,
                new_json=snapshot.to_json(evaluation),
            )
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.close()
            path.unlink(missing_ok=True)
            raise DocumentWriteError(
                path, f"could not be created ({exc}); no file was left behind"
            ) from None
        document = cls(path, conn, who)
        document._evaluation_committed()
        return document

    @classmethod
    def open(
        cls, path: Path | str, user: str | None = None, *, read_only: bool = False
    ) -> EvaluationDocument:
        """Open after the safety checks (identity, version, integrity, schema), upgrading old formats.
        `read_only` (verify): the file exactly as it is on disk, never written, no journal applied."""
        path = Path(path)
        return cls(path, fileformat.open_connection(path, read_only=read_only), user)

    def close(self) -> None:
        self._conn.close()
        self._closed = True

    @property
    def is_closed(self) -> bool:
        """True once closed (a window that switched evaluations closes the old file)."""
        return self._closed

    def __enter__(self) -> EvaluationDocument:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    @property
    def evaluation(self) -> Evaluation:
        return self._evaluation

    @property
    def head(self) -> tuple[int, str]:
        """(seq, hash) of the last committed audit row: an acknowledgement a caller can check later."""
        return self._head

    def audit_rows(self) -> tuple[audit.AuditRow, ...]:
        return audit.read_rows(self._conn)

    def catch_up(self) -> tuple[audit.AuditRow, ...] | None:
        """Take in what another window or a `clusterbid` command committed to the file since this
        document last looked: None when nothing changed, else the new audit rows (none when the
        file changed without new rows: an older copy put back, a damaged head). Read in one
        snapshot and audited as on open: an outside change that breaks the chain leaves this
        document refusing edits, exactly as opening the file now would."""
        self._conn.execute("BEGIN")  # one consistent read of head, rows and state
        try:
            head = audit.read_head(self._conn)
            if head == self._head:
                return None
            evaluation = snapshot.load_evaluation(self._conn)
            report = verify.audit_connection(
                self.path, self._conn, evaluation, from_checkpoint=True
            )
            state = snapshot.state_digest(self._conn)
            try:
                new_rows = audit.read_rows(self._conn, self._head[0] + 1)
            except sqlite3.Error:  # rows that cannot be read: the report says so
                new_rows = ()
        finally:
            self._conn.execute("COMMIT")
        self._evaluation, self._head, self._state, self.audit_report = (
            evaluation,
            head,
            state,
            report,
        )
        return new_rows

    def audit_now(self) -> verify.AuditReport:
        """The whole trail audited as it stands now, from its first row (`audit_report` is the one
        taken when it was opened, from its last checkpoint)."""
        return verify.audit_connection(self.path, self._conn, self._evaluation)

    # -- committing ------------------------------------------------------------------------
    def _commit(
        self,
        action: str,
        target: str | None,
        old: str | None,
        new: str | None,
        write: Write | None = None,
        evaluation: Evaluation | None = None,
    ) -> tuple[audit.AuditRow, object]:
        """Apply `write` and its audit row in one transaction; on any failure nothing changes."""
        return self._commit_many([(action, target, old, new)], write, evaluation)

    def _commit_many(
        self,
        entries: list[tuple[str, str | None, str | None, str | None]],
        write: Write | None = None,
        evaluation: Evaluation | None = None,
    ) -> tuple[audit.AuditRow, object]:
        """Apply `write` and one audit row per entry in one transaction: all of it or nothing.
        `evaluation`: the evaluation as the commit leaves it, when it changes it (None: a record)."""
        action = entries[0][0]
        result = None
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            if audit.read_head(self._conn) != self._head:
                raise DocumentWriteError(
                    self.path,
                    "was changed by another ClusterBid window since it was opened; reopen it and "
                    "repeat the edit",
                )
            self._refuse_if_tampered(action)
            # An evaluator's copy of a panel evaluation takes only that evaluator's judgements.
            panel_lock.refuse_if_locked(self.path, self._conn, [entry[0] for entry in entries])
            if write is not None:
                result = write(self._conn)
            head = self._head
            for entry_action, target, old, new in entries:
                row = audit.append(
                    self._conn,
                    head,
                    who=self.user,
                    action=entry_action,
                    target=target,
                    old_json=old,
                    new_json=new,
                )
                head = (row.seq, row.hash)
            if self.audit_report.ok and checkpoint.due(self._conn, head[0]):
                # Never over a failed audit: a checkpoint would vouch for a state the trail does not reach.
                mark = checkpoint.write(self._conn, head, self.user)
                head = (mark.seq, mark.hash)
            if evaluation is None:  # a record: the scores shown before it are still the scores
                restamp_shown(self._conn, self._head, head)
            state = snapshot.state_digest(self._conn)
            self._conn.execute("COMMIT")
        except (sqlite3.Error, DocumentError) as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            if isinstance(exc, DocumentError):
                raise
            raise DocumentWriteError(
                self.path,
                f"could not save {action.replace('_', ' ')} ({exc}); "
                "the document is as it was before",
            ) from None
        self._head, self._state = head, state
        if evaluation is not None:
            self._evaluation = evaluation
            self._evaluation_committed()
        return row, result

    def _evaluation_committed(self) -> None:
        """Called after each commit that changed the evaluation (core/comparison_table.py keeps
        the first-paint table there; the store itself never scores)."""

    def _refuse_if_tampered(self, action: str) -> None:
        """Before any write: an edit over rows changed outside ClusterBid would launder them into the trail."""
        if snapshot.state_digest(self._conn) != self._state:
            raise DocumentWriteError(
                self.path,
                "was changed outside ClusterBid since it was opened (its stored rows "
                "no longer match what was committed); nothing was written. Run `clusterbid "
                "audit` on it and reopen a copy you trust",
            )
        if not self.audit_report.ok and action not in RECORDS_ALLOWED_AFTER_FAILED_AUDIT:
            raise DocumentWriteError(
                self.path,
                f"fails its audit ({self.audit_report.reason}); edits are refused so "
                "that they cannot hide the change. Reopen a copy you trust",
            )

    def _validated(self, what: str, build: Callable[[], Evaluation]) -> Evaluation:
        try:
            return build()
        except ValidationError as exc:
            details = one_line_problems(exc, whole="evaluation")
            raise EditRejectedError(
                self.path, f"{what} was refused: {details}", exc.errors()
            ) from None

    def _bid_index(self, bid_id: str) -> int:
        for index, bid in enumerate(self._evaluation.bids):
            if bid.id == bid_id:
                return index
        raise EditRejectedError(self.path, f"has no bid {bid_id!r}")

    # -- edits that change the evaluation --------------------------------------------------
    def add_bid(self, bid: Bid) -> Evaluation:
        return self.add_bids([bid])

    def add_bids(self, bids: list[Bid], label: str | None = None) -> Evaluation:
        """Add bids (one, or an imported sheet) in one transaction and one audit row: all of them or none."""
        bids = [self._validated("the new bid", lambda b=b: Bid.model_validate(b)) for b in bids]
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
        self, target: Evaluation, label: str, files: Sequence[artefacts.NewArtefact] = ()
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

        def write(conn: sqlite3.Connection) -> None:
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

        entries = [
            (
                audit.ATTACH_ARTEFACT,
                item.bid_id,
                None,
                artefacts.attach_payload(
                    item.name, item.data, item.media_type, item.bid_id, sha256
                ),
            )
            for item, sha256 in fresh
        ]
        if steps:
            entries.append((audit.EDIT, None, None, changes.edit_payload(label, steps)))
        self._commit_many(entries, write, evaluation=new)
        return new

    def _not_yet_kept(
        self, files: Sequence[artefacts.NewArtefact]
    ) -> list[tuple[artefacts.NewArtefact, str]]:
        """The files not stored yet, each checked (size, name) and with its SHA-256."""
        kept = {info.sha256 for info in self.artefacts()}
        fresh = []
        for item in files:
            sha256 = artefacts.check_artefact(self.path, item.name, item.data, item.media_type)
            if sha256 not in kept:
                kept.add(sha256)
                fresh.append((item, sha256))
        return fresh

    def _apply_one(self, step: dict, new: Evaluation) -> Evaluation:
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

    def set_workload(self, workload: Workload) -> Evaluation:
        return self._set_header_part(audit.SET_WORKLOAD, "workload", workload)

    def set_policy(self, policy: ScoringPolicy) -> Evaluation:
        """Weights, required certifications, exchange rates or seed changed."""
        return self._set_header_part(audit.SET_POLICY, "policy", policy)

    # -- copies ------------------------------------------------------------------------------
    def save_copy(self, dest: Path | str) -> Path:
        """ "Save a copy": a consistent snapshot through SQLite's backup API, written whole or not at all."""
        return backup_to(self.path, self._conn, Path(dest))
