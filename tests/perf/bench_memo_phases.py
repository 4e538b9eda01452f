"""Benchmark: where the memo's CPU seconds go at 500 bids, phase by phase, in one process (issue
32). CPU seconds, not wall time: they hold on a shared machine far better. The whole
`clusterbid memo` command (start-up included) against an anchor is bench_memo.py.

Phases: the memo's content (every bid's page in words), the story (reportlab's flowables),
the layout and drawing of the pages (reportlab's build), the charts, and the finishing touches
(attachments, fields, PDF/A). `--samples 0`: no Monte Carlo, as bench_memo's layout figure.

Run: PYTHONPATH=desktop:. python tests/perf/bench_memo_phases.py [--bids N] [--runs N]
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "desktop"), str(ROOT)]
os.environ.setdefault("CLUSTERBID_CHART_CACHE", "off")  # every chart drawn: a first export

from tests.core.memo.many_bids import demo_copies  # noqa: E402

from clusterbid.cli import main as cli_main  # noqa: E402
from clusterbid.core.memo import content, render  # noqa: E402

SPENT: dict[str, float] = collections.defaultdict(float)


def timed(module: object, name: str, phase: str) -> None:
    """Count the CPU seconds of module.name under `phase` (nested phases are taken out below)."""
    original = getattr(module, name)

    def counting(*args: object, **kwargs: object) -> object:
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            SPENT[phase] += time.process_time() - start

    setattr(module, name, counting)


def memo(source: Path, output: Path) -> float:
    start = time.process_time()
    code = cli_main(
        ["memo", str(source), "-o", str(output), "--samples", "0", "--approver", "Ada Lovelace, "
         "CFO", "--approver", "Grace Hopper, Head of ML platform", "--tradeoff-rationale",
         "Benchmark run: the weights as agreed."]
    )  # fmt: skip
    assert code == 0
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bids", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    timed(content.MemoContent, "from_scorecard", "content")
    timed(render, "build_story", "story")
    timed(render, "_story_pdf", "story and pages")
    timed(render, "chart_images", "charts")
    timed(render, "_finish", "finishing")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / f"bids-{args.bids}.json"
        source.write_text(demo_copies(args.bids).model_dump_json(), encoding="utf-8")
        memo(source, Path(folder) / "warm.pdf")  # imports and catalogs: not the memo's own work
        totals, phases = [], collections.defaultdict(list)
        for run in range(args.runs):
            SPENT.clear()
            totals.append(memo(source, Path(folder) / f"memo-{run}.pdf"))
            for phase, seconds in SPENT.items():
                phases[phase].append(seconds)
    pages = [s - t for s, t in zip(phases["story and pages"], phases["story"])]
    print(f"{args.bids}-bid memo, --samples 0, CPU seconds (median of {args.runs}, one process):")
    print(f"  whole memo       {statistics.median(totals):6.2f}")
    for phase in ("content", "story", "charts", "finishing"):
        print(f"  {phase:16s} {statistics.median(phases[phase]):6.2f}")
    print(f"  pages (layout)   {statistics.median(pages):6.2f}")
    print(f"load average now: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
