"""CLI verbs over the document store: `new PATH` and `audit PATH` (wired in by cli.py via register)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from clusterbid.core.comparison_table import KeptTableDocument
from clusterbid.core.documents import read_model
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument, format_audit, verify_audit_chain

# Exit codes: 0 done, 1 the audit chain is broken, 2 the input was refused (message on stderr).
EXIT_OK, EXIT_BROKEN, EXIT_INPUT = 0, 1, 2


def _fail(message: str) -> int:
    print(f"clusterbid: error: {message}", file=sys.stderr)
    return EXIT_INPUT


def _load_evaluation(source: Path | None) -> Evaluation:
    if source is None:
        from clusterbid.core.demo import demo_evaluation

        return demo_evaluation()
    return read_model(Evaluation, source)


def run_new(args: argparse.Namespace) -> int:
    """Create an evaluation file from the bundled demo or from an evaluation JSON."""
    try:
        evaluation = _load_evaluation(args.from_file)
        with KeptTableDocument.create(args.path, evaluation, user=args.user) as document:
            bids = len(document.evaluation.bids)
    except InputError as exc:
        return _fail(str(exc))
    print(
        f"Created {args.path} ({evaluation.title!r}, {bids} bids). Every edit is saved as it is "
        "made."
    )
    return EXIT_OK


def run_audit(args: argparse.Namespace) -> int:
    """Print the audit trail and verify its hash chain; exit 1 when the chain is broken (or, with
    --against, when the trail is not what the anchor log outside the document holds)."""
    if args.against == "":
        from clusterbid.core.store.anchor_log import default_log_path

        args.against = str(default_log_path())
    try:
        report = verify_audit_chain(args.path)
        problems: list[str] = []
        if args.against is not None:
            from clusterbid.core.store.anchor_check_log import check_against_log, read_anchor_log

            log = Path(args.against)
            problems, facts = check_against_log(
                report.rows, read_anchor_log(log), log.name, args.path.name
            )
    except InputError as exc:
        return _fail(str(exc))
    print(format_audit(report))
    if args.against is not None:
        print(f"\nAgainst the anchor log {args.against}:")
        print("\n".join(f"  {line}" for line in facts))
        print(
            "\n".join(f"  NOT AS LOGGED: {line}" for line in problems)
            or "  every logged row is in the trail as logged"
        )
    return EXIT_OK if report.ok and not problems else EXIT_BROKEN


def run_copy(args: argparse.Namespace) -> int:
    """A consistent copy through SQLite's backup API: safe right after a crash, unlike a file copy,
    which can miss the recovery journal that completes the file."""
    try:
        with EvaluationDocument.open(args.path) as document:
            copy = document.save_copy(args.dest)
    except InputError as exc:
        return _fail(str(exc))
    print(f"copied {args.path} to {copy}")
    return EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    """Import a filled bid template into a document: every bid or none (or only the valid rows)."""
    from clusterbid.operations.bid_import import import_into_document, read_bid_sheet
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    try:
        report = read_bid_sheet(
            args.file, no_progress, NEVER_CANCELLED, valid_rows_only=args.valid_rows_only
        )
        if report.problems and not args.valid_rows_only:
            print(report.as_text())
            print(
                f"Nothing was imported into {args.path}: fix the rows above, or pass "
                "--valid-rows-only.",
                file=sys.stderr,
            )
            return EXIT_INPUT
        with KeptTableDocument.open(args.path, user=args.user) as document:
            # One import is one user action: one transaction and one audit row for the whole sheet.
            imported = import_into_document(document, report)
    except InputError as exc:
        return _fail(f"nothing was imported into {args.path}: {exc}")
    print(
        report.as_text()
    )  # what was read, printed once it is saved: never success before a failure
    print(f"Imported {imported.added} bid(s) into {args.path}; it now holds {imported.total}.")
    return EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    """Export the scored comparison of a document (or evaluation JSON) to XLSX or CSV."""
    from clusterbid.core.documents import read_evaluation
    from clusterbid.operations.comparison import export_comparison, score_for_comparison
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    try:
        evaluation = read_evaluation(
            args.path, warn=lambda text: print(f"clusterbid: {text}", file=sys.stderr)
        )
        exported = export_comparison(
            score_for_comparison(evaluation), args.file, no_progress, NEVER_CANCELLED
        )
    except InputError as exc:
        return _fail(str(exc))
    print(f"wrote the comparison of {exported.bids} bid(s) to {exported.path}")
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `new` and `audit`; each sets `func(args) -> int exit code` as its default."""
    _add_new(subparsers)
    _add_audit(subparsers)

    copy = subparsers.add_parser(
        "copy",
        help="copy a .clusterbid file safely (also right after a crash)",
        description="Copy an evaluation with SQLite's backup API: a consistent, whole copy "
        "even when the file has an unfinished change from a crash.",
    )
    copy.add_argument("path", type=Path, metavar="PATH", help="the .clusterbid document")
    copy.add_argument("dest", type=Path, metavar="COPY", help="the copy; must end in .clusterbid")
    copy.set_defaults(func=run_copy)

    into = subparsers.add_parser(
        "import", help="import a filled bid template (.xlsx, .csv, .json) into a .clusterbid file"
    )
    into.add_argument("path", type=Path, metavar="PATH", help="the .clusterbid document")
    into.add_argument("file", metavar="FILE", help="the filled template")
    into.add_argument(
        "--valid-rows-only", action="store_true", help="import the valid rows and list the rest"
    )
    into.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    into.set_defaults(func=run_import)

    export = subparsers.add_parser("export", help="export the scored comparison to .xlsx or .csv")
    export.add_argument(
        "path", type=Path, metavar="PATH", help="a .clusterbid document or evaluation JSON"
    )
    export.add_argument("file", metavar="FILE", help="the spreadsheet to write (.xlsx or .csv)")
    export.set_defaults(func=run_export)


def _add_audit(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`audit`: print the trail and hold it against an outside anchor log."""
    audit = subparsers.add_parser(
        "audit",
        help="print an evaluation's audit trail and verify its hash chain",
        description="Print the audit trail; exit 1 if the hash chain is broken.",
    )
    audit.add_argument("path", type=Path, metavar="PATH", help="a .clusterbid file")
    audit.add_argument(
        "--against",
        nargs="?",
        const="",
        default=None,
        metavar="LOG",
        help="also hold the trail against an anchor log kept outside the document (default: "
        "your own, where memos, signatures and decisions you record are logged); put it "
        "after PATH when you give no LOG",
    )
    audit.set_defaults(func=run_audit)


def _add_new(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`new`: a fresh evaluation file, from the demo or a JSON the officer gives."""
    new = subparsers.add_parser(
        "new",
        help="create an evaluation file (.clusterbid)",
        description="Create an evaluation file from the bundled demo or an evaluation JSON.",
    )
    new.add_argument(
        "path", type=Path, metavar="PATH", help="the new file; must end in .clusterbid"
    )
    new.add_argument(
        "--from",
        dest="from_file",
        type=Path,
        metavar="FILE",
        help="evaluation JSON to start from (default: the bundled demo)",
    )
    new.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    new.set_defaults(func=run_new)
