"""A plain (non-editable) install works: build the wheel, install it in a fresh virtual
environment, and run score, memo, sign and verify from it, away from the source checkout."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from tests.conftest import REPO
from tests.core.memo_signing.pki import Authority

pytestmark = pytest.mark.timeout(300)


def _run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """bin/ of a fresh venv holding only the wheel; the dependencies come from this test run's
    environment through a .pth line (a path added that way runs no .pth of its own, so this
    checkout's editable install stays out)."""
    work = tmp_path_factory.mktemp("wheel")
    isolation = [] if importlib.util.find_spec("wheel") is None else ["--no-build-isolation"]
    built = _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        *isolation,
        "-w",
        str(work),
        str(REPO),
        cwd=work,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(work.glob("clusterbid-*.whl"))
    venv = work / "fresh"
    assert _run(sys.executable, "-m", "venv", str(venv), cwd=work).returncode == 0
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    done = _run(
        str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel), cwd=work
    )
    assert done.returncode == 0, done.stderr[-2000:]
    purelib = _run(
        str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=work
    ).stdout.strip()
    Path(purelib, "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return bin_dir


def test_the_installed_package_carries_its_resources_and_runs_every_verb(installed, tmp_path):
    env = {**os.environ, "CLUSTERBID_P12_PASSPHRASE": "pass"}
    env.pop("PYTHONPATH", None)
    where = _run(
        str(installed / "python"),
        "-c",
        "import clusterbid.resources as r; print(r.resources_root())",
        cwd=tmp_path,
        env=env,
    )
    assert "site-packages" in where.stdout and str(REPO) not in where.stdout, (
        where.stdout + where.stderr
    )
    cli = str(installed / "clusterbid")
    demo = tmp_path / "demo.json"
    assert _run(cli, "demo", str(demo), cwd=tmp_path, env=env).returncode == 0
    score = _run(cli, "score", str(demo), "--samples", "500", cwd=tmp_path, env=env)
    assert score.returncode == 0 and "northwind-ib" in score.stdout, score.stderr[-2000:]
    memo = _run(
        cli,
        "memo",
        str(demo),
        "-o",
        "memo.pdf",
        "--approver",
        "Ada Lovelace, CFO",
        "--samples",
        "500",
        cwd=tmp_path,
        env=env,
    )
    assert memo.returncode == 0, memo.stderr[-2000:]
    authority = Authority.create()
    p12 = authority.write_p12(tmp_path, "Ada Lovelace", "pass")
    ca = authority.write_pem(tmp_path / "ca.pem")
    signed = _run(cli, "sign", "memo.pdf", "--field", "1", "--p12", str(p12), cwd=tmp_path, env=env)
    assert signed.returncode == 0, signed.stderr[-2000:]
    verified = _run(cli, "verify", "memo.pdf", "--trust", str(ca), cwd=tmp_path, env=env)
    assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr[-2000:]


def test_every_package_in_the_tree_is_listed_for_the_wheel():
    import tomllib

    from setuptools import find_packages

    listed = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert sorted(listed) == sorted(
        find_packages(str(REPO / "desktop")) + ["clusterbid._resources"]
    )
