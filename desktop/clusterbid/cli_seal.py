"""CLI verb `seal`: validation data and a document timestamp for a signed memo (wired in by cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path


def run_seal(args: argparse.Namespace) -> int:
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
    from clusterbid.operations.sealing import seal_memo_file

    sealed = seal_memo_file(
        args.memo,
        args.tsa,
        no_progress,
        NEVER_CANCELLED,
        trust=args.trust or [],
        output=args.output,
    )
    print(sealed.words())
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `seal`; it sets `func(args) -> exit code` (InputError -> 2 in cli.main)."""
    seal = subparsers.add_parser(
        "seal",
        help="seal a signed memo for the archive: validation data and a document timestamp",
        description="Append to MEMO the certificates, OCSP responses and CRLs its signatures need "
        "(fetched from the addresses the certificates name) and an RFC 3161 document "
        "timestamp over the whole file (PAdES B-LTA). Signed bytes are never changed. "
        "Needs a network; offline it says what is missing and writes nothing. Seal "
        "again before the timestamp authority's certificate expires.",
    )
    seal.add_argument("memo", type=Path, metavar="MEMO.pdf")
    seal.add_argument(
        "--tsa", metavar="URL", help="the RFC 3161 timestamp authority (default: $CLUSTERBID_TSA)"
    )
    seal.add_argument(
        "--trust",
        type=Path,
        nargs="+",
        action="extend",
        metavar="CERT",
        help="CA certificates (PEM/DER) to build the signers' and the timestamp "
        "authority's certificate chains from, besides the roots they carry",
    )
    seal.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="OUT",
        help="write the sealed memo here (default: MEMO in place)",
    )
    seal.set_defaults(func=run_seal)
