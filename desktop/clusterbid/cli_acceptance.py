"""`clusterbid acceptance-plan` and `clusterbid acceptance-status`: the contract's acceptance
annex of one bid, and the results returned after handover judged against it (wired in by cli.py)."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError

if TYPE_CHECKING:  # for annotations only: the CLI imports the heavy modules when a verb runs
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.operations.acceptance import AcceptanceStatus


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, not {text!r}") from None


def _plan(args: argparse.Namespace) -> int:
    from clusterbid.core.documents import read_evaluation
    from clusterbid.operations.acceptance import write_acceptance_plan
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    path, issued = Path(args.path), args.issued_on or dt.date.today()
    if path.suffix == ".clusterbid":
        from clusterbid.core.store import EvaluationDocument

        with EvaluationDocument.open(path, user=args.user) as document:
            written = write_acceptance_plan(
                document.evaluation,
                args.bid,
                Path(args.output),
                no_progress,
                NEVER_CANCELLED,
                issued=issued,
                document=document,
            )
    else:
        written = write_acceptance_plan(
            read_evaluation(path),
            args.bid,
            Path(args.output),
            no_progress,
            NEVER_CANCELLED,
            issued=issued,
        )
    print(written.written_words())
    for test in written.plan.tests:
        from clusterbid.core.acceptance.render import pass_words

        print(f"  {test.test_id}: {test.title}; {pass_words(test)}")
    return 0


def _status(args: argparse.Namespace) -> int:
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.operations.acceptance import acceptance_status

    path = Path(args.path)
    if path.suffix != ".clusterbid":
        raise InputError(
            f"{path}: acceptance results live in a .clusterbid document, not in "
            f"{path.suffix or 'this file'}"
        )
    with EvaluationDocument.open(path, user=args.user) as document:
        _attach_returned_files(document, args)
        if args.record:
            _record_outcome_by_hand(document, args)
        status = acceptance_status(document, args.bid, with_what_if=args.what_if, today=args.today)
        currency = document.evaluation.currency
    _print_status(status, currency)
    return 0


def _attach_returned_files(document: EvaluationDocument, args: argparse.Namespace) -> None:
    """Keep the returned files and say, one line per test, which were attached to it."""
    from clusterbid.operations.acceptance import attach_acceptance_files

    attached: dict[str, list[str]] = {}  # test id -> names, one line per test (72 nodes)
    for line in attach_acceptance_files(document, args.bid, [Path(p) for p in args.attach or []]):
        name, test_id = line.rsplit(": ", 1)
        attached.setdefault(test_id, []).append(name)
    for test_id, names in attached.items():
        more = f" and {len(names) - 3} more" if len(names) > 4 else ""
        shown = names[:3] if more else names
        print(f"Attached to {test_id}: {', '.join(shown)}{more}")


def _record_outcome_by_hand(document: EvaluationDocument, args: argparse.Namespace) -> None:
    """--record: an outcome the officer saw for a test no file is read for, against the kept plan."""
    from clusterbid.core.acceptance.results import RecordedOutcome, record_outcome
    from clusterbid.operations.acceptance import awarded_plan

    if args.outcome is None or not (args.note or "").strip():
        raise InputError("--record needs --outcome pass|fail and --note (what was seen, by whom)")
    plan, issued = awarded_plan(document, args.bid)
    if not issued:
        raise InputError(
            f"no acceptance plan of {plan.bid_id} is kept: write it first (acceptance-plan)"
        )
    outcome = RecordedOutcome(
        passed=args.outcome == "pass", measured=args.measured, note=args.note.strip()
    )
    record_outcome(document, plan, args.record, outcome)


def _print_status(status: AcceptanceStatus, currency: str) -> None:
    """Each test's state in words, with the files returned, notes, remedy and the what-if."""
    from clusterbid.core.acceptance.render import measured_words, pass_words, returned_words
    from clusterbid.core.acceptance.status import STATE_WORDS

    plan = status.plan
    print(
        f"Acceptance of {plan.provider} (bid {plan.bid_id})"
        + (
            ""
            if status.issued
            else ": no plan was issued; judged against one built now from the current figures"
        )
    )
    for r in status.results:
        seen = measured_words(r.test, r.measured)
        print(
            f"{r.test.test_id} {r.test.title}: {STATE_WORDS[r.state]}{seen} ({pass_words(r.test)})"
        )
        for line in returned_words(r.files):
            print(f"    {line}")
        for note in r.notes:
            print(f"    {note}")
        if r.remedy_owed:
            print(f"    remedy owed: {r.remedy_owed}")
    if status.what_if is not None:
        print(
            status.what_if.words(currency)
            + (" Recorded in the audit trail as a what-if." if status.what_if.figures_used else "")
        )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "acceptance-plan",
        help="write a bid's acceptance plan, the contract's annex (Markdown, JSON, PDF)",
        description="One test per claim the evaluation relied on, each with a pass threshold derived from the "
        "figure scored, the soak length and the remedy. From a .clusterbid document the plan is "
        "kept, so "
        "files returned after handover are judged against it ('acceptance-status').",
    )
    p.add_argument("path", metavar="PATH", help="a .clusterbid document or an evaluation JSON")
    p.add_argument("--bid", metavar="ID", required=True, help="the bid awarded (or about to be)")
    p.add_argument(
        "-o", "--output", metavar="DIR", required=True, help="folder to write the annex to"
    )
    p.add_argument(
        "--issued-on", type=_date, metavar="YYYY-MM-DD", help="day of issue (default: today)"
    )
    p.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    p.set_defaults(func=_plan)

    _add_status(subparsers)


def _add_status(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`acceptance-status`: attach returned files, record an outcome by hand, the what-if."""
    s = subparsers.add_parser(
        "acceptance-status",
        help="attach files returned after handover and show pass, fail or missing per test",
        description="Files whose names begin with a test id (ACC-...) are read with the evidence readers and "
        "kept with the awarded bid as acceptance evidence; the bid's own claims are never changed.",
    )
    s.add_argument("path", metavar="PATH", help="a .clusterbid document")
    s.add_argument(
        "--bid", metavar="ID", help="the awarded bid (default: the one bid with an acceptance plan)"
    )
    s.add_argument("--attach", nargs="+", metavar="FILE", help="returned files to keep and judge")
    s.add_argument(
        "--record", metavar="TEST_ID", help="record the outcome of a test the app reads no file for"
    )
    s.add_argument("--outcome", choices=("pass", "fail"), help="with --record")
    s.add_argument(
        "--measured", type=float, help="with --record: the figure seen, in the test's unit"
    )
    s.add_argument("--note", help="with --record: what was seen, and by whom")
    s.add_argument(
        "--what-if",
        action="store_true",
        help="re-score the award with the measured figures (recorded as a what-if)",
    )
    s.add_argument("--today", type=_date, metavar="YYYY-MM-DD", help=argparse.SUPPRESS)
    s.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    s.set_defaults(func=_status)
