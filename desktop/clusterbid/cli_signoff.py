"""CLI verbs for the memo sign-off: `sign` an approver field and `verify` a memo (wired in by cli.py)."""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError

if TYPE_CHECKING:
    from clusterbid.core.memo.credentials import SigningCredentials
    from clusterbid.core.memo.next_steps import Step
    from clusterbid.core.memo.verification import MemoVerification

PASSPHRASE_ENV = "CLUSTERBID_P12_PASSPHRASE"
# verify: 0 VALID, 1 INVALID, 3 INDETERMINATE (2 is bad input and 70 an internal error, in cli.main)
EXIT_OK, EXIT_FAILED, EXIT_INDETERMINATE = 0, 1, 3
EXIT_FOR_VERDICT = {"VALID": EXIT_OK, "INVALID": EXIT_FAILED, "INDETERMINATE": EXIT_INDETERMINATE}


def _quiet_pyhanko() -> None:
    from clusterbid.core.memo.signoff import quiet_pyhanko_logs

    quiet_pyhanko_logs()


def read_passphrase(p12: Path) -> str:
    """From the environment variable, else a prompt that does not echo; never from an argument."""
    if PASSPHRASE_ENV in os.environ:
        return os.environ[PASSPHRASE_ENV]
    if not sys.stdin.isatty():
        raise InputError(
            f"no passphrase for {p12}: set {PASSPHRASE_ENV} or run the command in a terminal to be "
            "asked"
        )
    return getpass.getpass(f"Passphrase for {p12.name}: ")


def run_sign(args: argparse.Namespace) -> int:
    from clusterbid.core.memo.credentials import load_credentials, read_p12_file
    from clusterbid.core.memo.signing import approver_field
    from clusterbid.operations import signing
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress

    _quiet_pyhanko()
    approver_field(args.field)
    memo = signing.read_memo_to_sign(args.memo, None)
    document = None
    if args.evaluation is not None:  # opened first: a bad document signs nothing
        document = signing.open_document_for_signature(args.evaluation)
    try:
        if document is not None:
            memo = signing.with_record_rule(memo, args.evaluation)
            signing.refuse_foreign_record(memo, args.evaluation)

        def credentials() -> SigningCredentials:
            p12 = read_p12_file(args.p12)  # a file that is no PKCS#12 is refused before the prompt
            return load_credentials(args.p12, read_passphrase(args.p12), raw=p12)

        signed = signing.sign_memo_file(
            memo,
            args.field,
            credentials,
            no_progress,
            NEVER_CANCELLED,
            remark=args.remark,
            location=args.location,
            output=args.output,
            source=str(args.memo),
            tsa=args.tsa,
        )
        print(
            f"{signed.signer} signed {signed.field} at {signed.signing_time:%Y-%m-%d %H:%M:%S %Z} "
            f"(this computer's clock); wrote {signed.path}"
        )
        if document is not None:
            problems = signing.write_signature_row(document, signed)
            print(f"recorded the signature in the audit trail of {args.evaluation}")
            for problem in problems:
                print(f"clusterbid: note: {problem}", file=sys.stderr)
    finally:
        if document is not None:
            document.close()
    return EXIT_OK


def _step_words() -> dict[Step, str]:
    """Each step a memo finding or refusal calls for (core/memo/next_steps.py) as this door says
    it: the option or command that takes it. The app words the same steps as its own menu items,
    buttons and fields (gui/memo/step_words.py)."""
    from clusterbid.core.memo.next_steps import Step
    from clusterbid.operations.sealing import TSA_ENV

    return {
        Step.TRUST_GIVEN: "--trust {subject}",
        Step.KEEP_CERTIFICATES: "keep the organisation's CA or the approvers' certificates in the "
        "document: `clusterbid trust DOC.clusterbid --add CERT.pem`, then "
        "verify with --evaluation DOC.clusterbid; or give --trust",
        Step.REGISTER_APPROVERS: "register approvers before a memo is made: `clusterbid approvers "
        "{subject} --add`",
        Step.ANY_ORDER: "give --any-order if the order does not matter",
        Step.TSA_GIVEN: "--tsa {subject}",
        Step.GIVE_TSA: f"give --tsa URL (your organisation's RFC 3161 service) or set {TSA_ENV}",
        Step.GIVE_CA: "give the CA certificate with --trust",
        Step.SIGN_WITHOUT_TSA: "sign without --tsa and seal the memo later",
    }


def _as_json(result: MemoVerification) -> dict[str, Any]:
    from clusterbid.core.memo.signoff import verdict_headline

    data = dataclasses.asdict(result)
    for sig in data["signatures"]:
        sig["signing_time"] = sig["signing_time"].isoformat() if sig["signing_time"] else None
    for report in data["long_term"]:
        for key in ("proven_at", "validated_at"):
            report[key] = report[key].isoformat() if report[key] else None
    return {
        "verdict": result.verdict,
        "verdict_words": verdict_headline(result),
        "ok": result.ok,
        **data,
    }


def run_verify(args: argparse.Namespace) -> int:
    from clusterbid.core.memo.next_steps import render
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
    from clusterbid.operations.verifying import verify_memo_file

    at = None
    if args.at is not None:  # a bad date is refused before the memo is read
        from clusterbid.core.memo.validation_date import parse_validation_date

        at = parse_validation_date(args.at)
    words = _step_words()
    try:
        verified = verify_memo_file(
            args.memo,
            no_progress,
            NEVER_CANCELLED,
            trust=args.trust or [],
            evaluation_path=args.evaluation,
            registry=args.registry,
            ordered=not args.any_order,
            at=at,
        ).in_words(words)
    except InputError as exc:  # a --trust file that cannot be read names the option
        raise InputError(render(str(exc), words)) from None
    if args.json:
        print(json.dumps(_as_json(verified.result), indent=2, ensure_ascii=False))
    else:
        print(verified.report(str(args.memo), args.evaluation, explain=args.explain))
    return EXIT_FOR_VERDICT[verified.verdict]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `sign` and `verify`; each sets `func(args) -> exit code` (InputError -> 2 in cli.main)."""
    _add_sign(subparsers)
    _add_verify(subparsers)


def _add_sign(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`sign`: which memo field, with which certificate, written where."""
    sign = subparsers.add_parser(
        "sign",
        help="sign your approver field of a memo with your PKCS#12 certificate",
        description=(
            f"Sign approver field N of MEMO. The passphrase comes from ${PASSPHRASE_ENV} or a "
            "prompt."
        ),
    )
    sign.add_argument("memo", type=Path, metavar="MEMO.pdf")
    sign.add_argument(
        "--field",
        type=int,
        required=True,
        metavar="N",
        help="your number among the approvers (1 = first)",
    )
    sign.add_argument(
        "--p12",
        type=Path,
        required=True,
        metavar="FILE",
        help="your certificate and key (.p12/.pfx)",
    )
    sign.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="OUT",
        help="write the signed memo here (default: MEMO in place)",
    )
    _add_what_the_signature_records(sign)
    sign.set_defaults(func=run_sign)


def _add_what_the_signature_records(sign: argparse.ArgumentParser) -> None:
    """The options whose words or timestamp end up inside the signature or the audit trail."""
    sign.add_argument(
        "--remark",
        "--reason",
        dest="remark",
        default="",
        help="your remark, recorded in the signature's reason after what it approves (which is "
        "written there from the memo: amount, provider, bid, memo and inputs SHA-256)",
    )
    sign.add_argument(
        "--location", default=None, help="where you signed (recorded in the signature)"
    )
    sign.add_argument(
        "--evaluation",
        type=Path,
        metavar="DOC.clusterbid",
        help="record the signature in its audit trail",
    )
    sign.add_argument(
        "--tsa",
        metavar="URL",
        help="an RFC 3161 timestamp authority: the signature then carries a timestamp "
        "(PAdES B-T); without it, seal the memo later (clusterbid seal)",
    )


def _add_verify(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`verify`: the memo, what to trust and match it against, and how to report."""
    verify = subparsers.add_parser(
        "verify",
        help=(
            "prove a memo's pages, signatures, approvers and figures: VALID, INDETERMINATE or "
            "INVALID"
        ),
        description="Exit status: 0 VALID (every check holds), 1 INVALID (something is proven "
        "wrong), 3 INDETERMINATE (nothing wrong found, but something could not be "
        "proven here: no trusted certificate, a field not yet signed, a page that "
        "cannot be compared), 2 bad input.",
    )
    verify.add_argument("memo", type=Path, metavar="MEMO.pdf")
    _add_what_to_hold_against(verify)
    verify.add_argument(
        "--json", action="store_true", help="print the report as JSON (with the verdict)"
    )
    verify.add_argument(
        "--explain",
        action="store_true",
        help="also list every revision of the file: its bytes, what it added, "
        "which check covers it",
    )
    verify.add_argument(
        "--any-order",
        action="store_true",
        help="accept the approvers signing in any order (default: the order the memo lists them)",
    )
    verify.add_argument(
        "--at",
        metavar="DATE",
        help="validate the signatures as at DATE, past or future (YYYY-MM-DD, the end "
        "of that day UTC, or an ISO time with offset), from the validation data "
        "the file holds, with no network; the result joins the verdict",
    )
    from clusterbid.cli_memo import on_two_cores

    verify.set_defaults(func=on_two_cores(run_verify))  # charts drawn again may use two cores


def _add_what_to_hold_against(verify: argparse.ArgumentParser) -> None:
    """The certificates, evaluation and approver registry a memo is proven against."""
    verify.add_argument(
        "--trust",
        type=Path,
        nargs="+",
        action="extend",
        metavar="CERT",
        help="CA certificates (PEM/DER) to trust, besides those the --evaluation document keeps",
    )
    verify.add_argument(
        "--evaluation",
        type=Path,
        metavar="PATH",
        help="a .clusterbid or JSON evaluation the memo must match",
    )
    verify.add_argument(
        "--registry",
        type=Path,
        metavar="FILE",
        help="the organisation's approver registry (JSON; its format: Help > Documentation, 'Using ClusterBid'): each "
        "field must be signed by the approver it names for that role, with a key it lists",
    )
