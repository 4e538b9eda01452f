"""Writing an operation's row into a document's audit trail, from either front door.

A document's connection belongs to the thread that opened it, so the app runs the slow part of an
operation in the background and the recording on its own thread; the command line does both in
turn. Either way the row is written here, into the document the operation named in its result,
never into one a front door picks afterwards (the window may show another evaluation by then).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError

if TYPE_CHECKING:
    from clusterbid.core.store import EvaluationDocument


def same_file(first: Path, second: Path) -> bool:
    """True when both paths name one file (a relative and an absolute spelling of it, a link)."""
    try:
        return Path(first).resolve() == Path(second).resolve()
    except OSError:
        return False


def record_in(
    document: EvaluationDocument, record: Callable[[EvaluationDocument], object]
) -> str | None:
    """Run `record(doc)` on `document`, reopened from its file when the window has since closed it
    (another evaluation was opened while the work ran): the row is never lost. Returns why it
    could not be recorded (a read-only file, a change from elsewhere), in words, with what the
    anchor log outside the file could not take; None when all went in."""
    from clusterbid.core.store import EvaluationDocument

    try:
        if not document.is_closed:
            record(document)
            return "; ".join(document.anchor_problems) or None
        with EvaluationDocument.open(document.path) as reopened:
            record(reopened)
            return "; ".join(reopened.anchor_problems) or None
    except InputError as exc:
        return f"not recorded in {document.path.name}'s audit trail: {exc}"
