"""Benchmark: open a 1,000-bid evaluation document (target under 0.5 s); run as a plain script."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "desktop"), str(ROOT / "tests" / "core" / "store")]

from builders import make_bid, make_evaluation  # noqa: E402

from clusterbid.core.store import EvaluationDocument, verify_audit_chain  # noqa: E402

BIDS = 1_000
TARGET_S = 0.5
RUNS = 10


def build(path: Path) -> None:
    """A realistic history: created with 50 bids, 950 added one edit (one commit) at a time, plus corrections."""
    with EvaluationDocument.create(path, make_evaluation(50), user="bench") as doc:
        for i in range(50, BIDS):
            doc.add_bid(make_bid(f"bid-{i}", price=f"{2 + i / 1000:.3f}", provider=f"Provider {i}"))
        for i in range(0, BIDS, 10):
            doc.replace_bid(f"bid-{i}", make_bid(f"bid-{i}", price="1.99", provider=f"Provider {i}"))


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "thousand.clusterbid"
        build_s = timed(lambda: build(path))

        def open_once() -> None:
            with EvaluationDocument.open(path) as doc:
                assert len(doc.evaluation.bids) == BIDS

        first = timed(open_once)
        runs = [timed(open_once) for _ in range(RUNS)]
        verify_s = timed(lambda: verify_audit_chain(path))
        size_mb = path.stat().st_size / 1e6
    median, worst = statistics.median(runs), max(runs)
    print(f"document: {BIDS} bids, {size_mb:.1f} MB, built with {BIDS - 50 + BIDS // 10 + 1} commits in {build_s:.1f} s "
          f"({build_s / (BIDS - 50 + BIDS // 10) * 1000:.1f} ms per committed edit)")
    print(f"open (integrity check + schema check + validate {BIDS} bids): first {first * 1000:.0f} ms, "
          f"median of {RUNS} {median * 1000:.0f} ms, worst {worst * 1000:.0f} ms (target < {TARGET_S * 1000:.0f} ms)")
    print(f"verify_audit_chain (hash chain + replay of {BIDS - 50 + BIDS // 10 + 1} rows): {verify_s * 1000:.0f} ms")
    ok = worst < TARGET_S
    print("PASS" if ok else "FAIL: opening is slower than the target")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
