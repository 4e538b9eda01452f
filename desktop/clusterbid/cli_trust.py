"""`clusterbid trust`: the approver certificates (or CA) an evaluation document trusts (wired in by cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from clusterbid.core.errors import InputError

HELP = "list, or --add, the approver certificates (or CA) a .clusterbid document trusts"


def run_trust(args: argparse.Namespace) -> int:
    from clusterbid.core.memo.trust_store import add_trusted_certificates, trusted_certificates
    from clusterbid.core.store import EvaluationDocument

    if args.document.suffix != ".clusterbid" or not args.document.is_file():
        raise InputError(f"{args.document}: give an evaluation document (.clusterbid); trust is kept in it, "
                         "audited, so every memo verified against it uses the same certificates")
    with EvaluationDocument.open(args.document) as document:
        for path in args.add or []:
            for added in add_trusted_certificates(document, path):
                print(f"added: {added.describe()}")
        listed = trusted_certificates(document)
    print(f"{args.document}: {len(listed)} trusted certificate(s)" + (":" if listed else
          "; add the approvers' certificates or their CA with --add CERT.pem"))
    for certificate in listed:
        print(f"  {certificate.describe()}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    trust = subparsers.add_parser(
        "trust", help=HELP,
        description="Certificates added here are kept in the document (an audited row each) and used by "
                    "`clusterbid verify MEMO --evaluation DOC.clusterbid` and the app's Verify without --trust.")
    trust.add_argument("document", type=Path, metavar="DOC.clusterbid")
    trust.add_argument("--add", type=Path, nargs="+", action="extend", metavar="CERT",
                       help="certificate files (PEM or DER) to trust from now on")
    trust.set_defaults(func=run_trust)
