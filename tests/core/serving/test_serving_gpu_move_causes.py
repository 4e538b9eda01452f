"""The GPU-move analysis of the TP-pairs script (issue 37): the KV rule of TensorRT-LLM's
GUARANTEED_NO_EVICT scheduler and the KV pool implied by the H100 TP1 runs, worked by hand from
the spec sheet and the published figure; the methodology's figures are the script's."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest
from tests.conftest import REPO
from tests.validation import serving_gpu_move_causes as causes
from tests.validation.serving_tp_pairs import V014, V020
from tests.validation.serving_validation import geometric_error

import clusterbid.core.costmodel.serving_replica as serving_replica

# Llama 3.1/3.3 70B (config.json: 80 layers, 8 KV heads of 128) with an FP8 KV cache, 1 byte:
KV_BYTES_PER_TOKEN = 2 * 80 * 8 * 128 * 1  # 163,840
# H100 SXM datasheet 3.35 TB/s at the default 70% of peak; 70.6e9 FP8 weights, 1 byte each.
H100_BANDWIDTH = 3.35e12 * 0.7
WEIGHTS = 70.6e9


def test_kv_held_to_completion_counts_prompt_plus_output_and_restores_the_rule():
    original = serving_replica.kv_tokens_held
    scalars = SimpleNamespace(context_tokens=1000 + 2000)
    with causes.kv_held_to_completion():
        held = serving_replica.kv_tokens_held(scalars, np.array([10.0]))  # type: ignore[arg-type]
    assert held.tolist() == [30_000.0]
    assert serving_replica.kv_tokens_held is original


def test_the_h100_tp1_pool_is_the_batch_the_published_rate_needs_worked_by_hand():
    # 128/2048 at 756.42 tok/s (v0.20, H100 TP1). A step reads the weights (30.1 ms; the matmuls
    # of ~26 tokens take ~3.6 ms at 50% of 1,979 TFLOPS and hide under it) and each sequence's KV
    # of 128 + 2048/2 tokens; no all-reduce at TP1. rate = B / (w + B k) solved for B.
    w = WEIGHTS / H100_BANDWIDTH
    k = KV_BYTES_PER_TOKEN * (128 + 1024) / H100_BANDWIDTH
    assert w > 2 * WEIGHTS * 25 * (1 + 128 / 2048) / (1979e12 * 0.5)
    rate = 756.42
    batch = rate * w / (1 - rate * k)
    assert batch == pytest.approx(24.25, abs=0.01)
    implied = causes.implied_kv_pool((128, 2048), rate)
    assert implied[0] == pytest.approx(batch, rel=2e-3)
    assert implied[1] == pytest.approx(implied[0] * (128 + 2048))
    assert implied[2] == pytest.approx(implied[0] * (128 + 1024))


def test_the_model_s_own_pool_at_h100_tp1_is_what_is_left_beside_the_weights():
    # 0.9 x 80 GB usable less 70.6 GB of weights = 1.4 GB, at 163,840 bytes a token.
    assert causes._model_pool_tokens() == pytest.approx(1.4e9 / KV_BYTES_PER_TOKEN)


def _text() -> str:
    return " ".join((REPO / "resources" / "methodology.md").read_text(encoding="utf-8").split())


def test_the_methodology_s_gpu_move_figures_are_the_script_s():
    text = _text()
    found = re.search(
        r"Counting the KV at prompt \+ output takes the GPU move to ([\d.]+) \(v0\.20\) and "
        r"([\d.]+) \(v0\.14\)",
        text,
    )
    assert found, "the methodology no longer states the KV-held-to-completion move"
    with causes.kv_held_to_completion():
        moves = causes.gpu_moves_by_lengths()
    for source, stated in ((V020, found.group(1)), (V014, found.group(2))):
        values = [m for (s, _), v in moves.items() if s == source for m in v]
        assert round(geometric_error(values)[0], 3) == float(stated)
    clocks = re.search(r"compute-bound, move ([\d.]+) over (\d+) pairs", text)
    assert clocks
    short = [
        m for (_, (_, out)), v in causes.gpu_moves_by_lengths().items() if out <= 128 for m in v
    ]
    assert (round(geometric_error(short)[0], 3), len(short)) == (
        float(clocks.group(1)),
        int(clocks.group(2)),
    )
