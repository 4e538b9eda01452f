"""The verb table: `clusterbid --help` lists every verb without importing any verb's module."""

from __future__ import annotations

import argparse
import importlib

from tests.core.cli_imports import HEAVY, imported_by

from clusterbid.cli import VERBS, build_parser


def _listed(parser) -> list[tuple[str, str]]:
    subparsers = next(a for a in parser._actions if a.dest == "verb")
    return [(choice.dest, choice.help) for choice in subparsers._choices_actions]


def test_help_imports_no_model_chart_pdf_or_qt_package():
    code, packages = imported_by(["--help"])
    assert code == 0
    loaded = packages & {*HEAVY, "numpy", "pydantic", "pyhanko", "openpyxl"}
    assert not loaded, f"`clusterbid --help` imported {sorted(loaded)}"


def test_the_table_lists_each_verb_with_the_help_its_module_gives():
    table = [(name, help_text) for name, _module, help_text in VERBS]
    for module in dict.fromkeys(module for _name, module, _help in VERBS):
        own = argparse.ArgumentParser()
        importlib.import_module(module).register(own.add_subparsers(dest="verb"))
        # every verb the module defines is in the table, under that module, with the same help
        assert [(n, h) for n, m, h in VERBS if m == module] == _listed(own), module
    assert _listed(build_parser()) == table  # the full parser: every module registers its own verbs
    assert _listed(build_parser("sign")) == table  # placeholders print the same list


def test_only_the_verb_run_is_built_and_its_module_imported():
    parser = build_parser("memo")
    args = parser.parse_args(["memo", "demo.json", "-o", "memo.pdf", "--samples", "0"])
    assert (args.output, args.samples) == ("memo.pdf", 0)
    assert args.func is importlib.import_module("clusterbid.cli_memo").run_memo_on_two_cores
