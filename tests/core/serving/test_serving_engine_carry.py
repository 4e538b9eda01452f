"""The vLLM 0.6 class carried off the runs it was read from (issue 37, methodology section 8, "vLLM
0.6 out of sample"): its running share to the workload's lengths and spread, its compute figure
from the H100 it was read on to the bid's GPU. Every expected figure is worked here by hand:

- Lambda's runs (LambdaLabsML/vllm-benchmark benchmark_v0.md, the catalog's source): 5,000
  ShareGPT prompts of 205 in / 197 out on average, rated at a context spread of 1.0, with
  --num-scheduler-steps 10; running shares 0.81 (8B) and 0.85 (70B).
- Multi-step scheduling: a sequence that ends inside a pass of 10 steps keeps its slot to the
  pass's end, 4.5 steps on average, one decode token of compute each, against the prompt + output
  tokens of compute its request does: a gap of 4.5 / (prompt + output).
- The rest of the idle share is the batch draining over the spread of answer lengths: it scales
  with the spread and is nil at none (a fixed-length set).
- GPU carry: MosaicML llm-foundry's BF16 MFU, the same software on both, A100 80GB 53.33% against
  H100 42.57% (scripts/train/benchmarking/README.md; gpus.toml's bf16_mfu_vs_h100).
"""

from __future__ import annotations

import math

import pytest
from tests.core.serving.serving_builders import serving_bid_dict, serving_workload

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.engine_efficiency import EngineSpec, _check, engine_catalog
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.errors import InputError

LAMBDA_GAP = 4.5 / (205 + 197)  # 0.011194


def _share(read: float, prompt: float, output: float, spread: float) -> float:
    return 1 / (1 + 4.5 / (prompt + output) + (1 / read - 1 - LAMBDA_GAP) * spread / 1.0)


def test_the_running_share_is_as_read_on_the_runs_it_was_read_from():
    vllm = engine_catalog()["vllm-0.6"]
    assert vllm.running_share_at((205, 197, 1.0)) == pytest.approx((0.81, 0.85), rel=1e-12)
    # The multi-step gap alone, 4.5 / 402 = 1.1%, is a small part of the 15-19% idle share read:
    # the rest is the runs' long-tailed answers draining the batch.
    gap_only = vllm.running_share_at((205, 197, 0.0))
    assert gap_only == pytest.approx((1 / (1 + LAMBDA_GAP),) * 2, rel=1e-12)
    assert gap_only[0] == pytest.approx(0.98893, abs=1e-5)


def test_a_fixed_length_set_keeps_the_batch_full_but_for_the_multi_step_gap():
    vllm = engine_catalog()["vllm-0.6"]
    # The vLLM blog's decode-heavy set, about 462 in and 256 out, every answer the same length.
    low, high = vllm.running_share_at((462, 256, 0.0))
    assert low == high == pytest.approx(1 / (1 + 4.5 / 718), rel=1e-12)  # 0.99377
    assert low == pytest.approx(0.99377, abs=1e-5)


def test_half_the_spread_drains_half_as_much():
    vllm = engine_catalog()["vllm-0.6"]
    low, high = vllm.running_share_at((205, 197, 0.5))
    # 8B: 1 / (1 + 0.011194 + (0.234568 - 0.011194) x 0.5) = 1 / 1.122881
    assert low == pytest.approx(_share(0.81, 205, 197, 0.5), rel=1e-12)
    assert low == pytest.approx(1 / 1.122881, abs=1e-6)
    assert high == pytest.approx(_share(0.85, 205, 197, 0.5), rel=1e-12)


def test_the_tuned_class_runs_its_batch_full_at_any_shape():
    tuned = engine_catalog()["tensorrt-llm"]
    for shape in ((205, 197, 1.0), (462, 16, 0.0), (1000, 600, 3.0)):
        assert tuned.running_share_at(shape) == (1.0, 1.0)
        assert tuned.factors(None, shape) == (1.0, 1.0)


def _estimate(engine: str, gpu: str):
    workload = serving_workload(serving_engine=engine, precision="bf16", kv_cache_precision="bf16")
    return estimate_serving(workload, [Bid.model_validate(serving_bid_dict(gpu=gpu))]).bids[0]


def test_the_compute_figure_read_on_h100_carries_to_an_a100_by_its_published_mfu():
    a100, h100 = _estimate("vllm-0.6", "A100-80GB-SXM"), _estimate("vllm-0.6", "H100-SXM")
    assert a100.compute_efficiency / h100.compute_efficiency == pytest.approx(
        53.33 / 42.57, abs=5e-4
    )  # 1.2528
    assert a100.hbm_efficiency == h100.hbm_efficiency  # the bandwidth share is not carried
    # The tuned class is the defaults on every GPU (its figures are left as they are).
    tuned = _estimate("tensorrt-llm", "A100-80GB-SXM")
    assert (tuned.hbm_efficiency, tuned.compute_efficiency) == (0.7, 0.5)


def test_a_bad_reading_shape_is_refused_in_words():
    entry = engine_catalog()["vllm-0.6"].model_dump() | {"read_at": (205, 0, 1.0)}
    with pytest.raises(InputError, match=r"vllm-0\.6: read_at must be \[prompt >= 1"):
        _check(EngineSpec.model_validate(entry), "engines.toml")
    assert math.isfinite(_share(0.81, 1, 1, 10.0))
