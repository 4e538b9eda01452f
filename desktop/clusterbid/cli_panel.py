"""`clusterbid panel`: an evaluation panel, offline: invite, judge (in an evaluator's copy),
merge, status and consensus (wired in by cli.py; the work is operations/panel.py's)."""

from __future__ import annotations

import argparse
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

HELP = (
    "an evaluation panel, offline: invite evaluators, merge their copies, see where they disagree, "
    "agree"
)


def run_invite(args: argparse.Namespace) -> int:
    from clusterbid.operations.panel import invite

    written = invite(
        args.document,
        args.evaluator,
        Path(args.output),
        args.criterion,
        args.weight_range,
        user=args.user,
    )
    copies = "copy" if len(written) == 1 else "copies"
    print(f"Wrote {len(written)} evaluator {copies} to {args.output}; hand each to its evaluator:")
    for path in written:
        print(f"  {path.name}")
    print(f"Bring them back with: clusterbid panel merge {args.document.name} COPY...")
    return 0


def run_judge(args: argparse.Namespace) -> int:
    from clusterbid.operations.panel import judge

    if not (args.weight or args.score or args.note or args.question):
        raise InputError("give at least one --weight, --score, --note or --question")
    judge(args.copy, args.weight, args.score, args.note, args.question)
    print(f"Recorded your judgement in {args.copy.name}; return the file to the panel lead")
    return 0


def run_merge(args: argparse.Namespace) -> int:
    from clusterbid.operations.panel import merge

    done, refused = merge(args.document, args.copies, user=args.user)
    for merged in done:
        said = "merged" if merged.recorded else "already merged (nothing written)"
        print(f"{merged.copy.name}: {merged.evaluator}'s judgement {said}")
    if refused:
        raise InputError("\n".join(refused))
    return 0


def run_status(args: argparse.Namespace) -> int:
    from clusterbid.operations.panel import status

    print(status(args.document, args.samples).text(), end="")
    return 0


def run_consensus(args: argparse.Namespace) -> int:
    from clusterbid.operations.panel import consensus

    if (args.value is None) == (not args.median):
        raise InputError(
            "give the agreed value with --value, or --median to accept the evaluators' median"
        )
    agreed = consensus(
        args.document,
        args.criterion,
        args.bid,
        args.value,
        args.rationale,
        args.dissent,
        args.samples,
        user=args.user,
    )
    print(
        f"Recorded the agreed value {agreed['value']:g} with its rationale"
        + (f" and {len(agreed['dissent'])} dissent" if agreed["dissent"] else "")
    )
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    panel = subparsers.add_parser("panel", help=HELP)
    verbs = panel.add_subparsers(dest="panel_verb", metavar="ACTION", required=True)
    user_help = "name recorded in the audit trail (default: your login name)"
    _add_invite(verbs, user_help)
    _add_judge(verbs)

    merge = verbs.add_parser("merge", help="bring evaluator copies back into the lead document")
    merge.add_argument("document", type=Path, metavar="DOC")
    merge.add_argument("copies", type=Path, nargs="+", metavar="COPY")
    merge.add_argument("--user", default=None, help=user_help)
    merge.set_defaults(func=run_merge)

    status = verbs.add_parser(
        "status",
        help="each evaluator's weights and scores, the spread, who wins under "
        "whose weights, Kendall's W, the questions",
    )
    status.add_argument("document", type=Path, metavar="DOC")
    status.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"Monte Carlo samples behind the cost criterion (default {DEFAULT_SAMPLES:,})",
    )
    status.set_defaults(func=run_status)

    agree = verbs.add_parser(
        "consensus", help="record the agreed value of a disputed item, with dissent"
    )
    agree.add_argument("document", type=Path, metavar="DOC")
    agree.add_argument("--criterion", required=True, metavar="NAME")
    agree.add_argument(
        "--bid", default=None, metavar="BID", help="the bid, for a score (omit for a weight)"
    )
    agree.add_argument(
        "--value", default=None, help="the agreed weight (%% of the total) or score (0-10)"
    )
    agree.add_argument("--median", action="store_true", help="accept the evaluators' median")
    agree.add_argument("--rationale", required=True)
    agree.add_argument("--dissent", action="append", default=[], metavar='"NAME: REASON"')
    agree.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N")
    agree.add_argument("--user", default=None, help=user_help)
    agree.set_defaults(func=run_consensus)


def _add_invite(verbs: argparse._SubParsersAction[argparse.ArgumentParser], user_help: str) -> None:
    """`panel invite`: who evaluates, and which criteria and weight ranges they may use."""
    invite = verbs.add_parser(
        "invite", help="write one evaluator copy per person, with bids, workload and policy locked"
    )
    invite.add_argument("document", type=Path, metavar="DOC", help="the lead .clusterbid document")
    invite.add_argument(
        "--evaluator",
        action="append",
        required=True,
        metavar='"NAME, ROLE"',
        help="one evaluator (repeat for each)",
    )
    invite.add_argument(
        "-o", "--output", required=True, metavar="DIR", help="folder the copies are written to"
    )
    invite.add_argument(
        "--criterion",
        action="append",
        default=[],
        metavar="NAME",
        help="a qualitative criterion the panel scores 0-10 per bid (repeat for each)",
    )
    invite.add_argument(
        "--weight-range",
        action="append",
        default=[],
        metavar='"CRITERION=LOW-HIGH"',
        help="the range an evaluator's weight for a criterion may take (default 0-100)",
    )
    invite.add_argument("--user", default=None, help=user_help)
    invite.set_defaults(func=run_invite)


def _add_judge(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`panel judge`: what one evaluator records in their own copy."""
    judge = verbs.add_parser("judge", help="record your judgement in your evaluator copy")
    judge.add_argument("copy", type=Path, metavar="COPY", help="your evaluator copy (.clusterbid)")
    judge.add_argument("--weight", action="append", default=[], metavar='"CRITERION=WEIGHT"')
    judge.add_argument(
        "--score",
        action="append",
        default=[],
        metavar='"CRITERION:BID=SCORE"',
        help="a panel criterion's score of one bid, 0-10",
    )
    judge.add_argument("--note", action="append", default=[], metavar='"BID: TEXT"')
    judge.add_argument("--question", action="append", default=[], metavar='"BID: TEXT"')
    judge.set_defaults(func=run_judge)
