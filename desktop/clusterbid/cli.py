"""The headless front door: the table of verbs, the parser that builds only the verb run, and
`main`, which turns every refusal into one plain line. Each verb lives in a cli_*.py module."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from clusterbid import __version__

# Every verb in the order `clusterbid --help` lists it: (name, module that defines its arguments,
# help). The help is written here so the list prints without importing any verb's module; a
# verb's module (and numpy, pydantic, matplotlib, pyHanko behind it) is imported only when that
# verb runs. tests/core/test_cli_verbs.py checks each help against the module's own.
VERBS: tuple[tuple[str, str, str], ...] = (
    ("app", "clusterbid.cli_score", "open the desktop app (the demo when no PATH is given)"),
    (
        "demo",
        "clusterbid.cli_score",
        "write the bundled demo evaluation to PATH (.clusterbid or .json)",
    ),
    (
        "score",
        "clusterbid.cli_score",
        "rank the bids by cost to finish (training) or cost per million output tokens (inference)",
    ),
    ("estimate", "clusterbid.cli_score", "score one bid for one workload (JSON files)"),
    ("schema", "clusterbid.cli_schema", "write (or --check) the JSON Schemas in resources/schema/"),
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

    def __init__(
        self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str
    ) -> None:
        self.subparsers, self.name = subparsers, name

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if name == self.name:
            return self.subparsers.add_parser(name, **kwargs)
        return argparse.ArgumentParser(add_help=False)


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
    known = verb is not None and any(verb == name for name, _, _ in VERBS)
    parser = build_parser(verb if verb is not None and known else "app")
    args = parser.parse_args(argv)
    if args.verb is None:
        args = parser.parse_args(["app", *argv])
    handler = getattr(args, "handler", None) or args.func
    try:
        code: int = handler(args)
        return code
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
