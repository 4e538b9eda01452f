"""Issue 39: DCGM diagnostics and the burn-in soak judged from the files returned, not recorded
by hand. The tables under tests/data/dcgm are composed in the layout `dcgmi diag -r 3` prints
(NVIDIA DCGM User Guide, "DCGM Diagnostics"): 16 test rows (9 deployment checks, PCIe, GPU
Memory, Diagnostic, Targeted Stress, Targeted Power, Memory Bandwidth, EUD Test)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.core.acceptance.test_results import _demo

from clusterbid.cli import main
from clusterbid.core.acceptance.node_logs import MAX_LINES, parse_dcgm_diag
from clusterbid.core.store import EvaluationDocument

DCGM = Path(__file__).parents[2] / "data" / "dcgm"
PASS = (DCGM / "diag_r3_pass.txt").read_bytes()
# The demo winner offers 576 GPUs, 8 a node: 72 nodes, each returning its own table.
NODES = 576 // 8


def _status(document: Path, capsys, *files: Path) -> tuple[int, str, str]:
    code = main(["acceptance-status", str(document), "--attach", *map(str, files)])
    out, err = capsys.readouterr()
    return code, out, err


def _line(out: str, test_id: str) -> str:
    return next(x for x in out.splitlines() if x.startswith(test_id + " "))


def _nodes(tmp_path: Path, count: int, odd: bytes | None = None) -> list[Path]:
    folder = tmp_path / "dcgm"
    folder.mkdir(exist_ok=True)
    paths = []
    for n in range(count):
        path = folder / f"ACC-dcgm_node{n:03d}.txt"
        path.write_bytes(odd if odd is not None and n == 17 else PASS)
        paths.append(path)
    return paths


def test_the_table_reads_as_sixteen_tests_and_a_failure_names_its_gpu():
    assert len(parse_dcgm_diag(PASS, "x").tests) == 16
    assert parse_dcgm_diag(PASS, "x").failed == ()
    bad = parse_dcgm_diag((DCGM / "diag_r3_memory_bandwidth_fail.txt").read_bytes(), "x")
    (failed,) = bad.failed
    assert (failed.name, failed.result) == ("Memory Bandwidth", "fail")
    assert "GPU: 3" in failed.detail and "1810.2 GB/s" in failed.detail
    per_gpu = parse_dcgm_diag((DCGM / "diag_r3_per_gpu_fail.txt").read_bytes(), "x")
    assert [(t.name, t.detail) for t in per_gpu.failed] == [("GPU Memory", "GPU1: Fail")]
    level_1 = parse_dcgm_diag((DCGM / "diag_r1.txt").read_bytes(), "x")
    assert level_1.missing_level_3 == ("Targeted Stress", "Targeted Power", "Memory Bandwidth")


def test_every_node_passing_passes_and_one_node_short_stays_missing(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    code, out, _ = _status(document, capsys, *_nodes(tmp_path, NODES - 1))
    assert code == 0
    assert "missing" in _line(out, "ACC-dcgm")
    assert f"{NODES - 1} of {NODES} nodes returned a level-3 table" in out
    code, out, _ = _status(document, capsys, *_nodes(tmp_path, NODES)[-1:])
    assert "passed, measured 0 tests failed or warned" in _line(out, "ACC-dcgm")
    assert "skipped EUD Test (not a failure)" in out


def test_one_failing_node_fails_the_test_and_shows_the_remedy(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    fail = (DCGM / "diag_r3_memory_bandwidth_fail.txt").read_bytes()
    code, out, _ = _status(document, capsys, *_nodes(tmp_path, 20, odd=fail))
    assert code == 0
    assert "failed, measured 1 test failed or warned" in _line(out, "ACC-dcgm")
    assert "ACC-dcgm_node017.txt: Memory Bandwidth reported fail GPU: 3" in out
    assert "remedy owed: not stated in the bid" in out


def test_a_level_one_table_is_named_and_not_counted(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    path = tmp_path / "ACC-dcgm_node000.txt"
    path.write_bytes((DCGM / "diag_r1.txt").read_bytes())
    code, out, _ = _status(document, capsys, path)
    assert "ran below level 3: not counted" in out and "missing" in _line(out, "ACC-dcgm")


def _soak(tmp_path: Path, hours: int, events: list[str], gpus: int = 576) -> Path:
    end = f"2026-12-0{1 + hours // 24}T{hours % 24:02d}:00:00Z"
    path = tmp_path / "ACC-soak_log.csv"
    path.write_text(
        "# started: 2026-12-01T00:00:00Z\n"
        f"# ended: {end}\n# gpus: {gpus}\ntime,node,event,detail\n" + "".join(events),
        encoding="utf-8",
    )
    return path


ONE = "2026-12-01T05:12:00Z,node017,failure,XID 79: GPU 3 fell off the bus\n"
TWO = "2026-12-01T09:40:00Z,node044,failure,node rebooted: kernel panic\n"


def test_the_soak_is_held_to_the_failures_its_rate_allows(tmp_path, capsys):
    # 0.5 per 1,000 GPU-days x 576 GPUs x 1 day = 0.288 expected; P(Poisson(0.288) <= 1) =
    # e^-0.288 x 1.288 = 0.965 >= 0.95 (and P(0) = 0.750 is not): one failure allowed.
    document = _demo(tmp_path, capsys)
    code, out, _ = _status(document, capsys, _soak(tmp_path, 24, [ONE]))
    assert code == 0 and "passed, measured 1 failure in the soak" in _line(out, "ACC-soak")
    code, out, _ = _status(document, capsys, _soak(tmp_path, 24, [ONE, TWO]))
    assert "failed, measured 2 failures in the soak" in _line(out, "ACC-soak")
    assert "line 6: node044 failure: node rebooted: kernel panic" in out


def test_a_growing_error_counter_fails_and_a_short_soak_is_not_counted(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    grown = "2026-12-01T10:00:00Z,node003,error-counter,ECC uncorrectable count 0 -> 2\n"
    _, out, _ = _status(document, capsys, _soak(tmp_path, 24, [grown]))
    assert "failed, measured 0 failures in the soak" in _line(out, "ACC-soak")
    assert "1 error counter(s) grew; the plan allows none" in out
    short = tmp_path / "short"
    short.mkdir()
    _, out, _ = _status(document, capsys, _soak(short, 12, []))
    assert "12 hours on 576 GPUs; the test asks 24 hours on 576: not counted" in out


def test_dcgm_and_soak_are_no_longer_recorded_by_hand(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    args = ["--outcome", "pass", "--note", "looked fine"]
    assert main(["acceptance-status", str(document), "--record", "ACC-dcgm", *args]) == 2
    assert "this test is judged from its returned files" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("ACC-dcgm_n1.txt", b"\x00\x01binary\x00", "holds NUL bytes"),
        ("ACC-dcgm_n1.txt", b"ok\n\xff\xfe\n", "line 2: not UTF-8 text"),
        ("ACC-dcgm_n1.txt", b"hello\n" * (MAX_LINES + 1), f"more than the {MAX_LINES:,} one log"),
        ("ACC-dcgm_n1.txt", b"x" * 5000 + b"\n", "line 1: 5,000 characters"),
        ("ACC-dcgm_n1.txt", b"all good\n", "no 'Diagnostic | Result' table"),
        (
            "ACC-dcgm_n1.txt",
            PASS.replace(b"| PCIe                      | Pass - All", b"| PCIe | Excellent"),
            "test 'PCIe' reads 'Excellent', not Pass, Fail",
        ),
        ("ACC-soak_log.csv", b"time,node,event,detail\n", "no # started:, # ended:, # gpus:"),
        (
            "ACC-soak_log.csv",
            b"# started: 2026-12-01T00:00:00Z\n# ended: 2026-12-02T00:00:00Z\n# gpus: 576\n"
            b"time,node,event,detail\n2026-12-03T00:00:00Z,n1,failure,x\n",
            "line 5: 2026-12-03T00:00:00Z falls outside the soak",
        ),
        (
            "ACC-soak_log.csv",
            b"# started: 2026-12-01T00:00:00\n# ended: 2026-12-02T00:00:00Z\n# gpus: 576\n",
            "needs its time zone",
        ),
        (
            "ACC-soak_log.csv",
            b"# started: 2026-12-01T00:00:00Z\n# ended: 2026-12-02T00:00:00Z\n# gpus: 576\n"
            b"time,node,event,detail\n2026-12-01T01:00:00Z,n1,reboot,x\n",
            "event 'reboot' is not one of failure, error-counter",
        ),
    ],
)
def test_hostile_files_are_refused_with_the_rule_named_and_nothing_kept(
    tmp_path, capsys, name, data, words
):
    document = _demo(tmp_path, capsys)
    path = tmp_path / name
    path.write_bytes(data)
    good = _nodes(tmp_path, 1)[0]
    code, _, err = _status(document, capsys, good, path)
    assert code == 2 and words in err
    with EvaluationDocument.open(document) as doc:
        assert not [i for i in doc.artefacts() if i.name.startswith(("ACC-dcgm", "ACC-soak"))]


def test_a_huge_file_or_a_pipe_is_refused_by_the_safe_reader_before_reading(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    huge = tmp_path / "ACC-dcgm_huge.txt"
    with huge.open("wb") as handle:
        handle.truncate(2**30)  # sparse: 1 GiB that costs no disk
    code, _, err = _status(document, capsys, huge)
    assert code == 2 and "larger than the" in err and "limit for an evidence file" in err
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "ACC-dcgm_pipe.txt"
        os.mkfifo(fifo)
        code, _, err = _status(document, capsys, fifo)
        assert code == 2 and "is a named pipe (FIFO), not a file" in err
