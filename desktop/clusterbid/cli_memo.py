"""CLI verb `memo PATH -o MEMO.pdf`: export the approval memo (wired in by cli.py via register)."""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

EXIT_OK, EXIT_INPUT = 0, 2


def run_memo(args: argparse.Namespace) -> int:
    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.memo.inputs import Approver, RecommendationOverride
    from clusterbid.core.memo.making import make_memo
    from clusterbid.core.safe_files import write_bytes_atomically

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
    notes, anchor, statuses = args.notes, None, []
    if source.suffix == ".clusterbid":
        from clusterbid.core.store.fileformat import read_only_refusal

        refusal = read_only_refusal(source, "the memo's export")  # before the memo is made
        if refusal:
            raise InputError(refusal)
        notes = _accept_failed_audit(source, args.accept_failed_audit, notes)
        anchor = _audit_anchor(source)
        statuses = _request_statuses(source)
    try:
        pdf = make_memo(evaluation, approvers=approvers, notes=notes, override=override,
                        decision_date=decision_date, audit_anchor=anchor, request_statuses=statuses,
                        samples=max(args.samples, 0), rationale=args.tradeoff_rationale or "")
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    write_bytes_atomically(output, pdf)  # a full disk leaves neither a half memo nor a stray temporary file
    sha256 = hashlib.sha256(pdf).hexdigest()
    if source.suffix == ".clusterbid":
        from clusterbid.core.store import EvaluationDocument

        try:
            with EvaluationDocument.open(source) as document:
                document.record_memo_exported(output.name, sha256, anchor)
        except InputError as exc:  # the memo exists and is whole: say so, and what is missing
            raise InputError(f"wrote the approval memo to {output} (SHA-256 {sha256}), but its export could not "
                             f"be recorded in {source.name}'s audit trail ({exc}); the memo is complete, the "
                             "trail does not list it: export again once the document can be written") from None
        print(f"recorded the export in the audit trail of {source}")
        for problem in document.anchor_problems:
            print(f"clusterbid: note: {problem}", file=sys.stderr)
    print(f"wrote the approval memo to {output} (SHA-256 {sha256})")
    return EXIT_OK


def _decision_date(text: str | None):
    """--decision-date as a date; None when not given (the memo then prints the export date as such)."""
    import datetime as dt

    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(f"--decision-date {text!r}: give the approval meeting's date as YYYY-MM-DD, "
                         "e.g. 2026-12-01") from None


def _accept_failed_audit(source: Path, reason: str | None, notes: str) -> str:
    """A document that fails its audit makes no memo unless the officer gives a reason, which is
    recorded in its trail and printed with the notes; returns the notes to print."""
    from clusterbid.core.store import EvaluationDocument, audit_warning, override_note

    with EvaluationDocument.open(source) as document:
        report = document.audit_report
        if report.ok:
            if reason:
                raise InputError(f"--accept-failed-audit: {source.name} passes its audit; there is nothing to accept")
            return notes
        if not reason or not reason.strip():
            raise InputError(audit_warning(report) + " No memo was made: to make one anyway, give "
                             "--accept-failed-audit REASON (recorded in the trail and printed on the memo).")
        document.accept_failed_audit(reason)
        print(f"clusterbid: {audit_warning(report)} Accepted and recorded: {reason.strip()}", file=sys.stderr)
        note = override_note(report, document.user, reason)
    return f"{notes}\n\n{note}" if notes.strip() else note


def _audit_anchor(source: Path) -> dict[str, object]:
    """The document's audit head now (after any recorded override): the memo prints and attaches it."""
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.core.store.anchor import AuditAnchor

    with EvaluationDocument.open(source) as document:
        return AuditAnchor.from_head(document.head).as_json()


def _request_statuses(source: Path) -> list:
    """The evidence requests issued from the document and their states today (the memo lists them)."""
    import datetime as dt

    from clusterbid.core.evidence_request.status import request_statuses
    from clusterbid.core.store import EvaluationDocument

    with EvaluationDocument.open(source) as document:
        return request_statuses(document, dt.date.today())


def register(verbs: argparse._SubParsersAction) -> None:
    memo = verbs.add_parser(
        "memo", help="export the approval memo PDF of an evaluation",
        description="Export the approval memo: decision, planned job and network assumptions, comparison, one page "
                    "per bid, what was not verified, methodology, and one empty signature field per approver.",
    )
    memo.add_argument("path", metavar="PATH", help="a .clusterbid document or evaluation JSON")
    memo.add_argument("-o", "--output", required=True, metavar="MEMO.pdf", help="the PDF to write")
    memo.add_argument("--approver", action="append", default=[], metavar='"Name, Role"',
                      help="an approver who will sign (repeat for each, in signing order)")
    memo.add_argument("--notes", default="", help="the officer's notes, printed under the decision")
    memo.add_argument("--override", metavar="BID_ID", help="recommend this bid instead of the model's first")
    memo.add_argument("--justification", metavar="TEXT", help="why the override (required with --override)")
    memo.add_argument("--tradeoff-rationale", metavar="TEXT",
                      help="why the recommendation is worth more than a cheaper passing bid (required when it "
                           "costs more; printed in page 1's trade-off)")
    memo.add_argument("--accept-failed-audit", metavar="REASON",
                      help="make the memo of a document that fails its audit; the reason is recorded and printed")
    memo.add_argument("--decision-date", metavar="YYYY-MM-DD",
                      help="the date of the approval meeting, printed on page 1 apart from the quote dates "
                           "(kept in the attached inputs; without it page 1 says none was given)")
    memo.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                      help="Monte Carlo samples for the P10-P90 bands, as `score` uses (0: leave them out; "
                           "default 20,000)")
    memo.set_defaults(func=run_memo)

