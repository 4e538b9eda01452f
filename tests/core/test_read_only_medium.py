"""Outputs honest about partial success (issue 35, item 5): on a read-only medium no verb prints
success before failing, and no file is left that the document does not account for.

The medium is real: a bind mount remounted read-only inside a user namespace (`unshare`), so the
file system refuses writes even to root. Where user namespaces are not available the subprocess
tests skip; the in-process tests of a failure after the file was written run everywhere.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clusterbid.cli import main
from clusterbid.core.store import DocumentWriteError, EvaluationDocument

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "demo-evaluation.json"


def _namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "--map-root-user", "true"], capture_output=True, timeout=60
    )
    return probe.returncode == 0


read_only_mounts = pytest.mark.skipif(
    not _namespaces_work(), reason="needs unshare with user namespaces"
)


def _on_read_only(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    """`clusterbid ARGV` with `folder` mounted read-only over itself."""
    script = (
        f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && '
        f'PYTHONPATH="{DESKTOP}" exec "{sys.executable}" -m clusterbid "$@"'
    )
    return subprocess.run(
        ["unshare", "-m", "--map-root-user", "sh", "-c", script, "clusterbid", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=folder.parent,
    )


@pytest.fixture
def medium(tmp_path) -> Path:
    folder = tmp_path / "medium"
    folder.mkdir()
    assert main(["demo", str(folder / "doc.clusterbid")]) == 0
    bid = json.loads(EXAMPLE.read_text(encoding="utf-8"))["bids"][0] | {"id": "extra-1"}
    (folder / "bids.json").write_text(json.dumps([bid]), encoding="utf-8")
    return folder


@read_only_mounts
def test_import_on_a_read_only_medium_prints_no_success(medium):
    done = _on_read_only(
        medium, "import", str(medium / "doc.clusterbid"), str(medium / "bids.json")
    )
    assert done.returncode == 2
    assert "Imported" not in done.stdout and "1 bid(s) imported" not in done.stdout
    assert "nothing was imported into" in done.stderr and "readonly database" in done.stderr


@read_only_mounts
def test_memo_from_a_read_only_document_writes_nothing_and_says_why(medium, tmp_path):
    memo = tmp_path / "memo.pdf"
    done = _on_read_only(
        medium,
        "memo",
        str(medium / "doc.clusterbid"),
        "-o",
        str(memo),
        "--approver",
        "Ada Lovelace, CFO",
        "--samples",
        "200",
    )
    assert done.returncode == 2 and not memo.exists()
    assert "doc.clusterbid cannot be written (a read-only file, folder or medium)" in done.stderr
    assert "nothing was written" in done.stderr


@read_only_mounts
def test_a_request_pack_is_not_written_for_a_document_that_cannot_keep_it(medium, tmp_path):
    pack = tmp_path / "pack"
    done = _on_read_only(
        medium,
        "request-evidence",
        str(medium / "doc.clusterbid"),
        "--bid",
        "northwind-ib",
        "-o",
        str(pack),
        "--samples",
        "200",
    )
    assert done.returncode == 2 and not pack.exists()
    assert "the request pack could not be recorded" in done.stderr


def test_a_memo_whose_export_cannot_be_recorded_says_the_memo_exists(
    medium, tmp_path, monkeypatch, capsys
):
    def refuse(self, *args, **kwargs):
        raise DocumentWriteError(self.path, "could not save record memo exported (disk I/O error)")

    monkeypatch.setattr(EvaluationDocument, "record_memo_exported", refuse)
    memo = tmp_path / "memo.pdf"
    code = main(
        [
            "memo",
            str(medium / "doc.clusterbid"),
            "-o",
            str(memo),
            "--approver",
            "Ada Lovelace, CFO",
            "--samples",
            "200",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and memo.exists()
    assert (
        f"wrote the approval memo to {memo}" in err
        and "the memo is complete, the trail does not list it" in err
    )


def test_a_pack_that_cannot_be_kept_leaves_no_files(medium, tmp_path, monkeypatch, capsys):
    from clusterbid.core.evidence_request import export

    def refuse(document, *args):
        raise DocumentWriteError(document.path, "could not save request pack (disk I/O error)")

    monkeypatch.setattr(export, "record_pack", refuse)
    pack = tmp_path / "pack"
    code = main(
        [
            "request-evidence",
            str(medium / "doc.clusterbid"),
            "--bid",
            "northwind-ib",
            "-o",
            str(pack),
            "--samples",
            "200",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "its files were removed again, so nothing was issued" in err
    assert list(pack.iterdir()) == []
