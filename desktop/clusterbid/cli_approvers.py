"""`clusterbid approvers`: the approver registry a .clusterbid document keeps (wired in by
cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from clusterbid.core.errors import InputError

HELP = (
    "list, --add, --new-key or --retire the approvers (person, role, key) a .clusterbid document "
    "registers"
)


def run_approvers(args: argparse.Namespace) -> int:
    from clusterbid.core.memo import approver_registry
    from clusterbid.core.store import EvaluationDocument

    # Only the suffix here: the document's open names a missing file, a FIFO or a device as such.
    if args.document.suffix != ".clusterbid":
        raise InputError(
            f"{args.document}: give an evaluation document (.clusterbid); the registry is kept in "
            "it, every change an audited row"
        )
    if (args.add or args.new_key) and args.cert is None:
        raise InputError(
            "--cert CERT.pem is needed: the registry ties each approver to the key they sign with"
        )
    with EvaluationDocument.open(args.document) as document:
        if args.add:
            entry = approver_registry.add_approver(
                document, args.add, args.cert, email=args.email or "", valid_from=args.valid_from
            )
            print(f"registered (row #{entry.added.seq}): {entry.describe()}")
        if args.new_key:
            entry = approver_registry.change_key(document, args.new_key, args.cert)
            print(f"new key (row #{entry.keys_set.seq}): {entry.describe()}")
        if args.retire:
            entry = approver_registry.retire(document, args.retire, args.on)
            print(
                f"retired (row #{entry.retired.seq if entry.retired else '?'}): {entry.describe()}"
            )
        lines = approver_registry.registry_lines(document)
    print(
        f"{args.document}: {len(lines)} approver(s) registered"
        + (":" if lines else '; add each with --add "Name, Role" --email E --cert CERT.pem')
    )
    for line in lines:
        print(f"  {line}")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    approvers = subparsers.add_parser(
        "approvers",
        help=HELP,
        description="Who may approve a memo made from this document: each approver's name, role, "
        "e-mail, the keys they sign with and the date from which they count. Each change is an "
        "audited row; `clusterbid verify MEMO --evaluation DOC.clusterbid` holds every approver "
        "field to the registry as it stood at the row the memo was made at.",
    )
    approvers.add_argument("document", type=Path, metavar="DOC.clusterbid")
    approvers.add_argument(
        "--list", action="store_true", help="list the registry (also done after any change)"
    )
    approvers.add_argument(
        "--add", metavar='"Name, Role"', help="register an approver for a role (needs --cert)"
    )
    approvers.add_argument(
        "--email", metavar="E", help="the approver's e-mail (verify holds the certificate to it)"
    )
    approvers.add_argument(
        "--cert",
        type=Path,
        metavar="CERT.pem",
        help="the approver's certificate (PEM or DER); kept as a trust anchor, its key pinned",
    )
    approvers.add_argument(
        "--from",
        dest="valid_from",
        metavar="YYYY-MM-DD",
        help="the date from which the approver counts (default: today)",
    )
    approvers.add_argument(
        "--new-key", metavar='"Name, Role"', help="replace an approver's key with --cert's"
    )
    approvers.add_argument(
        "--retire",
        metavar='"Name, Role"',
        help="end an approver's entry (from --on, default today)",
    )
    approvers.add_argument("--on", metavar="YYYY-MM-DD", help="the date a retirement takes effect")
    approvers.set_defaults(func=run_approvers)
