"""The TP-pairs validation script's arithmetic (issue 37, target d): the engine's move over the
model's per doubling is the ratio of predicted / published at the two degrees, worked by hand."""

from __future__ import annotations

import re

import pytest
from tests.conftest import REPO
from tests.validation.serving_tp_pairs import (
    PUBLISHED,
    V014,
    V020,
    doublings,
    gpu_moves,
    ratios_by_degree,
    tp_moves,
    validation_carries,
)
from tests.validation.serving_validation import geometric_error


def test_a_doubling_is_the_ratio_of_the_two_degrees_ratios():
    # Hand-made: the model 10% optimistic at TP1, 21% at TP2, 21% at TP4 (no TP8 published).
    by_tp = {1: (100.0, 1.10), 2: (90.0, 1.21), 4: (80.0, 1.21)}
    assert doublings(by_tp) == [(1, pytest.approx(1.1)), (2, pytest.approx(1.0))]


def test_a_gap_in_the_degrees_is_not_a_doubling():
    assert doublings({2: (1.0, 1.0), 8: (1.0, 2.0)}) == []


def test_the_published_figure_is_per_gpu_of_the_tp_gpus():
    # TensorRT-LLM v0.20 perf-overview, Llama 3.3 70B FP8, H200 TP2 at 1000/1000: 5,119.72 tok/s
    # over the two GPUs of the replica, 2,559.86 each.
    by_tp = ratios_by_degree(
        V020, "H200-SXM", (1000, 1000), PUBLISHED[V020, "H200-SXM", (1000, 1000)]
    )
    assert by_tp[2][0] == pytest.approx(5119.72 / 2)
    assert by_tp[8][0] == pytest.approx(12744.51 / 8)
    assert all(0.5 < ratio < 2.0 for _, ratio in by_tp.values())


def _stated(pattern: str) -> tuple[str, ...]:
    text = " ".join((REPO / "resources" / "methodology.md").read_text(encoding="utf-8").split())
    found = re.search(pattern, text)
    assert found, f"the methodology no longer says: {pattern}"
    return found.groups()


def test_the_methodology_s_tp_pair_figures_are_the_script_s():
    """Section 8's out-of-sample figures (issue 37, target d) are what the script works out."""
    count, mean, error = _stated(
        r"Over (\d+) doublings .*? it is ([\d.]+) \(geometric mean;.*?A factor carried one "
        r"doubling on the same GPU misses by (\d+)%"
    )
    every = [m for steps in tp_moves().values() for _, m in steps]
    assert len(every) == int(count)
    assert round(geometric_error(every)[0], 2) == float(mean)
    assert round(geometric_error(every)[1] * 100) == int(error)
    v020, n020, v014, n014 = _stated(
        r"relative to the H200 \(v0\.20 ([\d.]+) over (\d+) pairs, [\d.-]+; v0\.14 ([\d.]+) over "
        r"(\d+),"
    )
    for source, mean_text, n in ((V020, v020, n020), (V014, v014, n014)):
        moves = [m for (s, _), by_tp in gpu_moves().items() if s == source for m in by_tp.values()]
        assert len(moves) == int(n)
        assert round(geometric_error(moves)[0], 3) == float(mean_text)
    carry, pairs = _stated(r"reads ([\d.]+) in these sources \((\d+) pairs")
    carries = validation_carries()
    assert (round(geometric_error(carries)[0], 2), len(carries)) == (float(carry), int(pairs))
