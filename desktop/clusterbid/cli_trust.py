"""`clusterbid trust`: the approver certificates (or CA) an evaluation document trusts (wired in by cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from clusterbid.core.errors import InputError

HELP = "list, or --add, the approver certificates (or CA) a .clusterbid document trusts"
COUNTERSIGN_HELP = "sign a .clusterbid document's history up to now with your own key (PKCS#12)"


def run_trust(args: argparse.Namespace) -> int:
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
    from clusterbid.operations.trust import require_document, trust

    require_document(args.document)
    with EvaluationDocument.open(args.document) as document:
        result = trust(
            document,
            args.add or [],
            no_progress,
            NEVER_CANCELLED,
            on_added=lambda added: print(f"added: {added.describe()}"),
        )
    listed = result.listed
    print(
        f"{args.document}: {len(listed)} trusted certificate(s)"
        + (":" if listed else "; add the approvers' certificates or their CA with --add CERT.pem")
    )
    for certificate in listed:
        print(f"  {certificate.describe()}")
    return 0


def run_countersign(args: argparse.Namespace) -> int:
    """Sign the document's last row with the user's own key: every row up to it, by the chain."""
    from cryptography.hazmat.primitives.serialization import Encoding, pkcs12

    from clusterbid.cli_signoff import read_passphrase
    from clusterbid.core.memo.credentials import read_p12_file
    from clusterbid.core.store import EvaluationDocument

    raw = read_p12_file(args.p12)
    try:
        key, certificate, _ = pkcs12.load_key_and_certificates(
            raw, read_passphrase(args.p12).encode() or None
        )
    except ValueError:
        raise InputError(
            f"{args.p12}: wrong passphrase (or the file is damaged); nothing was countersigned"
        ) from None
    if key is None or certificate is None:
        raise InputError(f"{args.p12}: holds no {'private key' if key is None else 'certificate'}")
    with EvaluationDocument.open(args.document, user=args.user) as document:
        signed = document.head
        document.countersign(key, certificate.public_bytes(Encoding.DER))
    print(
        f"countersigned row #{signed[0]} of {args.document} (and by the hash chain every row "
        "before it) "
        f"as {certificate.subject.rfc4514_string()}; `clusterbid audit` checks it"
    )
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    trust = subparsers.add_parser(
        "trust",
        help=HELP,
        description="Certificates added here are kept in the document (an audited row each) and used by "
        "`clusterbid verify MEMO --evaluation DOC.clusterbid` and the app's Verify without "
        "--trust.",
    )
    trust.add_argument("document", type=Path, metavar="DOC.clusterbid")
    trust.add_argument(
        "--add",
        type=Path,
        nargs="+",
        action="extend",
        metavar="CERT",
        help="certificate files (PEM or DER) to trust from now on",
    )
    trust.set_defaults(func=run_trust)

    countersign = subparsers.add_parser(
        "countersign",
        help=COUNTERSIGN_HELP,
        description="Adds an audited row holding your signature over the trail's last row; a later rewrite "
        "of any row up to it then fails `clusterbid audit`. Passphrase as for `sign`.",
    )
    countersign.add_argument("document", type=Path, metavar="DOC.clusterbid")
    countersign.add_argument(
        "--p12", type=Path, required=True, metavar="FILE", help="your certificate and key"
    )
    countersign.add_argument("--user", default=None, help="name recorded in the audit trail")
    countersign.set_defaults(func=run_countersign)
