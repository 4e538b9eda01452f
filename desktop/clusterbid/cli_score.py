"""The verbs that rank bids and show the result: `score`, `estimate`, `demo` and `app` (the window,
or the ranking where no display exists). Heavy modules are imported inside each handler, so
`clusterbid --help` and every other verb start without numpy, pydantic or Qt."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.sample_counts import DEFAULT_SAMPLES

if TYPE_CHECKING:  # the model is imported by the handlers that run, not at start-up
    from clusterbid.core.evaluation import Evaluation


def _cmd_demo(args: argparse.Namespace) -> int:
    from clusterbid.core.demo import demo_evaluation

    path = Path(args.path)
    if path.exists() and not args.force:
        print(f"{path} already exists; pass --force to overwrite it", file=sys.stderr)
        return 2
    from clusterbid.core.safe_files import replace_atomically, write_bytes_atomically

    if path.suffix == ".clusterbid":
        from clusterbid.core.comparison_table import KeptTableDocument

        # Built beside the old file and renamed over it: with --force on a full disk the existing
        # evaluation stays, instead of being deleted before the new one could be written.
        replace_atomically(
            path, lambda temp: KeptTableDocument.create(temp, demo_evaluation()).close()
        )
    else:
        write_bytes_atomically(
            path, (demo_evaluation().model_dump_json(indent=2) + "\n").encode("utf-8")
        )
    print(f"wrote the demo evaluation to {path}; score it with: clusterbid score {path}")
    return 0


def warn(text: str) -> None:
    print(f"clusterbid: {text}", file=sys.stderr)


def _load_evaluation(path: str) -> Evaluation:
    from clusterbid.core.documents import read_evaluation

    evaluation: Evaluation = read_evaluation(Path(path), warn=warn)
    return evaluation


def _print_scorecard(evaluation: Evaluation, as_json: bool, samples: int = DEFAULT_SAMPLES) -> None:
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
    from clusterbid.operations.scoring import score

    result = score(evaluation, no_progress, NEVER_CANCELLED, samples)
    print(
        json.dumps(result.as_json(), indent=2, ensure_ascii=False) if as_json else result.as_table()
    )


def _cmd_score(args: argparse.Namespace) -> int:
    from clusterbid.core.errors import InputError

    if args.samples < 1:
        raise InputError(
            f"--samples must be at least 1 (got {args.samples}); the default is {DEFAULT_SAMPLES:,}"
        )
    _print_scorecard(_load_evaluation(args.path), args.json, args.samples)
    return 0


def _cmd_estimate(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from clusterbid.core.bid import Bid
    from clusterbid.core.errors import InputError
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.model_parsing import describe_validation_error, read_model
    from clusterbid.core.workloads import read_workload

    workload = read_workload(Path(args.workload))
    bid = read_model(Bid, Path(args.bid))
    title = f"{bid.quote.provider} for {workload.name}"
    try:
        evaluation = Evaluation(
            title=title[:200], currency=bid.terms.currency, workload=workload, bids=(bid,)
        )
    except ValidationError as exc:
        raise InputError(
            describe_validation_error(exc, f"{args.workload} with {args.bid}")
        ) from None
    _print_scorecard(evaluation, args.json)
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    """The desktop app where a display exists; otherwise the headless ranking of the demo."""
    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if headless and os.environ.get("QT_QPA_PLATFORM") not in ("offscreen", "minimal"):
        print("No display found: showing the ranking instead of the window.\n")
        _print_scorecard(_demo() if args.path is None else _load_evaluation(args.path), False)
        return 0
    from clusterbid.display_check import install_hint, missing_x11_libraries

    missing = missing_x11_libraries()
    if missing:
        # Qt aborts the process without these; say what to install and still show the ranking.
        print(
            f"The window needs system libraries that are missing: {', '.join(missing)}.\n"
            f"{install_hint(missing)}\nMeanwhile, the ranking:\n",
            file=sys.stderr,
        )
        _print_scorecard(_load_evaluation(args.path) if args.path else _demo(), False)
        return 1
    from clusterbid.gui.app import run_app

    return run_app(args.path)


def _demo() -> Evaluation:
    from clusterbid.core.demo import demo_evaluation

    return demo_evaluation()


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The verbs of this module (see cli.VERBS)."""
    app = verbs.add_parser("app", help="open the desktop app (the demo when no PATH is given)")
    app.add_argument("path", nargs="?", help="an evaluation file")
    app.set_defaults(handler=_cmd_app)

    demo = verbs.add_parser(
        "demo", help="write the bundled demo evaluation to PATH (.clusterbid or .json)"
    )
    demo.add_argument("path")
    demo.add_argument("--force", action="store_true", help="overwrite an existing file")
    demo.set_defaults(handler=_cmd_demo)

    score = verbs.add_parser(
        "score",
        help=(
            "rank the bids by cost to finish (training) or cost per million output tokens "
            "(inference)"
        ),
    )
    score.add_argument("path")
    score.add_argument("--json", action="store_true", help="print JSON instead of a table")
    score.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=(
            "Monte Carlo samples for the P10-P90 bands and win probabilities (default "
            f"{DEFAULT_SAMPLES:,})"
        ),
    )
    score.set_defaults(handler=_cmd_score)

    estimate = verbs.add_parser("estimate", help="score one bid for one workload (JSON files)")
    estimate.add_argument("--workload", required=True, help="workload JSON")
    estimate.add_argument("--bid", required=True, help="bid JSON")
    estimate.add_argument("--json", action="store_true")
    estimate.set_defaults(handler=_cmd_estimate)
