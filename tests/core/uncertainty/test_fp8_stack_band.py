"""An unstated stack's FP8 band (issue 36 item 2): the gain goes with the stack's reach, and
stacks that cannot train in FP8 are left out.

Figures worked by hand from resources/catalog/stacks.toml: the published stacks reach 28.8%
(2021 Megatron, no FP8), 42.57% (llm-foundry, FP8 gain 1.31x) and 41-47% (Megatron-Core and NeMo,
NeMo's gain 1.75x) of the H100 BF16 peak; the published FP8 gains run from 1.25x to 1.75x, whose
geometric middle sqrt(1.25 x 1.75) = 1.479x is an unstated stack's point.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.core.costmodel.stack_efficiency import (
    baseline_reach,
    gain_follows_stack,
    stack_assumption,
    stack_catalog,
)
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.uncertainty.draw_setup import setup
from clusterbid.core.uncertainty.sampling import _common_draws
from clusterbid.core.uncertainty.spread_table import Spreads
from clusterbid.core.uncertainty.streams import STACK, WITH_STACK
from clusterbid.core.workload import Workload

Z90 = 1.2816  # the standard normal at a uniform of 0.9 (and minus it at 0.1)
BUYER = 0.42  # conftest's baseline MFU, BF16 on H100


def test_the_2021_stack_cannot_run_fp8_and_says_why():
    old = stack_catalog()["megatron-lm-2021"]
    assert not old.runs_fp8
    assert "Transformer Engine" in old.fp8_source
    assert all(spec.runs_fp8 for key, spec in stack_catalog().items() if key != old.id)


def test_an_fp8_band_reaches_down_to_the_slowest_fp8_stack_not_to_2021():
    down_bf16, up_bf16 = baseline_reach("not-stated", BUYER, "bf16")
    down_fp8, up_fp8 = baseline_reach("not-stated", BUYER, "fp8")
    # BF16: down to BLOOM's 28.8%; FP8: down to 41% (Megatron-Core and NeMo's low end).
    assert down_bf16 == pytest.approx(math.log(0.42 / 0.288) / Z90, rel=1e-3)
    assert down_fp8 == pytest.approx(math.log(0.42 / 0.41) / Z90, rel=1e-3)
    # The top is 47% either way.
    assert up_bf16 == up_fp8 == pytest.approx(math.log(0.47 / 0.42) / Z90, rel=1e-3)


def test_a_stated_stack_keeps_its_own_range_whatever_the_precision():
    assert baseline_reach("nemo-2024", BUYER, "fp8") == baseline_reach("nemo-2024", BUYER, "bf16")


def test_the_published_stacks_rank_the_same_on_reach_and_gain():
    # llm-foundry: 42.57% sums to 0.8514 over its ends, NeMo 0.41 + 0.47 = 0.88; gains 1.31 < 1.75.
    assert gain_follows_stack()


def _fp8_setup(stack: str):
    workload = workload_dict(precision="fp8", software_stack=stack)
    evaluation = Evaluation.model_validate(evaluation_dict([bid_dict()], workload=workload))
    drawn = setup(evaluation, 7, Spreads(), None)
    assert drawn is not None
    return drawn


def test_an_unstated_stack_draws_its_fp8_gain_from_the_stack_stream():
    drawn = _fp8_setup("not-stated")
    stack_key = ("baseline_mfu", STACK)
    gain_key = next(k for k in drawn.two_piece if k[1].endswith(WITH_STACK))
    common = _common_draws(drawn, 2000)
    stack_z, gain_z = common[stack_key], common[gain_key]
    # One draw sets both: same sign every time, so a fast stack never takes a low gain.
    assert np.array_equal(np.sign(stack_z), np.sign(gain_z))
    # At a uniform of 0.9 the draw takes the fastest FP8 stack (47%) and its gain, NeMo's 1.75x;
    # at 0.1 the slowest FP8 stack (41%) and the lowest gain, 1.25x. The common draw is scaled
    # to its side's share of the larger sigma, then times that sigma (sampling._factors).
    down_s, up_s = baseline_reach("not-stated", BUYER, "fp8")
    middle = math.sqrt(1.25 * 1.75)
    down_g, up_g = math.log(middle / 1.25) / Z90, math.log(1.75 / middle) / Z90
    ratio_stack, ratio_gain = drawn.two_piece[stack_key], drawn.two_piece[gain_key]
    for z, mfu, gain in ((Z90, 0.47, 1.75), (-Z90, 0.41, 1.25)):
        side = 1 if z > 0 else 0
        stack_factor = math.exp(z * ratio_stack[side] * max(down_s, up_s))
        gain_factor = math.exp(z * ratio_gain[side] * max(down_g, up_g))
        assert BUYER * stack_factor == pytest.approx(mfu, rel=2e-3)
        assert middle * gain_factor == pytest.approx(gain, rel=2e-3)


def test_a_stated_stack_without_its_own_gain_keeps_an_independent_gain_stream():
    drawn = _fp8_setup("megatron-core-2024")
    assert not any(owner.endswith(WITH_STACK) for _, owner in drawn.shared_gens)
    assert any(owner.endswith(":fp8 gain") for _, owner in drawn.shared_gens)


def test_the_stack_line_of_an_unstated_fp8_job_names_the_fp8_stacks_range():
    # BF16: 28.8% (BLOOM) to 47%; FP8 leaves BLOOM's generation out: 41% to 47%.
    bf16 = Workload.model_validate(workload_dict())
    fp8 = Workload.model_validate(workload_dict(precision="fp8"))
    assert "any published stack, 29%-47%" in stack_assumption(bf16)[1]
    assert "any published stack that can train in FP8, 41%-47%" in stack_assumption(fp8)[1]


def test_the_printed_spread_adds_the_gain_to_the_stack_not_in_quadrature():
    # Unstated FP8 on H100, buyer 42%: stack up ln(0.47/0.42)/1.2816 = 0.0878, gain up
    # ln(1.75/1.479)/1.2816 = 0.1312, moving together: 0.219; with the GPU type's 0.15 and the
    # market's 0.10 (spreads.MFU_SIGMA, MARKET_MFU_SIGMA): sqrt(0.15^2 + 0.10^2 + 0.219^2) = 0.284.
    from clusterbid.core.uncertainty.presentation import _spread_words

    item = _fp8_setup("not-stated").described[0][1]
    up = math.log(0.47 / 0.42) / Z90 + math.log(1.75 / math.sqrt(1.25 * 1.75)) / Z90
    assert f"{math.sqrt(0.15**2 + 0.10**2 + up**2):.0%} up" in _spread_words(item)


def test_a_stated_stack_without_fp8_says_so_in_the_gain_words():
    """A 2021-era Megatron stated for an FP8 job is priced with the borrowed gain, and the words
    say the stack cannot train in FP8 (they said only "stack's own not published")."""
    from clusterbid.core.catalog import default_catalog
    from clusterbid.core.costmodel.stack_efficiency import fp8_gain

    gain, words = fp8_gain("megatron-lm-2021", default_catalog().gpu("H100-SXM"))
    assert 1.25 < gain < 1.75  # the middle of the published gains, not a gain of its own
    assert "cannot train in FP8" in words and "Transformer Engine" in words
