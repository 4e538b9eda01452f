"""The checked-in JSON Schemas match the models; core never imports Qt or the gui."""

from __future__ import annotations

import json

from importlinter.cli import EXIT_STATUS_ERROR, EXIT_STATUS_SUCCESS, lint_imports
from tests.conftest import REPO, bid_dict

from clusterbid.core.schema import schema_texts


def test_checked_in_schemas_match_the_models():
    for name, text in schema_texts().items():
        checked_in = (REPO / "resources" / "schema" / name).read_text(encoding="utf-8")
        assert checked_in == text, f"resources/schema/{name} is stale: run `clusterbid schema`"


def test_schema_carries_constraints_and_units():
    schema = json.loads(schema_texts()["bid.schema.json"])
    capacity = schema["$defs"]["Capacity"]["properties"]
    assert capacity["gpus_offered"]["minimum"] == 1
    assert "non-blocking" in capacity["largest_contiguous_block_gpus"]["description"]
    assert (
        "Gbit/s" in schema["$defs"]["Fabric"]["properties"]["nic_line_rate_gbit_s"]["description"]
    )
    assert schema["additionalProperties"] is False
    assert set(bid_dict()) <= set(schema["properties"])


def test_core_never_imports_qt_or_gui(monkeypatch):
    monkeypatch.chdir(REPO)
    assert (
        lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True)
        == EXIT_STATUS_SUCCESS
    )


def test_the_contract_would_catch_a_core_module_importing_qt(tmp_path, monkeypatch):
    # The same forbidden contract over a throwaway package whose core imports PySide6 must fail,
    # so the check above is one that can fail.
    package = tmp_path / "layeredapp"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "bad.py").write_text("from PySide6 import QtCore\n")
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "layeredapp"\ninclude_external_packages = true\n'
        '[[tool.importlinter.contracts]]\nname = "no qt"\ntype = "forbidden"\n'
        'source_modules = ["layeredapp.core"]\nforbidden_modules = ["PySide6"]\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert (
        lint_imports(config_filename=str(config), no_cache=True, no_logo=True) == EXIT_STATUS_ERROR
    )
