"""pyHanko's own command line (`pyhanko sign validate`, from the pyhanko-cli distribution, one of
the test extras) judges a signed memo and a sealed memo, trusting only the loopback PKI's root.

An outside validator agreeing with `clusterbid verify` is what the archive needs: an auditor
without ClusterBid checks the file with a tool of their own. The loopback PKI is up, so pyHanko
fetches the revocation status the certificates point to, as an auditor's validator would."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# the one installed beside this Python (a virtual environment's bin), else one on the PATH
PYHANKO = shutil.which("pyhanko", path=str(Path(sys.executable).parent)) or shutil.which("pyhanko")
pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(
        PYHANKO is None,
        reason="pyHanko's command line is not installed "
        "(pip install pyhanko-cli, among the test extras)",
    ),
]


def _validate(
    verb: str, pdf: bytes, root: Path, folder: Path, *extra: str
) -> subprocess.CompletedProcess:
    memo = folder / f"{verb}.pdf"
    memo.write_bytes(pdf)
    # run in an empty folder: pyHanko reads a pyhanko.yml configuration from the current folder
    return subprocess.run(
        [
            str(PYHANKO),
            "sign",
            verb,
            "--executive-summary",
            "--trust-replace",
            "--trust",
            str(root),
            *extra,
            str(memo),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=folder,
    )


def _judgements(stdout: str) -> dict[str, str]:
    """`field:sha256-of-certificate:JUDGEMENT` lines, as the executive summary prints them."""
    found = {}
    for line in stdout.splitlines():
        parts = line.strip().split(":")
        if len(parts) == 3 and len(parts[1]) == 64:
            found[parts[0]] = parts[2]
    return found


def test_pyhanko_judges_both_signatures_of_the_signed_memo_valid(loopback, signed_memo, tmp_path):
    run = _validate("validate", signed_memo, loopback.root_pem, tmp_path)
    assert run.returncode == 0, run.stderr
    assert _judgements(run.stdout) == {"approver-1": "VALID", "approver-2": "VALID"}


def test_pyhanko_judges_both_signatures_of_the_sealed_memo_valid(loopback, sealed_memo, tmp_path):
    run = _validate("validate", sealed_memo, loopback.root_pem, tmp_path)
    assert run.returncode == 0, run.stderr
    assert _judgements(run.stdout) == {"approver-1": "VALID", "approver-2": "VALID"}


def test_pyhanko_fails_a_memo_altered_after_the_seal(loopback, sealed_memo, tmp_path):
    # one letter of the header comment, inside every signature's signed range, changed: the
    # file still parses, so only the digests can tell (the test can fail)
    at = sealed_memo.index(b"ReportLab Generated")
    assert at < 100
    altered = bytearray(sealed_memo)
    altered[at] = ord("r")
    run = _validate("validate", bytes(altered), loopback.root_pem, tmp_path)
    assert run.returncode != 0
    assert set(_judgements(run.stdout).values()) == {"INVALID"}


def test_pyhanko_s_ades_validation_passes_the_sealed_memo(loopback, sealed_memo, tmp_path):
    # `adesverify`: ETSI EN 319 102-1's procedure, using the document timestamps and the DSS
    run = _validate("adesverify", sealed_memo, loopback.root_pem, tmp_path)
    assert run.returncode == 0, run.stderr
    assert _judgements(run.stdout) == {"approver-1": "VALID", "approver-2": "VALID"}
