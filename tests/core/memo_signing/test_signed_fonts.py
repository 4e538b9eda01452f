"""A signed memo's fonts read cleanly: pyHanko wrote the stamp's font dictionary inline in the
signature appearance, and poppler's `pdffonts` then stopped on every signed memo with "Internal
Error: xref num ... not found"; the memo's own text fonts are all embedded."""

from __future__ import annotations

import shutil
import subprocess

import pytest

needs_pdffonts = pytest.mark.skipif(
    shutil.which("pdffonts") is None,
    reason="poppler-utils (pdffonts) is not installed; apt install poppler-utils",
)


def _pdffonts(pdf: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, text=False)


@needs_pdffonts
def test_pdffonts_reads_a_memo_signed_twice_without_an_error(unsigned_memo, signed_twice):
    if unsigned_memo is None:
        pytest.skip("the memo renderer is not installed in this build")
    done = _pdffonts(signed_twice)
    out = done.stdout.decode() + done.stderr.decode()
    assert done.returncode == 0 and "Error" not in out, out
    rows = [line.split() for line in done.stdout.decode().splitlines()[2:]]
    # Every font has an object of its own (an inline dictionary shows as "[none]" in the ID column).
    assert rows and all(row[-2:] != ["[none]"] and row[-1] != "[none]" for row in rows), out
    # The memo's own fonts embedded and subset; the only one not embedded is the signature stamp's
    # standard Courier, which every PDF reader carries.
    loose = [row[0] for row in rows if row[-5:-3] != ["yes", "yes"]]
    assert set(loose) <= {"Courier"}, out
