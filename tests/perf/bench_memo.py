"""Benchmark: `clusterbid memo` from the command line, as an officer runs it, against the anchor
`python -c "import numpy"` (the same machine, the same load: the ratio holds across load).

- the demo's first export (no kept charts: matplotlib imported and every chart drawn), its
  re-export (charts kept), both at the default 20,000 Monte Carlo samples; goal 1.5 s first;
- 500 bids copied from the demo at other prices (tests/core/memo/many_bids.py): the memo's own
  work (--samples 0, no Monte Carlo: layout, 400-odd pages) and at --samples N (default 2,000;
  the analyses it adds grow with bids x samples); goal 15 s.

Run: PYTHONPATH=desktop:. python tests/perf/bench_memo.py [--samples N] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
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
# An installed ClusterBid runs from bytecode (pip compiles it; a checkout writes __pycache__ on
# its first run): a shell that forbids writing it would time the compiler on every run (about 1 s
# of the first export's 3.5 s here, the gap between this benchmark and bench_latency's figure).
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


def memo(source: Path, output: Path, samples: int, cache: str) -> tuple[float, float, float]:
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
        {**ENV, "CLUSTERBID_CHART_CACHE": cache},
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--samples", type=int, default=2_000, help="Monte Carlo samples for the 500-bid memo"
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="runs of each demo figure (the best is judged)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        anchor = min(run(["-c", "import numpy"], ENV)[0] for _ in range(args.runs))
        print(f'anchor `python -c "import numpy"`: {anchor:.2f} s (best of {args.runs})')
        memo(DEMO, folder / "demo.pdf", 20_000, "off")  # untimed: writes the bytecode
        first, again = [], []
        for number in range(args.runs):
            cache = str(folder / f"charts-{number}")  # empty: a first export draws every chart
            first.append(memo(DEMO, folder / "demo.pdf", 20_000, cache))
            again.append(memo(DEMO, folder / "demo.pdf", 20_000, cache))
        for name, runs in (("first export", first), ("re-export", again)):
            best = min(r[0] for r in runs)
            print(
                f"demo memo {name}: best {best:.2f} s, median "
                f"{statistics.median(r[0] for r in runs):.2f} s "
                f"({best / anchor:.1f}x the anchor), CPU {min(r[1] for r in runs):.2f} s"
            )
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
