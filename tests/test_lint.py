"""Lint is part of the test run (the README's one command): ruff's fault rules, configured in
pyproject.toml, over the app and its tests, and a check that the configuration can fail."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def _ruff(*paths: str, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *paths], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_the_code_has_no_unused_imports_undefined_names_or_syntax_faults():
    done = _ruff("desktop", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_lint_configuration_catches_an_unused_import(tmp_path):
    (tmp_path / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (tmp_path / "bad.py").write_text("import os\n\nundefined_name\n")
    done = _ruff("bad.py", cwd=tmp_path)
    assert done.returncode == 1 and "F401" in done.stdout and "F821" in done.stdout


def test_no_two_test_files_share_a_name():
    # The tests folders are not packages, so pytest imports each test file by its bare name: two
    # files of one name stop the whole run at collection ("import file mismatch"), which a run of
    # one folder never shows. Caught here, in the checks every change runs.
    seen: dict[str, list[str]] = {}
    for path in (REPO / "tests").rglob("test_*.py"):
        seen.setdefault(path.name, []).append(str(path.relative_to(REPO)))
    shared = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not shared, f"test files sharing a name (rename one): {shared}"
