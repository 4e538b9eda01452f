"""One evaluation in one .clusterbid file: every edit is validated, committed and audited at once."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.model_parsing import one_line_problems
from clusterbid.core.shown_scorecard import restamp_shown
from clusterbid.core.store import (
    audit,
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
from clusterbid.core.store.evaluation_edits import EvaluationEdits, Made
from clusterbid.core.store.records import DocumentRecords

# A document that fails its audit can still say what was done with it (never change it).
RECORDS_ALLOWED_AFTER_FAILED_AUDIT = (
    audit.RECORD_AUDIT_OVERRIDE,
    audit.RECORD_MEMO_EXPORTED,
    audit.RECORD_SIGNATURE,
)
Write = Callable[[sqlite3.Connection], object]


class EvaluationDocument(
    EvaluationEdits, DocumentRecords, ApproverRecords, panel_lock.PanelRecords
):
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
        """Open after the safety checks (identity, version, the pages it reads, schema), upgrading.
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
        return fileformat.read_whole_trail(self.path, self._conn)  # every page checked

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
        taken when it was opened, from its last checkpoint), every page of the file checked."""
        if problem := fileformat.page_problem(self.path, self._conn):
            return verify.AuditReport(self.path, False, (), None, problem)
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

    def _validated(self, what: str, build: Callable[[], Made]) -> Made:
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

    # -- copies ------------------------------------------------------------------------------
    def save_copy(self, dest: Path | str) -> Path:
        """ "Save a copy": a consistent snapshot through SQLite's backup API, written whole or not at all."""
        return backup_to(self.path, self._conn, Path(dest))
