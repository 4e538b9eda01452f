"""The software stack as a workload input (issue 36 item 1): per-stack efficiency from published
sources; "not stated" widens the band by the documented spread across stacks instead of guessing,
a stated stack keeps its own range (and its own FP8 gain where it publishes one)."""

from __future__ import annotations

import math
import typing
from dataclasses import replace

import numpy as np
import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.costmodel.stack_efficiency import baseline_sigma, stack_catalog
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.provenance_lines import workload_lines
from clusterbid.core.stack_names import STACK_WORDS, SoftwareStack
from clusterbid.core.uncertainty.montecarlo import run_monte_carlo
from clusterbid.core.uncertainty.sampling import chunks, setup
from clusterbid.core.uncertainty.spreads import MARKET_MFU_SIGMA, MFU_SIGMA, Spreads
from clusterbid.core.uncertainty.streams import STACK, WITH_STACK
from clusterbid.core.workload import Workload

P90_Z = 1.2816
# Published figures, from the sources the catalog names (independent of this test's arithmetic):
# BLOOM-176B, Megatron-DeepSpeed: about 150 TFLOP/s per A100 counted with recomputation (x 3/4 as
# model FLOPs) over the A100's 312 peak, carried to H100 by llm-foundry's A100/H100 factor 1.253.
BLOOM_H100 = 150 * 0.75 / 312 / 1.253
MEGATRON_CORE = (0.41, 0.47)  # Megatron-LM README: 41% to 47% MFU on H100
NEMO_FP8_TFLOPS = (770, 755, 767, 760, 763)  # NeMo 24.07 performance summary, FP8, DGX H100
# torchao's float8 README, torchtitan Llama3-8B on 8 H100: tokens/s in float8 and in BF16
TORCHAO_8B_FP8, TORCHAO_8B_BF16 = 7689.5, 6150


def _workload(**changes) -> Workload:
    return Workload.model_validate(workload_dict(**changes))


def _mfu_input(workload: Workload):
    data = evaluation_dict([bid_dict()])
    data["workload"] = workload.model_dump(mode="json", exclude_unset=True)
    drawn = setup(Evaluation.model_validate(data), 1, Spreads(), None)
    assert drawn is not None
    return next(i for i in drawn.described[0] if i.name == "baseline_mfu")


def test_every_stack_choice_has_published_figures_with_a_source_and_words():
    choices = set(typing.get_args(SoftwareStack))
    assert set(stack_catalog()) == choices - {"not-stated"}
    assert set(STACK_WORDS) == choices
    for spec in stack_catalog().values():
        assert len(spec.source) > 60 and any(ch.isdigit() for ch in spec.source)
    assert stack_catalog()["megatron-lm-2021"].h100_bf16_mfu[0] == pytest.approx(
        BLOOM_H100, abs=5e-4
    )
    assert stack_catalog()["megatron-core-2024"].h100_bf16_mfu == MEGATRON_CORE


def test_not_stated_is_the_default_and_widens_the_shared_band_to_reach_every_published_stack():
    assert _workload().software_stack == "not-stated"
    # Across published stacks: BLOOM's 28.8% to Megatron-Core's 47%, ends at P10 and P90.
    spread = math.log(0.47 / BLOOM_H100) / (2 * P90_Z)
    assert baseline_sigma("not-stated") == pytest.approx(spread, rel=2e-3)
    # From the buyer's 42%: down to 28.8% at P10, up to 47% at P90, one stream for every bid.
    down, up = math.log(0.42 / BLOOM_H100) / P90_Z, math.log(0.47 / 0.42) / P90_Z
    silent = _mfu_input(_workload())
    # (the catalog rounds BLOOM's 28.78% to 28.8%)
    assert dict(silent.shared_streams)[STACK] == pytest.approx(down, rel=5e-3)
    (owner, drawn_down, drawn_up), *_ = silent.two_piece
    assert owner == STACK
    assert (drawn_down, drawn_up) == pytest.approx((down, up), rel=5e-3)
    expected = math.sqrt(MARKET_MFU_SIGMA**2 + down**2 + MFU_SIGMA[None] ** 2)
    assert silent.shared_sigma == pytest.approx(expected, rel=5e-3)
    # Stated: Megatron-Core's own 41-47% range only.
    own = math.log(0.47 / 0.41) / (2 * P90_Z)
    stated = _mfu_input(_workload(software_stack="megatron-core-2024"))
    expected = math.hypot(math.hypot(MARKET_MFU_SIGMA, own), MFU_SIGMA[None])
    assert stated.shared_sigma == pytest.approx(expected, rel=1e-9)
    assert stated.shared_sigma < silent.shared_sigma


def test_the_two_piece_draw_puts_each_published_end_at_its_percentile():
    # Only the stack's draw: the sampled MFU factors' P10 and P90 are 28.8% / 42% and 47% / 42%.
    data = evaluation_dict([bid_dict()], workload=workload_dict(precision="bf16"))
    evaluation = Evaluation.model_validate(data)
    only_stack = replace(Spreads.zero(), stack_spread_scale=1.0)
    drawn = setup(evaluation, 7, only_stack, None)
    assert drawn is not None
    factors = next(f for _, _, f, _ in chunks(drawn, 40_000, keep_factors=True))["baseline_mfu"]
    low, high = np.percentile(factors[0], [10, 90])
    assert low == pytest.approx(BLOOM_H100 / 0.42, rel=0.01)
    assert high == pytest.approx(0.47 / 0.42, rel=0.01)


def test_the_band_is_wider_unstated_than_stated_and_the_bf16_point_is_the_buyer_s():
    def band(stack: str) -> tuple[float, float, float]:
        data = evaluation_dict([bid_dict()], workload=workload_dict(software_stack=stack))
        evaluation = Evaluation.model_validate(data)
        point = estimate_training(evaluation.workload, evaluation.bids).bids[0].wall_hours
        found = run_monte_carlo(evaluation, 2000, seed=3, precision=None).bids["b1"]
        return found.hours_p10, point, found.hours_p90

    low_n, point_n, high_n = band("not-stated")
    low_s, point_s, high_s = band("megatron-core-2024")
    assert point_n == point_s  # BF16: the buyer's baseline stands; only the doubt differs
    assert high_n / low_n > high_s / low_s


def test_a_stated_stack_s_own_fp8_gain_replaces_the_middle_of_the_published_gains():
    bid = Bid.model_validate(bid_dict())
    nemo_gain = (sum(NEMO_FP8_TFLOPS) / 5 / 989) / math.sqrt(0.41 * 0.47)  # about 1.75
    assert stack_catalog()["nemo-2024"].fp8_speedup_over_bf16 == pytest.approx(nemo_gain, abs=0.01)
    # Without a stack's own gain: the middle (geometric) of the published range, from torchao's
    # Llama3-8B (7,689.5 against 6,150 tokens/s) to NeMo's 1.75x; llm-foundry states its own.
    low, high = TORCHAO_8B_FP8 / TORCHAO_8B_BF16, 1.75
    middle = math.sqrt(low * high)  # about 1.48
    for stack, gain in (
        ("nemo-2024", 1.75),
        ("llm-foundry-2023", 1.31),
        ("not-stated", middle),
        ("megatron-core-2024", middle),
    ):
        e = estimate_training(_workload(precision="fp8", software_stack=stack), [bid]).bids[0]
        # MFU of the FP8 peak (1,979): 0.42 x gain / (1,979 / 989)
        assert e.spec_baseline_mfu == pytest.approx(0.42 * gain * 989 / 1979, rel=1e-3)
    # Unstated FP8 also doubts the gain: the lowest published at P10, the highest at P90, on one
    # stream per GPU type, drawn from the stack's own numbers (WITH_STACK: it follows the stack).
    fp8 = _mfu_input(_workload(precision="fp8"))
    pieces = dict((owner, (down, up)) for owner, down, up in fp8.two_piece)
    assert pieces["gpu:H100-SXM:fp8:fp8 gain" + WITH_STACK] == pytest.approx(
        (math.log(middle / low) / P90_Z, math.log(high / middle) / P90_Z), abs=2e-3
    )


def test_the_memo_labels_the_stack_as_the_buyer_s_statement_or_the_default():
    bid = Bid.model_validate(bid_dict())
    for workload, said in (
        (_workload(), "Not stated (ClusterBid's default)"),
        (_workload(software_stack="megatron-lm-2021"), "(the buyer's statement)"),
    ):
        e = estimate_training(workload, [bid]).bids[0]
        row = next(a for a in bid_assumptions(e, workload) if a.name == "Software stack")
        assert said in row.value
        assert "provider" not in row.value
    row_text = " ".join(workload_lines(_workload()))
    assert "software stack = Not stated" in row_text and "29%-47%" in row_text
    stated = " ".join(workload_lines(_workload(software_stack="nemo-2024")))
    assert "NVIDIA NeMo 24.x (FP8)" in stated and "the buyer" in stated


def test_an_unknown_stack_is_refused_naming_the_field_and_the_choices():
    with pytest.raises(ValueError, match="software_stack") as found:
        _workload(software_stack="deepspeed-2019")
    assert "megatron-core-2024" in str(found.value)


def test_every_published_fp8_gain_names_its_run_and_source_and_bad_entries_are_refused(
    monkeypatch, tmp_path
):
    import clusterbid.core.costmodel.fp8_published as published
    from clusterbid.core.errors import InputError

    gains = published.published_fp8_gains()
    assert all(len(g.source) > 40 and g.stack and g.params_billions > 0 for g in gains)
    # The range's ends are torchao's Llama3-8B and NeMo's table, recomputed from their figures.
    assert published.published_fp8_range() == pytest.approx(
        (TORCHAO_8B_FP8 / TORCHAO_8B_BF16, nemo := 1.75), abs=5e-3
    )
    assert nemo == stack_catalog()["nemo-2024"].fp8_speedup_over_bf16
    bad = tmp_path / "stacks.toml"
    bad.write_text('[[fp8_gain]]\nmodel = "X-1B"\nparams_billions = 1\ngain = 3.0\n', "utf-8")
    monkeypatch.setattr(published, "resource_path", lambda *parts: bad)
    published.published_fp8_gains.cache_clear()
    try:
        with pytest.raises(InputError, match=r"stacks.toml \[\[fp8_gain\]\] #1: .*gain"):
            published.published_fp8_gains()
        bad.write_text("", "utf-8")
        published.published_fp8_gains.cache_clear()
        with pytest.raises(InputError, match="no \\[\\[fp8_gain\\]\\] entry"):
            published.published_fp8_gains()
    finally:
        monkeypatch.undo()
        published.published_fp8_gains.cache_clear()


def test_the_officer_reads_whose_fp8_gain_the_estimate_carries():
    bid = Bid.model_validate(bid_dict())
    for stack, words in (
        ("not-stated", "FP8 gain 1.48x, the middle of the published H100 gains, 1.25x-1.75x"),
        ("nemo-2024", "FP8 gain 1.75x, the stack's own (BF16: Megatron-Core"),
    ):
        workload = _workload(precision="fp8", software_stack=stack)
        e = estimate_training(workload, [bid]).bids[0]
        row = next(a for a in bid_assumptions(e, workload) if a.name == "Baseline MFU")
        assert words in row.source
