"""CLI verbs for the bid template: `export-template FILE` and `import-bids FILE`; cli.py wires them in."""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the verbs; each sets `func(args) -> int` (the exit code) as its default."""
    export = subparsers.add_parser(
        "export-template", help="write a blank bid template to send to providers (.xlsx or .csv)"
    )
    export.add_argument(
        "file", help="output file; .xlsx gets validation lists and an Instructions sheet"
    )
    export.set_defaults(func=export_template_command)

    check = subparsers.add_parser(
        "import-bids", help="validate a filled bid template (.xlsx, .csv or .json)"
    )
    check.add_argument("file", help="the filled template")
    check.add_argument(
        "--valid-rows-only", action="store_true", help="accept the valid rows, list the rest"
    )
    check.add_argument(
        "--json", action="store_true", help="print the report (and accepted bids) as JSON"
    )
    check.set_defaults(func=import_bids_command)


def export_template_command(args: argparse.Namespace) -> int:
    from clusterbid.core.interchange import export_template

    path = export_template(args.file)  # an InputError is worded by cli.main, as for every verb
    print(f"wrote {path}")
    return 0


def import_bids_command(args: argparse.Namespace) -> int:
    """Exit 0 when every row is valid; 2 (refused input, as everywhere) when the report lists
    problems or the file is refused."""
    from clusterbid.operations.bid_import import read_bid_sheet
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    try:
        report = read_bid_sheet(
            args.file, no_progress, NEVER_CANCELLED, valid_rows_only=args.valid_rows_only
        )
    except OSError as exc:  # an InputError is worded by cli.main, as for every verb
        print(f"clusterbid: error: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(report.as_text())
    return 0 if report.ok else 2
