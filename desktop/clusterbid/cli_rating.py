"""`clusterbid rating PATH`: list the providers' third-party ratings, or record one (--provider,
--tier, --rated-on, --source, --category) or --remove it. The change is
operations/provider_ratings.py's, the app's Provider Ratings dialog's too: every field checked,
one audited edit, or nothing changed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from clusterbid.core.errors import InputError

EXIT_OK, EXIT_INPUT = 0, 2


def _listing(evaluation: object) -> str:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.provider_rating import ratings_by_provider
    from clusterbid.operations.provider_ratings import providers

    assert isinstance(evaluation, Evaluation)
    rated = ratings_by_provider(evaluation.provider_ratings)
    return "\n".join(
        f"  {name}: {rated[name].words() if name in rated else 'not rated'}"
        for name in providers(evaluation)
    )


def run_rating(args: argparse.Namespace) -> int:
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.operations.provider_ratings import (
        remove_provider_rating,
        set_provider_rating,
    )

    try:
        if args.provider is None:
            if args.remove or args.tier or args.source or args.rated_on or args.category:
                raise InputError("--provider: say which provider's rating to change")
            with EvaluationDocument.open(args.path, read_only=True) as document:
                print(f"Provider ratings in {args.path}:\n{_listing(document.evaluation)}")
            return EXIT_OK
        with EvaluationDocument.open(args.path, user=args.user) as document:
            if args.remove:
                edit = remove_provider_rating(document, args.provider)
            else:
                texts = {
                    "provider": args.provider,
                    "tier": args.tier or "",
                    "rated_on": args.rated_on or "",
                    "source": args.source or "",
                    "categories": "; ".join(args.category or []),
                }
                edit = set_provider_rating(document, texts)
            listing = _listing(document.evaluation)
    except InputError as exc:
        print(f"clusterbid: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if not edit.label:
        print(f"Nothing changed in {args.path}: this rating is already recorded.")
    else:
        print(f"{edit.label} in {args.path} (one audited edit):\n{listing}")
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rating = subparsers.add_parser(
        "rating",
        help="list, record or --remove a provider's third-party rating (e.g. ClusterMAX)",
        description="A dated third-party rating of a provider (tier and grades by category), "
        "kept apart from its bids' claims; it counts in the score only through the provider "
        "rating criterion's weight (default 0). Every field is checked before anything is "
        "written; the change is one audited edit.",
    )
    rating.add_argument("path", type=Path, metavar="PATH", help="the .clusterbid document")
    rating.add_argument("--provider", metavar="NAME", help="the provider, as its bids name it")
    rating.add_argument(
        "--tier", metavar="TIER", help="platinum, gold, silver, bronze or underperform"
    )
    rating.add_argument("--rated-on", metavar="YYYY-MM-DD", help="the day it was published")
    rating.add_argument("--source", metavar="TEXT", help="who rated, and where")
    rating.add_argument(
        "--category",
        action="append",
        metavar="NAME=GRADE",
        help="a grade by category, as the rating states it (repeat it)",
    )
    rating.add_argument("--remove", action="store_true", help="remove the provider's rating")
    rating.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    rating.set_defaults(func=run_rating)
