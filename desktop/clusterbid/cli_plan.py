"""`clusterbid plan PATH [--set NAME=VALUE ...]`: show or change the buyer's plan inputs of a
.clusterbid document (issue 31). The change is operations/plan_inputs.py's, the app's Plan Inputs
dialog's too: every field validated, one audited edit, or nothing changed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation

EXIT_OK, EXIT_INPUT = 0, 2


def _pairs(items: list[str]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise InputError(
                f"--set {item!r}: give NAME=VALUE (an empty VALUE clears the input to its default)"
            )
        texts[name.strip()] = value
    return texts


def _listing(evaluation: Evaluation) -> str:
    """Each input with its value and label; a choice shows the words the app's form shows, and
    the choices are listed after, in words with their short names (--set takes either)."""
    from clusterbid.operations.plan_inputs import CHOICE_WORDS, current_texts, plan_inputs

    texts = current_texts(evaluation)
    inputs = plan_inputs(evaluation)
    shown = {i.name: CHOICE_WORDS.get(texts[i.name], texts[i.name]) or "(empty)" for i in inputs}
    width = max(len(i.name) for i in inputs)
    value_width = max(12, *(len(text) for text in shown.values()))
    rows = [f"  {i.name:<{width}}  {shown[i.name]:<{value_width}}  {i.label}" for i in inputs]
    rows += [
        f"  {i.name} is one of: " + "; ".join(f"'{words}' ({value})" for value, words in i.choices)
        for i in inputs
        if i.choices
    ]
    return "\n".join(rows)


def run_plan(args: argparse.Namespace) -> int:
    from clusterbid.core.comparison_table import KeptTableDocument
    from clusterbid.operations.plan_inputs import set_plan_inputs

    texts = _pairs(args.set or [])
    if not texts:
        from clusterbid.core.store import EvaluationDocument

        with EvaluationDocument.open(args.path, read_only=True) as document:
            print(f"Plan inputs of {args.path}:\n{_listing(document.evaluation)}")
        return EXIT_OK
    with KeptTableDocument.open(args.path, user=args.user) as document:
        edit = set_plan_inputs(document, texts)
        listing = _listing(document.evaluation)
    if not edit.changed:
        print(f"Nothing changed in {args.path}: the plan inputs already have these values.")
    else:
        print(f"Changed {', '.join(edit.changed)} in {args.path} (one audited edit):\n{listing}")
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    plan = subparsers.add_parser(
        "plan",
        help=(
            "show, or --set, the buyer's plan inputs (cost of capital, payment terms, deadline, "
            "idle time)"
        ),
        description="Show the plan inputs of a .clusterbid document, or change them with --set NAME=VALUE "
        "(repeat it; an empty VALUE clears the input to its default). Every field is checked "
        "before anything is written; the change is one audited edit.",
    )
    plan.add_argument("path", type=Path, metavar="PATH", help="the .clusterbid document")
    plan.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="an input to change, by the name listed",
    )
    plan.add_argument(
        "--user", default=None, help="name recorded in the audit trail (default: your login name)"
    )
    plan.set_defaults(func=run_plan)
