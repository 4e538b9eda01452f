"""The headless front door: score, estimate, demo and schema over the Qt-free core."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from clusterbid import __version__
from clusterbid.core.sample_counts import DEFAULT_SAMPLES


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


def _load_evaluation(path: str):
    from clusterbid.core.documents import read_evaluation

    return read_evaluation(Path(path), warn=warn)


def _print_scorecard(evaluation, as_json: bool, samples: int = DEFAULT_SAMPLES) -> None:
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
    from clusterbid.core.documents import describe_validation_error, read_model
    from clusterbid.core.errors import InputError
    from clusterbid.core.evaluation import Evaluation
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


def _kept_schema(target: Path, expected_bytes: int) -> str | None:
    """The schema file's text, None when missing or not the size expected; read through the safe
    reader, so a FIFO or a link to a device in --dir is refused by name instead of blocking."""
    from clusterbid.core.errors import InputError
    from clusterbid.core.safe_read import read_regular

    try:
        raw = read_regular(target, expected_bytes)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"{target}: cannot be read ({exc.strerror or exc})") from None
    return raw.decode("utf-8", "replace") if len(raw) == expected_bytes else None


def _cmd_schema(args: argparse.Namespace) -> int:
    from clusterbid.core.schema import schema_texts
    from clusterbid.resources import resources_root

    folder = Path(args.dir) if args.dir else resources_root() / "schema"
    stale = []
    for name, text in schema_texts().items():
        target = folder / name
        if args.check:
            if _kept_schema(target, len(text.encode("utf-8"))) != text:
                stale.append(name)
        else:
            from clusterbid.core.safe_files import write_bytes_atomically

            folder.mkdir(parents=True, exist_ok=True)
            write_bytes_atomically(target, text.encode("utf-8"))
            print(f"wrote {target}")
    if not args.dir:  # the shipped methodology's tables of criteria and billing kinds, too
        stale += _methodology_tables(args.check)
    if stale:
        print(
            f"out of date in {folder}: {', '.join(stale)}; run: clusterbid schema", file=sys.stderr
        )
        return 1
    return 0


def _methodology_tables(check: bool) -> list[str]:
    """Rewrite (or check) the tables methodology.md lists from core's declarations
    (core/methodology_tables.py); the stale file's name, if any."""
    from clusterbid.core.methodology_tables import with_tables
    from clusterbid.core.safe_files import write_bytes_atomically
    from clusterbid.resources import resources_root

    target = resources_root() / "methodology.md"
    text = target.read_text(encoding="utf-8")
    wanted = with_tables(text)
    if wanted == text:
        return []
    if check:
        return [f"{target} (its tables)"]
    write_bytes_atomically(target, wanted.encode("utf-8"))
    print(f"wrote {target}")
    return []


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


def _demo():
    from clusterbid.core.demo import demo_evaluation

    return demo_evaluation()


# Every verb in the order `clusterbid --help` lists it: (name, module that defines its arguments,
# help). The help is written here so the list prints without importing any verb's module; a
# verb's module (and numpy, pydantic, matplotlib, pyHanko behind it) is imported only when that
# verb runs. tests/core/test_cli_verbs.py checks each help against the module's own.
VERBS: tuple[tuple[str, str, str], ...] = (
    ("app", "clusterbid.cli", "open the desktop app (the demo when no PATH is given)"),
    ("demo", "clusterbid.cli", "write the bundled demo evaluation to PATH (.clusterbid or .json)"),
    (
        "score",
        "clusterbid.cli",
        "rank the bids by cost to finish (training) or cost per million output tokens (inference)",
    ),
    ("estimate", "clusterbid.cli", "score one bid for one workload (JSON files)"),
    ("schema", "clusterbid.cli", "write (or --check) the JSON Schemas in resources/schema/"),
    (
        "export-template",
        "clusterbid.cli_interchange",
        "write a blank bid template to send to providers (.xlsx or .csv)",
    ),
    (
        "import-bids",
        "clusterbid.cli_interchange",
        "validate a filled bid template (.xlsx, .csv or .json)",
    ),
    ("new", "clusterbid.cli_store", "create an evaluation file (.clusterbid)"),
    (
        "audit",
        "clusterbid.cli_store",
        "print an evaluation's audit trail and verify its hash chain",
    ),
    ("copy", "clusterbid.cli_store", "copy a .clusterbid file safely (also right after a crash)"),
    (
        "import",
        "clusterbid.cli_store",
        "import a filled bid template (.xlsx, .csv, .json) into a .clusterbid file",
    ),
    ("export", "clusterbid.cli_store", "export the scored comparison to .xlsx or .csv"),
    (
        "evidence",
        "clusterbid.cli_evidence",
        "read benchmark evidence (nccl-tests, training throughput, scaling)",
    ),
    (
        "serving-evidence",
        "clusterbid.cli_serving_evidence",
        "read serving benchmarks (vLLM, SGLang, GenAI-Perf, LLMPerf, trtllm-bench, MLPerf)",
    ),
    ("memo", "clusterbid.cli_memo", "export the approval memo PDF of an evaluation"),
    (
        "sign",
        "clusterbid.cli_signoff",
        "sign your approver field of a memo with your PKCS#12 certificate",
    ),
    (
        "verify",
        "clusterbid.cli_signoff",
        "prove a memo's pages, signatures, approvers and figures: VALID, INDETERMINATE or INVALID",
    ),
    (
        "seal",
        "clusterbid.cli_seal",
        "seal a signed memo for the archive: validation data and a document timestamp",
    ),
    (
        "trust",
        "clusterbid.cli_trust",
        "list, or --add, the approver certificates (or CA) a .clusterbid document trusts",
    ),
    (
        "approvers",
        "clusterbid.cli_approvers",
        "list, --add, --new-key or --retire the approvers (person, role, key) a .clusterbid "
        "document registers",
    ),
    (
        "countersign",
        "clusterbid.cli_trust",
        "sign a .clusterbid document's history up to now with your own key (PKCS#12)",
    ),
    (
        "request-evidence",
        "clusterbid.cli_request",
        "write a bid's request-for-evidence pack (Markdown + JSON), or show the requests' states",
    ),
    (
        "plan",
        "clusterbid.cli_plan",
        "show, or --set, the buyer's plan inputs (cost of capital, payment terms, deadline, idle "
        "time)",
    ),
    (
        "rating",
        "clusterbid.cli_rating",
        "list, record or --remove a provider's third-party rating (e.g. ClusterMAX)",
    ),
    (
        "acceptance-plan",
        "clusterbid.cli_acceptance",
        "write a bid's acceptance plan, the contract's annex (Markdown, JSON, PDF)",
    ),
    (
        "acceptance-status",
        "clusterbid.cli_acceptance",
        "attach files returned after handover and show pass, fail or missing per test",
    ),
    (
        "panel",
        "clusterbid.cli_panel",
        "an evaluation panel, offline: invite evaluators, merge their copies, see where they "
        "disagree, agree",
    ),
)
ALL_VERBS = "*"


class _OneVerb:
    """Hands a module's `register(subparsers)` the real subparsers for one verb only; the other
    verbs the module defines are built on a throw-away parser (they stay placeholders)."""

    def __init__(self, subparsers: argparse._SubParsersAction, name: str) -> None:
        self.subparsers, self.name = subparsers, name

    def add_parser(self, name: str, **kwargs) -> argparse.ArgumentParser:
        if name == self.name:
            return self.subparsers.add_parser(name, **kwargs)
        return argparse.ArgumentParser(add_help=False)


def register(verbs) -> None:
    """The verbs this module runs itself (see VERBS)."""
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

    schema = verbs.add_parser(
        "schema", help="write (or --check) the JSON Schemas in resources/schema/"
    )
    schema.add_argument(
        "--check", action="store_true", help="exit 1 if the files differ from the models"
    )
    schema.add_argument("--dir", help="folder to write to (default: resources/schema)")
    schema.set_defaults(handler=_cmd_schema)


def build_parser(verb: str = ALL_VERBS) -> argparse.ArgumentParser:
    """The parser with every verb listed; only `verb`'s arguments (or all, by default) are built."""
    import importlib

    description = "Score GPU-cluster bids by the cost and time to finish your training job."
    parser = argparse.ArgumentParser(prog="clusterbid", description=description)
    parser.add_argument("--version", action="version", version=f"clusterbid {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    for name, module, help_text in VERBS:
        if verb in (name, ALL_VERBS):
            importlib.import_module(module).register(_OneVerb(verbs, name))
        else:
            verbs.add_parser(name, help=help_text, add_help=False)
    return parser


def chosen_verb(argv: list[str]) -> str | None:
    """The verb argparse will pick: the first argument that is not an option (the top-level
    parser has only --help and --version, neither takes a value); None when there is none."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    from clusterbid.core.errors import InputError
    from clusterbid.frozen_runtime import configure_frozen_runtime

    configure_frozen_runtime()

    argv = sys.argv[1:] if argv is None else list(argv)
    verb = chosen_verb(argv)
    parser = build_parser(verb if any(verb == name for name, _, _ in VERBS) else "app")
    args = parser.parse_args(argv)
    if args.verb is None:
        args = parser.parse_args(["app", *argv])
    handler = getattr(args, "handler", None) or args.func
    try:
        return handler(args)
    except InputError as exc:
        from clusterbid.cli_signoff import _step_words
        from clusterbid.core.memo.next_steps import render

        # a memo refusal names its step as a mark (next_steps.py): said here as our options
        # "clusterbid: error:" as argparse words its own refusals, so every refusal reads alike
        print(f"clusterbid: error: {render(str(exc), _step_words())}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug of ours: say so plainly instead of dumping a traceback
        print(
            f"internal error ({type(exc).__name__}: {exc}); please report it with the command you "
            "ran",
            file=sys.stderr,
        )
        return 70


if __name__ == "__main__":
    sys.exit(main())
