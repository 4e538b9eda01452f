"""Benchmark: `clusterbid memo` from the command line, as an officer runs it, against the anchor
`python -c "import numpy"` (the same machine, the same load: the ratio holds across load).

- the demo's first export (no kept charts: matplotlib imported and every chart drawn), with the
  chart cache in an empty folder (kept after) and switched off (as bench_latency.py runs it), and
  its re-export (charts kept), all at the default 20,000 Monte Carlo samples, with the anchor in
  every round; goal 1.5 s first;
- with `--without-bytecode`, the first export also run as this benchmark ran it before
  2026-11-26: PYTHONDONTWRITEBYTECODE inherited from the shell, so every ClusterBid module (not
  the installed libraries, which carry their bytecode) was compiled from source at each run, in
  the memo process and again in the chart worker. An installed ClusterBid carries its bytecode
  (pip compiles at install, the frozen bundle ships it), so the figure that counts runs with it:
  an untimed first run writes it, as bench_latency.py and bench_signing.py do;
- 500 bids copied from the demo at other prices (tests/core/memo/many_bids.py): the memo's own
  work (--samples 0, no Monte Carlo: layout, 400-odd pages) and at --samples N (default 2,000;
  the analyses it adds grow with bids x samples); goal 15 s.

Run: PYTHONPATH=desktop:. python tests/perf/bench_memo.py [--samples N] [--runs N]
     [--without-bytecode] [--demo-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "desktop"), str(ROOT)]

from tests.core.memo.many_bids import demo_copies  # noqa: E402

DEMO = ROOT / "resources" / "examples" / "demo-evaluation.json"
FIRST_EXPORT_GOAL_S, MANY_BIDS_GOAL_S = 1.5, 15.0
# Without PYTHONDONTWRITEBYTECODE: the untimed first run writes the bytecode an install has.
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPATH": os.pathsep.join([str(ROOT / "desktop"), os.environ.get("PYTHONPATH", "")]),
}


def run(args: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MiB) of one child process and its own children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{args} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def memo(
    source: Path, output: Path, samples: int, cache: str, env: dict[str, str] = ENV
) -> tuple[float, float, float]:
    return run(
        [
            "-m",
            "clusterbid",
            "memo",
            str(source),
            "-o",
            str(output),
            "--samples",
            str(samples),
            "--approver",
            "Ada Lovelace, CFO",
            "--approver",
            "Grace Hopper, Head of ML platform",
            # 500 priced copies: the first by score may cost more than a passing bid, and the memo
            # then asks for the officer's reason (issue 34); the demo alone does not need it.
            "--tradeoff-rationale",
            "Benchmark run: the weights as agreed.",
        ],
        {**env, "CLUSTERBID_CHART_CACHE": cache},
    )


def source_without_bytecode(folder: Path) -> dict[str, str]:
    """An environment running a copy of the sources with no bytecode and none written."""
    for part in ("desktop", "resources"):
        shutil.copytree(
            ROOT / part, folder / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    return {**ENV, "PYTHONPATH": str(folder / "desktop"), "PYTHONDONTWRITEBYTECODE": "1"}


def demo_rounds(folder: Path, runs: int, without_bytecode: bool) -> dict[str, list[tuple]]:
    """Each round: the anchor, then each way of exporting the demo, so load hits all alike."""
    variants: dict[str, list[tuple]] = {
        "anchor": [],
        "first export": [],
        "first, cache off": [],
        "re-export": [],
    }
    plain = source_without_bytecode(folder / "plain") if without_bytecode else None
    if plain:
        variants["first, no bytecode"] = []
    memo(DEMO, folder / "demo.pdf", 20_000, "off")  # untimed: writes the bytecode
    for number in range(runs):
        cache = str(folder / f"charts-{number}")  # empty: a first export draws every chart
        variants["anchor"].append(run(["-c", "import numpy"], ENV))
        variants["first export"].append(memo(DEMO, folder / "demo.pdf", 20_000, cache))
        variants["re-export"].append(memo(DEMO, folder / "demo.pdf", 20_000, cache))
        variants["first, cache off"].append(memo(DEMO, folder / "demo.pdf", 20_000, "off"))
        if plain:
            variants["first, no bytecode"].append(
                memo(DEMO, folder / "demo.pdf", 20_000, "off", plain)
            )
    anchors = [r[0] for r in variants["anchor"]]
    print(f"{runs} rounds, load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name, timed in variants.items():
        ratios = [r[0] / a for r, a in zip(timed, anchors, strict=True)]
        print(
            f"demo {name:20s} wall best {min(r[0] for r in timed):.2f} s, median "
            f"{statistics.median(r[0] for r in timed):.2f} s ({statistics.median(ratios):.1f}x "
            f"the anchor of its round), CPU median {statistics.median(r[1] for r in timed):.2f} s"
        )
    return variants


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--samples", type=int, default=2_000, help="Monte Carlo samples for the 500-bid memo"
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="runs of each demo figure (the best is judged)"
    )
    parser.add_argument(
        "--without-bytecode",
        action="store_true",
        help="also time the first export compiling every ClusterBid module (the old figure)",
    )
    parser.add_argument("--demo-only", action="store_true", help="skip the 500-bid memo")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        demo = demo_rounds(folder, args.runs, args.without_bytecode)
        anchor = min(r[0] for r in demo["anchor"])
        first = demo["first export"]
        if args.demo_only:
            ok = min(r[0] for r in first) <= FIRST_EXPORT_GOAL_S
            print(f"{'PASS' if ok else 'FAIL'}: demo first export within {FIRST_EXPORT_GOAL_S} s")
            return 0 if ok else 1
        many = folder / "bids-500.json"
        many.write_text(demo_copies(500).model_dump_json(), encoding="utf-8")
        layout = memo(many, folder / "many.pdf", 0, "off")
        pages = (folder / "many.pdf").read_bytes().count(b"/Type /Page\n")
        print(
            f"500-bid memo, --samples 0 ({pages} pages): {layout[0]:.1f} s "
            f"({layout[0] / anchor:.0f}x the "
            f"anchor), CPU {layout[1]:.1f} s, peak RSS {layout[2]:.0f} MiB"
        )
        full = memo(many, folder / "many.pdf", args.samples, "off")
        print(
            f"500-bid memo, --samples {args.samples:,}: {full[0]:.1f} s ({full[0] / anchor:.0f}x "
            "the anchor), "
            f"CPU {full[1]:.1f} s, peak RSS {full[2]:.0f} MiB"
        )
    demo_ok = min(r[0] for r in first) <= FIRST_EXPORT_GOAL_S
    many_ok = full[0] <= MANY_BIDS_GOAL_S
    print(
        f"{'PASS' if demo_ok else 'FAIL'}: demo first export within {FIRST_EXPORT_GOAL_S} s (best "
        "run)"
    )
    print(f"{'PASS' if many_ok else 'FAIL'}: 500 bids within {MANY_BIDS_GOAL_S:.0f} s")
    return 0 if demo_ok and many_ok else 1


if __name__ == "__main__":
    sys.exit(main())
