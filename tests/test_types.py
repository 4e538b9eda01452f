"""Types are part of the test run: mypy in strict mode over the core modules pyproject.toml lists
(the list grows module by module), and a check that the configuration can fail."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def _mypy(*args: str, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_listed_core_modules_pass_strict_type_checking():
    done = _mypy()
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_type_configuration_catches_an_untyped_function(tmp_path):
    config = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "bad.py").write_text("def half(x):\n    return x / 2\n\nhalf('a')\n")
    done = _mypy("bad.py", cwd=tmp_path)
    assert done.returncode == 1 and "Function is missing a type annotation" in done.stdout
