"""A full disk (or any failed write) leaves every output as it was: no half file, no temporary
file, the previous file intact, a message and exit 2, never a traceback.

Two ways to fail a write: in-process, os.fsync raising ENOSPC (where a full disk surfaces on a
real file system when the data is flushed); and in a subprocess, a file-size limit (RLIMIT_FSIZE,
with SIGXFSZ ignored) that makes the kernel refuse the write itself with EFBIG, as a full disk
refuses it with ENOSPC. A tiny tmpfs would need root, which CI does not have.
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from clusterbid.cli import main
from clusterbid.core.safe_files import OutputWriteError, write_bytes_atomically
from clusterbid.core.store import EvaluationDocument

DESKTOP = Path(__file__).resolve().parents[3] / "desktop"


def _full_disk(monkeypatch) -> None:
    def no_space(_fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


@pytest.fixture
def demo(tmp_path) -> Path:
    path = tmp_path / "demo.clusterbid"
    assert main(["demo", str(path)]) == 0
    return path


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("name", ["comparison.xlsx", "comparison.csv", "memo.pdf"])
def test_an_output_on_a_full_disk_leaves_the_previous_file(
    demo, tmp_path, monkeypatch, capfd, name
):
    target = tmp_path / name
    target.write_bytes(b"the previous file")
    command = (
        ["memo", str(demo), "-o", str(target), "--approver", "Ada Lovelace, CFO", "--samples", "0"]
        if name.endswith(".pdf")
        else ["export", str(demo), str(target)]
    )
    _full_disk(monkeypatch)
    assert main(command) == 2
    err = capfd.readouterr().err
    assert f"{name}: could not be written (No space left on device)" in err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert target.read_bytes() == b"the previous file"
    assert _files(tmp_path) == sorted(["demo.clusterbid", name])


def test_demo_force_on_a_full_disk_keeps_the_existing_evaluation(
    demo, tmp_path, monkeypatch, capsys
):
    with EvaluationDocument.open(demo) as doc:
        doc.remove_bid(doc.evaluation.bids[0].id)
        kept = doc.evaluation
    _full_disk(monkeypatch)
    assert main(["demo", str(demo), "--force"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    with EvaluationDocument.open(demo) as doc:
        assert doc.evaluation == kept  # not deleted before the new one could be written
    assert _files(tmp_path) == ["demo.clusterbid"]


def test_the_writer_removes_its_temporary_file_when_the_producer_fails(tmp_path):
    from clusterbid.core.safe_files import atomic_output

    with pytest.raises(RuntimeError), atomic_output(tmp_path / "x.csv", "w") as stream:
        stream.write("half")
        raise RuntimeError("the producer failed")
    assert _files(tmp_path) == []
    with pytest.raises(OutputWriteError, match="no such folder|No such file"):
        write_bytes_atomically(tmp_path / "no such folder" / "x.pdf", b"x")


def _limited(limit_bytes: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a refused write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return apply


def _cli(args: list[str], cwd: Path, limit_bytes: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(DESKTOP)}
    return subprocess.run(
        [sys.executable, "-m", "clusterbid", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited(limit_bytes),
    )


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file-size limits")
def test_a_write_refused_by_the_kernel_in_a_real_process(demo, tmp_path):
    # The demo memo is about 300 KB and its document about 50 KB: a 150 KB limit lets the
    # document be read and recorded in, and refuses the memo half way through.
    (tmp_path / "memo.pdf").write_bytes(b"the previous memo")
    memo = _cli(
        [
            "memo",
            "demo.clusterbid",
            "-o",
            "memo.pdf",
            "--approver",
            "Ada Lovelace, CFO",
            "--samples",
            "0",
        ],
        tmp_path,
        150_000,
    )
    assert memo.returncode == 2, memo.stderr
    assert (
        "memo.pdf: could not be written (File too large)" in memo.stderr
        and "Traceback" not in memo.stderr
    )
    assert (tmp_path / "memo.pdf").read_bytes() == b"the previous memo"
    # The demo document (about 50 KB) cannot be rebuilt under a 20 KB limit: the old one stays.
    force = _cli(["demo", "demo.clusterbid", "--force"], tmp_path, 20_000)
    assert force.returncode == 2 and "Traceback" not in force.stderr, force.stderr
    assert _files(tmp_path) == ["demo.clusterbid", "memo.pdf"]
    with EvaluationDocument.open(demo) as doc:
        assert doc.audit_report.ok and len(doc.evaluation.bids) == 6


def test_demo_force_never_puts_a_new_file_beside_an_old_recovery_journal(demo, tmp_path, capsys):
    journal = tmp_path / "demo.clusterbid-journal"
    journal.write_bytes(b"a hot journal a crash left behind")
    before = demo.read_bytes()
    assert main(["demo", str(demo), "--force"]) == 2
    assert "demo.clusterbid-journal" in capsys.readouterr().err
    assert demo.read_bytes() == before and journal.exists()
