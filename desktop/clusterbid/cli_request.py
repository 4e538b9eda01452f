"""`clusterbid request-evidence`: the request-for-evidence pack of one bid, and the state of the
requests issued from a document (wired in by cli.py)."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, not {text!r}") from None


def _training_evaluation(path: Path) -> Evaluation:
    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.kinds import kind_of

    evaluation = read_evaluation(path)
    kind = kind_of(evaluation)
    if not kind.has_evidence_requests:
        raise InputError(
            f"{path}: this evaluation buys {kind.buys}; requests for evidence cover training bids "
            "only"
        )
    return evaluation


def _write_pack(args: argparse.Namespace) -> int:
    from clusterbid.core.evidence_request.serving_summary import serving_voi_lines
    from clusterbid.core.evidence_request.summary import voi_lines
    from clusterbid.core.serving_workload import InferenceWorkload
    from clusterbid.operations.evidence_request import request_evidence, value_requests
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    path = Path(args.path)
    evaluation = _training_evaluation(path)
    issued = args.issued_on or dt.date.today()
    voi = value_requests(
        evaluation, args.bid, no_progress, NEVER_CANCELLED, args.samples, path.name
    )
    if path.suffix == ".clusterbid":
        from clusterbid.core.store import EvaluationDocument

        with EvaluationDocument.open(path, user=args.user) as document:
            written = request_evidence(
                evaluation,
                args.bid,
                voi,
                Path(args.output),
                no_progress,
                NEVER_CANCELLED,
                issued=issued,
                deadline=args.deadline,
                document=document,
            )
        kept = f"; kept in {path.name} so returned files are matched to it"
    else:
        written = request_evidence(
            evaluation,
            args.bid,
            voi,
            Path(args.output),
            no_progress,
            NEVER_CANCELLED,
            issued=issued,
            deadline=args.deadline,
        )
        kept = (
            " (an evaluation JSON cannot keep it: use a .clusterbid document to track the answers)"
        )
    pack, paths = written.pack, written.paths
    print(f"Wrote {paths[0]} and {paths[1]}{kept}")
    for request in pack.requests:
        print(f"  {request.request_id}: {request.title}")
    print(f"Deadline {pack.deadline.isoformat()}. For you, not the provider:")
    if isinstance(evaluation.workload, InferenceWorkload):  # issue 37: valued on serving's draws
        print("\n".join(serving_voi_lines(evaluation, voi, args.bid)))
    else:
        print("\n".join(voi_lines(evaluation, voi, args.bid)))
    return 0


def _show_status(args: argparse.Namespace) -> int:
    from clusterbid.core.evidence_request.ladder_status import ladder_fits
    from clusterbid.core.evidence_request.status import record_refusal, request_statuses
    from clusterbid.core.store import EvaluationDocument

    path = Path(args.path)
    if path.suffix != ".clusterbid":
        raise InputError(
            f"{path}: request states live in a .clusterbid document, not in "
            f"{path.suffix or 'this file'}"
        )
    with EvaluationDocument.open(path, user=args.user) as document:
        if args.refused:
            record_refusal(document, args.refused, args.reason or "")
        statuses = request_statuses(document, args.today or dt.date.today())
        fits = ladder_fits(document, statuses)
    if not statuses:
        print(f"No requests for evidence were issued from {path.name}")
    for s in statuses:
        when = f" on {s.returned_on.isoformat()}" if s.returned_on else ""
        print(
            f"{s.request.request_id} {s.request.bid_id} ({s.provider}), due "
            f"{s.deadline.isoformat()}: "
            f"{s.state}{when} - {s.request.title}"
        )
        for name in s.files:
            print(f"    returned: {name}")
        if s.note:
            print(f"    {s.note}")
        if s.request.request_id in fits:
            print(f"    {fits[s.request.request_id].words()}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.status or args.refused:
        return _show_status(args)
    if not args.bid or not args.output:
        raise InputError(
            "request-evidence needs --bid ID and -o DIR (or --status to see the requests' states)"
        )
    return _write_pack(args)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "request-evidence",
        help=(
            "write a bid's request-for-evidence pack (Markdown + JSON), or show the requests' "
            "states"
        ),
        description="Write what the provider should run and return for this workload and bid, the request most "
        "worth making first. With a .clusterbid document the pack is kept, and files attached "
        "later with "
        "'evidence attach' whose names begin with a request id answer it.",
    )
    p.add_argument("path", metavar="PATH", help="a .clusterbid document or an evaluation JSON")
    p.add_argument("--bid", metavar="ID", help="the bid to ask evidence for")
    p.add_argument("-o", "--output", metavar="DIR", help="folder to write the pack to")
    p.add_argument(
        "--deadline", type=_date, metavar="YYYY-MM-DD", help="default: 14 days after issue"
    )
    p.add_argument(
        "--issued-on", type=_date, metavar="YYYY-MM-DD", help="day of issue (default: today)"
    )
    p.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"Monte Carlo samples for the value of information (default {DEFAULT_SAMPLES:,})",
    )
    p.add_argument(
        "--status", action="store_true", help="list the requests issued from PATH and their states"
    )
    p.add_argument(
        "--refused", metavar="REQUEST_ID", help="record that the provider refused this request"
    )
    p.add_argument("--reason", help="with --refused: why (the provider's words)")
    p.add_argument(
        "--today", type=_date, metavar="YYYY-MM-DD", help=argparse.SUPPRESS
    )  # tests: a fixed day
    p.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    p.set_defaults(func=run)
