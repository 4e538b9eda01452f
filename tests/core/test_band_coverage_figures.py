"""The band coverage methodology section 10 prints is what the validation script computes
(issue 36 item 2): published figures inside the spec-only P10-P90, per GPU type, and the point
error, read from the text and recomputed (the Monte Carlo is seeded, so the count is exact), with
the software stack not stated and with each row naming the stack it ran (issue 36 item 1)."""

from __future__ import annotations

import re

import pytest
from tests.conftest import REPO
from tests.validation.published_figures import coverage

METHODOLOGY = " ".join((REPO / "resources" / "methodology.md").read_text(encoding="utf-8").split())
FIGURES = (
    r"A100 BF16 (\d+)% inside over (\d+) rows \(point error ([\d.]+)%\), H100 BF16 (\d+)% over "
    r"(\d+) \(([\d.]+)%\), H100 FP8 (\d+)% over (\d+) \(([\d.]+)%\); all rows (\d+)% over (\d+) "
    r"\(([\d.]+)%\)"
)
LEADS = {
    False: r"With the stack not stated \([^)]*\): ",
    True: r"With each row naming the stack it ran [^:]*: ",
}


@pytest.mark.parametrize("stated", [False, True])
def test_section_10_coverage_figures_are_the_scripts(stated):
    found = re.search(LEADS[stated] + FIGURES, METHODOLOGY)
    assert found, "methodology section 10 no longer states the band coverage"
    printed = [found.groups()[i : i + 3] for i in range(0, 12, 3)]
    computed = coverage(stated)
    for (share, rows, point), name in zip(
        printed, ("A100-80GB-SXM bf16", "H100-SXM bf16", "H100-SXM fp8", "all rows"), strict=True
    ):
        inside, total, error = computed[name]
        assert (round(100 * inside / total), total, round(100 * error, 1)) == (
            int(share),
            int(rows),
            float(point),
        )


def test_naming_the_stack_narrows_the_point_error_and_keeps_the_coverage():
    unstated, stated = coverage(False)["all rows"], coverage(True)["all rows"]
    assert stated[2] < unstated[2]
    assert stated[0] >= unstated[0]


def test_the_readme_s_coverage_figure_is_the_scripts():
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    found = re.search(r"stack unnamed: (\d+)% of (\d+) published figures inside", readme)
    assert found, "the README no longer states the band coverage (issue 36's Tests line)"
    inside, rows, _ = coverage(False)["all rows"]
    assert (int(found.group(1)), int(found.group(2))) == (round(100 * inside / rows), rows)
