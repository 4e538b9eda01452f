"""CLI verb `memo PATH -o MEMO.pdf`: export the approval memo (wired in by cli.py via register)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

if TYPE_CHECKING:
    import datetime as dt

    from clusterbid.core.evaluation import Evaluation
    from clusterbid.operations.memo_export import MemoSource

EXIT_OK, EXIT_INPUT = 0, 2


def on_two_cores(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A verb whose charts may be drawn on two cores while it runs (core/memo/chart_fork.py): the
    command line's `memo` and `verify`, processes of one thread, never the app or the tests'."""

    def run_on_two_cores(args: argparse.Namespace) -> int:
        from clusterbid.core.memo.chart_fork import charts_forked

        with charts_forked():
            return run(args)

    return run_on_two_cores


def run_memo(args: argparse.Namespace) -> int:
    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.memo.inputs import Approver, RecommendationOverride
    from clusterbid.operations import memo_export
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    if args.justification and not args.override:
        raise InputError("--justification explains an override: give --override BID_ID with it")
    override = None
    if args.override:
        override = RecommendationOverride(args.override, args.justification or "")
    approvers = [Approver.parse(text) for text in args.approver]
    decision_date = _decision_date(args.decision_date)
    output = Path(args.output)
    if output.suffix.lower() != ".pdf":
        raise InputError(f"-o {output}: the memo is a PDF; give a file name ending in .pdf")
    source = Path(args.path)
    evaluation = read_evaluation(source)
    notes, made_from = args.notes, memo_export.MemoSource(evaluation)
    if source.suffix == ".clusterbid":
        from clusterbid.core.store.fileformat import read_only_refusal

        refusal = read_only_refusal(source, "the memo's export")  # before the memo is made
        if refusal:
            raise InputError(refusal)
        notes, made_from = _document_source(source, evaluation, args.accept_failed_audit, notes)
    choices = memo_export.MemoChoices(
        approvers,
        notes,
        override,
        decision_date,
        args.samples,
        rationale=args.tradeoff_rationale or "",
    )
    try:
        exported = memo_export.export_memo(made_from, choices, output, no_progress, NEVER_CANCELLED)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    sha256 = exported.sha256
    if made_from.document is not None:
        from clusterbid.core.store import EvaluationDocument

        try:
            with EvaluationDocument.open(source) as document:
                problems = memo_export.write_export_row(document, exported)
        except InputError as exc:  # the memo exists and is whole: say so, and what is missing
            raise InputError(
                f"wrote the approval memo to {output} (SHA-256 {sha256}), but its export could not "
                f"be recorded in {source.name}'s audit trail ({exc}); the memo is complete, the "
                "trail does not list it: export again once the document can be written"
            ) from None
        print(f"recorded the export in the audit trail of {source}")
        for problem in problems:
            print(f"clusterbid: note: {problem}", file=sys.stderr)
    print(f"wrote the approval memo to {output} (SHA-256 {sha256})")
    return EXIT_OK


run_memo_on_two_cores = on_two_cores(run_memo)


def _decision_date(text: str | None) -> dt.date | None:
    """--decision-date as a date; None when not given (the memo then prints the export date as such)."""
    import datetime as dt

    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(
            f"--decision-date {text!r}: give the approval meeting's date as YYYY-MM-DD, "
            "e.g. 2026-12-01"
        ) from None


def _document_source(
    source: Path, evaluation: Evaluation, reason: str | None, notes: str
) -> tuple[str, MemoSource]:
    """The notes to print and what the memo is made from: the document's audit head after any
    accepted failed audit, and its evidence requests. A document that fails its audit makes no
    memo unless the officer gives a reason, which is recorded in its trail and printed."""
    from clusterbid.core.store import EvaluationDocument, audit_warning
    from clusterbid.operations import memo_export

    with EvaluationDocument.open(source) as document:
        report = document.audit_report
        if report.ok and reason:
            raise InputError(
                f"--accept-failed-audit: {source.name} passes its audit; there is nothing to accept"
            )
        if not report.ok:
            if not reason or not reason.strip():
                raise InputError(
                    audit_warning(report) + " No memo was made: to make one anyway, give "
                    "--accept-failed-audit REASON (recorded in the trail and printed on the memo)."
                )
            note = memo_export.accept_failed_audit(document, reason)
            print(
                f"clusterbid: {audit_warning(report)} Accepted and recorded: {reason.strip()}",
                file=sys.stderr,
            )
            notes = f"{notes}\n\n{note}" if notes.strip() else note
        return notes, memo_export.memo_source(document, evaluation)


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    memo = verbs.add_parser(
        "memo",
        help="export the approval memo PDF of an evaluation",
        description="Export the approval memo: decision, planned job and network assumptions, comparison, one page "
        "per bid, what was not verified, methodology, and one empty signature field per approver.",
    )
    memo.add_argument("path", metavar="PATH", help="a .clusterbid document or evaluation JSON")
    memo.add_argument("-o", "--output", required=True, metavar="MEMO.pdf", help="the PDF to write")
    memo.add_argument(
        "--approver",
        action="append",
        default=[],
        metavar='"Name, Role"',
        help="an approver who will sign (repeat for each, in signing order)",
    )
    memo.add_argument("--notes", default="", help="the officer's notes, printed under the decision")
    memo.add_argument(
        "--override", metavar="BID_ID", help="recommend this bid instead of the model's first"
    )
    memo.add_argument(
        "--justification", metavar="TEXT", help="why the override (required with --override)"
    )
    memo.add_argument(
        "--tradeoff-rationale",
        metavar="TEXT",
        help="why the recommendation is worth more than a cheaper passing bid (required when it "
        "costs more; printed in page 1's trade-off)",
    )
    memo.add_argument(
        "--accept-failed-audit",
        metavar="REASON",
        help="make the memo of a document that fails its audit; the reason is recorded and printed",
    )
    memo.add_argument(
        "--decision-date",
        metavar="YYYY-MM-DD",
        help="the date of the approval meeting, printed on page 1 apart from the quote dates "
        "(kept in the attached inputs; without it page 1 says none was given)",
    )
    memo.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help="Monte Carlo samples for the P10-P90 bands, as `score` uses (0: leave them out; "
        f"default {DEFAULT_SAMPLES:,})",
    )
    memo.set_defaults(func=run_memo_on_two_cores)
