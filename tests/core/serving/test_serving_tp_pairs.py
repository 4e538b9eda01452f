"""The TP-pairs validation script's arithmetic (issue 37, target d): the engine's move over the
model's per doubling is the ratio of predicted / published at the two degrees, worked by hand."""

from __future__ import annotations

import pytest
from tests.validation.serving_tp_pairs import PUBLISHED, V020, doublings, ratios_by_degree


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
