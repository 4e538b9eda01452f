"""The band coverage methodology section 10 prints is what the validation script computes
(issue 36 item 2): published figures inside the spec-only P10-P90, per GPU type, and the point
error, read from the text and recomputed (the Monte Carlo is seeded, so the count is exact)."""

from __future__ import annotations

import re

from tests.conftest import REPO
from tests.validation.published_figures import coverage

METHODOLOGY = " ".join((REPO / "resources" / "methodology.md").read_text(encoding="utf-8").split())


def test_section_10_coverage_figures_are_the_scripts():
    found = re.search(
        r"Today: A100 BF16 (\d+)% inside over (\d+) rows \(point error ([\d.]+)%\), H100 BF16 "
        r"(\d+)% "
        r"over (\d+) \(([\d.]+)%\), H100 FP8 (\d+)% over (\d+) \(([\d.]+)%\); all rows (\d+)% over "
        r"(\d+) "
        r"\(([\d.]+)%\)",
        METHODOLOGY,
    )
    assert found, "methodology section 10 no longer states the band coverage"
    stated = [found.groups()[i : i + 3] for i in range(0, 12, 3)]
    computed = coverage()
    for (share, rows, point), name in zip(
        stated, ("A100-80GB-SXM bf16", "H100-SXM bf16", "H100-SXM fp8", "all rows"), strict=True
    ):
        inside, total, error = computed[name]
        assert (round(100 * inside / total), total, round(100 * error, 1)) == (
            int(share),
            int(rows),
            float(point),
        )
