"""Every reader refuses what is not a plain file, before reading it (issue 35, item 1).

A symlink to /dev/zero passed the old size check (a device reports size 0) and then grew to
tens of GB; a FIFO with no writer blocked `open()` forever; one fed forever never ended. Each
verb that reads a file the user names is run here in a fresh process on each of the three, and
must exit 2 naming the file and what it is, at no more CPU time and memory than the same verb
costs refusing a missing file (the CLI's own start-up), plus 1 CPU second and 100 MB.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conftest import EXAMPLES
from tests.core.interchange.hostile_files import Run, run_cli
from tests.core.memo_signing.pki import Authority

from clusterbid.cli import main

pytestmark = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(),
    reason="needs POSIX FIFOs and /dev/zero",
)

MAX_EXTRA_CPU_S, MAX_EXTRA_MB = 1.0, 100.0
HANG_GUARD_S = 120.0  # a blocked open() would wait here and fail: a hang, never a speed check

# verb arguments around the hostile path F (and the document D where the verb needs one)
VERBS = {
    "evidence parse": ["evidence", "parse", "{F}"],
    "serving-evidence parse": ["serving-evidence", "parse", "--gpus", "8", "{F}"],
    "import-bids (csv)": ["import-bids", "{F}.csv"],
    "import-bids (xlsx)": ["import-bids", "{F}.xlsx"],
    "score (json)": ["score", "{F}.json"],
    "score (document)": ["score", "{F}.clusterbid"],
    "new --from": ["new", "{D}/made.clusterbid", "--from", "{F}.json"],
    "verify": ["verify", "{F}.pdf"],
    "verify --trust": ["verify", "{D}/memo.pdf", "--trust", "{F}.pem"],
    "sign --p12": ["sign", "{D}/memo.pdf", "--field", "1", "--p12", "{F}.p12"],
    "trust --add": ["trust", "{D}/doc.clusterbid", "--add", "{F}.pem"],
    # every other verb and option that reads a file the user names (issue 35, second pass)
    "trust (document)": ["trust", "{F}.clusterbid"],
    "approvers (document)": ["approvers", "{F}.clusterbid", "--list"],
    "approvers --cert": [
        "approvers",
        "{D}/doc.clusterbid",
        "--add",
        "Bo Chan, CTO",
        "--cert",
        "{F}.pem",
    ],
    "audit": ["audit", "{F}.clusterbid"],
    "audit --against": ["audit", "{D}/doc.clusterbid", "--against", "{F}.log"],
    "copy": ["copy", "{F}.clusterbid", "{D}/copy.clusterbid"],
    "import (document)": ["import", "{F}.clusterbid", "{D}/bids.json"],
    "import (sheet)": ["import", "{D}/doc.clusterbid", "{F}.json"],
    "export": ["export", "{F}.clusterbid", "{D}/out.csv"],
    "memo": ["memo", "{F}.clusterbid", "-o", "{D}/made.pdf"],
    "estimate --workload": ["estimate", "--workload", "{F}.json", "--bid", "{D}/bid.json"],
    "evidence attach": ["evidence", "attach", "{D}/doc.clusterbid", "northwind-ib", "{F}.csv"],
    "serving-evidence attach": [
        "serving-evidence",
        "attach",
        "--gpus",
        "8",
        "{D}/doc.clusterbid",
        "northwind-ib",
        "{F}.json",
    ],
    "countersign": ["countersign", "{F}.clusterbid", "--p12", "{D}/key.p12"],
    "verify --evaluation": ["verify", "{D}/memo.pdf", "--evaluation", "{F}.clusterbid"],
    "verify --registry": ["verify", "{D}/memo.pdf", "--registry", "{F}.json"],
    "request-evidence": ["request-evidence", "{F}.clusterbid", "--status"],
    "schema --check": ["schema", "--check", "--dir", "{F}"],
}
SPECIALS = ["symlink to /dev/zero", "FIFO with no writer", "FIFO fed forever"]
WHAT_IT_IS = {
    "symlink to /dev/zero": "is a device",
    "FIFO with no writer": "named pipe (FIFO)",
    "FIFO fed forever": "named pipe (FIFO)",
}


# verbs that read files inside a folder the user names: the special file takes this name there
INSIDE_FOLDER = {"schema --check": "bid.schema.json"}
PASSPHRASE = "special files"


@pytest.fixture(scope="module")
def workplace(tmp_path_factory) -> Path:
    """A document, a (tiny, unsigned) memo, a workload, bids and a key for the verbs that need
    one beside the bad file, so each verb reaches the bad file before anything else refuses."""
    folder = tmp_path_factory.mktemp("special")
    assert main(["demo", str(folder / "doc.clusterbid")]) == 0
    (folder / "memo.pdf").write_bytes(b"%PDF-1.7\n%%EOF\n")
    evaluation = json.loads((EXAMPLES / "demo-evaluation.json").read_text(encoding="utf-8"))
    (folder / "bid.json").write_text(json.dumps(evaluation["bids"][0]), encoding="utf-8")
    (folder / "bids.json").write_text(
        json.dumps([evaluation["bids"][0] | {"id": "extra-1"}]), encoding="utf-8"
    )
    Authority.create().write_p12(folder, "key", PASSPHRASE)
    return folder


@pytest.fixture(scope="module")
def baselines() -> dict[str, Run]:
    """Each verb refusing a missing file, run once: the CLI's own start-up for that verb."""
    return {}


def _args(verb: str, hostile: Path, folder: Path) -> list[str]:
    return [a.replace("{F}", str(hostile)).replace("{D}", str(folder)) for a in VERBS[verb]]


def _make(kind: str, path: Path) -> subprocess.Popen | None:
    """The special file at `path`; for a fed FIFO, the writer (killed by the caller)."""
    if kind == "symlink to /dev/zero":
        path.symlink_to("/dev/zero")
        return None
    os.mkfifo(path)
    if kind == "FIFO with no writer":
        return None
    # Opens the FIFO for writing (waiting for a reader) and writes zeros until killed.
    return subprocess.Popen(
        [sys.executable, "-c", f"f = open({str(path)!r}, 'wb')\nwhile True: f.write(bytes(65536))"],
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("kind", SPECIALS)
@pytest.mark.parametrize("verb", list(VERBS))
def test_a_special_file_is_refused_by_name_before_it_is_read(
    tmp_path, workplace, baselines, monkeypatch, verb, kind
):
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", PASSPHRASE)
    stem = tmp_path / "input"
    template = next(a for a in VERBS[verb] if "{F}" in a)
    hostile = Path(template.replace("{F}", str(stem)))
    if verb in INSIDE_FOLDER:
        hostile.mkdir()
        hostile = hostile / INSIDE_FOLDER[verb]
    if verb not in baselines:
        missing = tmp_path / "missing" / stem.name
        baselines[verb] = run_cli(_args(verb, missing, workplace), tmp_path, HANG_GUARD_S)
    baseline = baselines[verb]
    writer = _make(kind, hostile)
    try:
        run = run_cli(_args(verb, stem, workplace), tmp_path, HANG_GUARD_S)
    finally:
        if writer is not None:
            writer.kill()
            writer.wait()
    assert stat.S_ISREG(os.stat(workplace / "doc.clusterbid").st_mode)  # nothing else was touched
    assert run.exit_code == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert hostile.name in run.stderr and WHAT_IT_IS[kind] in run.stderr, run.stderr
    assert run.cpu_seconds < baseline.cpu_seconds + MAX_EXTRA_CPU_S, (
        f"{run.cpu_seconds:.2f} CPU s, refusing a missing file {baseline.cpu_seconds:.2f} CPU s"
    )
    assert run.peak_rss_mb < baseline.peak_rss_mb + MAX_EXTRA_MB, (
        f"{run.peak_rss_mb:.0f} MB, refusing a missing file {baseline.peak_rss_mb:.0f} MB"
    )
