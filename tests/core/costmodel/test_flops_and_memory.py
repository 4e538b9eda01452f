"""Attention FLOPs, recomputation (MFU vs HFU), width and the activation memory gate, against
public figures named in each test."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.flops import width_efficiency
from clusterbid.core.workload import Workload


def _estimate(workload: dict, bid: dict | None = None):
    return estimate_training(
        Workload.model_validate(workload), [Bid.model_validate(bid or bid_dict())]
    ).bids[0]


def _megatron_params(layers: int, hidden: int, vocab: int, seq: int) -> float:
    # Narayanan et al. (SC21), section 5.1: P = 12 l h^2 (1 + 13/12h + (V+s)/12lh).
    return (
        12 * layers * hidden**2 * (1 + 13 / (12 * hidden) + (vocab + seq) / (12 * layers * hidden))
    )


def test_attention_term_matches_megatrons_count_for_gpt3_175b():
    # GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, d_model 12,288, context 2,048.
    # Megatron's FLOPs per step, 72 B s l h^2 (1 + s/6h + V/16lh) without recomputation, has
    # attention share s/6h = 2048 / 73,728 = 2.78% on top of the weight matmuls; ours is
    # 12 l s h / 6N with N = 175e9: 2 x 96 x 2048 x 12288 / 175e9 = 2.761%.
    arch = {
        "num_layers": 96,
        "hidden_size": 12288,
        "total_params_billions": 175,
        "active_params_billions": 175,
        "sequence_length": 2048,
        "global_batch_tokens": 1536 * 2048,
        "tensor_parallel": 8,
        "pipeline_parallel": 8,
        "job_gpus": 1536,
    }
    with_attention = _estimate(workload_dict(**arch))
    without = _estimate(workload_dict(**{**arch, "num_layers": None, "hidden_size": None}))
    assert with_attention.compute_s / without.compute_s == pytest.approx(
        1 + 2 * 96 * 2048 * 12288 / 175e9, rel=1e-9
    )
    assert with_attention.compute_s / without.compute_s == pytest.approx(
        1 + 2048 / (6 * 12288), rel=2e-3
    )


def test_long_context_attention_is_two_thirds_more_compute_at_32k():
    # The figure: 6ND understates compute by s/6h; a model of Megatron's shape
    # (N = 12 l h^2, Llama-2-70B's 80 layers and width 8,192) at 32,768 tokens: 32768/49152 = 2/3.
    n = 12 * 80 * 8192**2
    arch = {
        "num_layers": 80,
        "hidden_size": 8192,
        "total_params_billions": n / 1e9,
        "active_params_billions": n / 1e9,
        "sequence_length": 32768,
        "global_batch_tokens": 128 * 32768,
    }
    with_attention = _estimate(workload_dict(**arch))
    without = _estimate(workload_dict(**{**arch, "num_layers": None, "hidden_size": None}))
    assert with_attention.compute_s / without.compute_s == pytest.approx(1 + 2 / 3, rel=1e-9)
    # The job's total FLOPs carry the same term: more hours to finish.
    assert with_attention.run_hours > 1.6 * without.run_hours


def test_megatron_table_1_counts_hardware_flops_with_full_recomputation():
    # Narayanan et al. (SC21), appendix: forward 24Bslh^2 + 4Bs^2lh per layer, backward twice
    # that, full recomputation one forward more: 96Bslh^2(1 + s/6h + V/16lh) is 4/3 of the model
    # FLOPs (the logits layer, 6BshV, is not recomputed). For the 1T row (128 layers, h 25,600,
    # V 51,200, s 2,048) our hardware count 4/3 (6N + 12lsh) per token is within 1% of theirs.
    layers, hidden, vocab, seq = 128, 25600, 51200, 2048
    n = _megatron_params(layers, hidden, vocab, seq)
    theirs = (
        96 * seq * layers * hidden**2 * (1 + seq / (6 * hidden) + vocab / (16 * layers * hidden))
    )
    w = Workload.model_validate(
        workload_dict(
            num_layers=layers,
            hidden_size=hidden,
            sequence_length=seq,
            total_params_billions=n / 1e9,
            active_params_billions=n / 1e9,
            global_batch_tokens=3072 * seq,
            job_gpus=3072,
            tensor_parallel=8,
            pipeline_parallel=64,
            activation_recomputation="full",
        )
    )
    from clusterbid.core.costmodel.inputs import WorkloadScalars

    scalars = WorkloadScalars.from_workload(w)
    assert scalars.hardware_flops_ratio == pytest.approx(4 / 3)
    ours = scalars.model_flops_per_token * scalars.hardware_flops_ratio * seq
    assert ours == pytest.approx(theirs, rel=0.01)


def test_an_hfu_figure_is_converted_to_mfu_by_the_recomputation():
    # llm-foundry (scripts/train/benchmarking/README.md, H100 80GB BF16): MPT-70B at 64 GPUs with
    # activation checkpointing reports MFU 42.57% and HFU 56.76% (56.76 / 42.57 = 1.3333).
    arch = {"num_layers": 80, "hidden_size": 8192, "activation_recomputation": "full"}
    as_mfu = _estimate(workload_dict(**arch, baseline_mfu=0.4257))
    as_hfu = _estimate(workload_dict(**arch, baseline_mfu=0.5676, baseline_flops_basis="hardware"))
    assert as_hfu.baseline_mfu == pytest.approx(0.4257, rel=2e-4)
    assert as_hfu.step_s == pytest.approx(as_mfu.step_s, rel=2e-4)


def test_selective_recomputation_repeats_only_the_attention_matmuls():
    # 70B, 80 layers, h 8,192, s 4,096: attention 12 l s h = 3.2212e10 FLOPs per token over model
    # 6N + 12lsh = 4.5221e11; selective recomputation repeats its forward third: HFU/MFU = 1.02374.
    attention = 12 * 80 * 4096 * 8192
    expected = 1 + attention / 3 / (6 * 70e9 + attention)
    arch = {"num_layers": 80, "hidden_size": 8192, "activation_recomputation": "selective"}
    as_hfu = _estimate(workload_dict(**arch, baseline_mfu=0.42, baseline_flops_basis="hardware"))
    assert as_hfu.baseline_mfu == pytest.approx(0.42 / expected, rel=1e-9)
    assert expected == pytest.approx(1.02374, abs=1e-5)


# Llama 3 405B (Dubey et al. 2024, "The Llama 3 Herd of Models"): Table 3, 126 layers, model
# dimension 16,384; Table 4, the long-context stage at sequence 131,072 on 16,384 GPUs with TP 8,
# CP 16, PP 16, DP 4.
LLAMA3_LONG = {
    "total_params_billions": 405,
    "active_params_billions": 405,
    "num_layers": 126,
    "hidden_size": 16384,
    "sequence_length": 131072,
    "job_gpus": 16384,
    "tensor_parallel": 8,
    "pipeline_parallel": 16,
    "context_parallel": 16,
    "global_batch_tokens": 128 * 131072,
    "micro_batch_size": 1,
}
BIG_BID = bid_dict(
    capacity={"gpus_offered": 16384, "largest_contiguous_block_gpus": 16384},
    topology={"leaf_domain_gpus": 16384},
)


def test_the_published_long_context_layout_fits_with_full_recomputation():
    e = _estimate(workload_dict(**LLAMA3_LONG, activation_recomputation="full"), BIG_BID)
    # Model state: 405e9/(8 x 16) params x (2 + 4 + 12/4) bytes = 28.48 GB. Activations: each of
    # the 126 layers keeps its input, 2 x (131072/16) x 16384 / 8 bytes = 33.6 MB, for the 16
    # micro-batches in flight on the first stage (126/16 layers each), plus one rebuilt layer,
    # 34 x 8192 x 16384 / 8 = 570 MB: 4.80 GB. 33.3 GB in all fits 80 GB.
    assert not [
        g for g in e.gates if g.code in ("activations_exceed_hbm", "model_state_exceeds_hbm")
    ]


def test_a_long_context_layout_that_cannot_fit_fails_the_gate_with_the_reason():
    # The same model without context parallelism: DP 128, so each pipeline runs one micro-batch
    # of 128 sequences a step; the first stage's 126/16 layers each keep 34 x 131072 x 16384 / 8
    # bytes = 9.13 GB: 71.9 GB of activations, beside 405e9/128 x (2 + 4 + 12/128) = 19.3 GB of
    # model state: 91.2 GB.
    layout = {**LLAMA3_LONG, "context_parallel": 1, "activation_recomputation": "selective"}
    e = _estimate(workload_dict(**layout), BIG_BID)
    gate = next(g for g in e.gates if g.code == "activations_exceed_hbm")
    activations = 126 / 16 * 1 * 34 * 131072 * 16384 / 8 / 1e9
    state = 405e9 / 128 * (2 + 4 + 12 / 128) / 1e9
    assert f"model state {state:.1f} GB plus activations {activations:.1f} GB" in gate.message
    assert f"need {state + activations:.1f} GB per GPU" in gate.message
    assert "sequence 131,072" in gate.message and "recompute activations (full)" in gate.message
    assert "80 GB of HBM" in gate.message
    # And the published CP 16 without recomputation: 126 layers x 570 MB = 71.8 GB + 28.5 > 80.
    no_recompute = _estimate(workload_dict(**LLAMA3_LONG, activation_recomputation="none"), BIG_BID)
    assert any(g.code == "activations_exceed_hbm" for g in no_recompute.gates)


def test_without_the_architecture_activations_are_not_counted_and_the_warning_says_so():
    e = _estimate(workload_dict(total_params_billions=130, active_params_billions=130), bid_dict())
    # 130e9/32 x (2 + 4 + 12/16) bytes = 27.4 GB: no gate, no activations counted.
    assert not [g for g in e.gates if g.code == "activations_exceed_hbm"]


# llm-foundry A100 80GB BF16, sequence 2,048: HFU by model width (the rows WIDTH_H0 was fitted on).
FOUNDRY_A100_HFU_BY_WIDTH = {
    768: 44.79,
    1024: 51.62,
    1536: 56.85,
    2048: 59.86,
    2560: 62.11,
    4096: 64.23,
    5120: 59.57,
    7168: 73.74,
    8192: 71.10,
}


def test_width_term_follows_the_llm_foundry_a100_table_it_was_fitted_on():
    ratios = [hfu / width_efficiency(h) for h, hfu in FOUNDRY_A100_HFU_BY_WIDTH.items()]
    mean = sum(ratios) / len(ratios)
    assert all(abs(r / mean - 1) < 0.12 for r in ratios)
    # The narrowest model runs at about two thirds of the widest's efficiency: the table shows
    # 44.79 / 71.10 = 0.630, the term gives (1 + 455/8192) / (1 + 455/768) = 0.663.
    assert float(width_efficiency(768) / width_efficiency(8192)) == pytest.approx(
        44.79 / 71.10, abs=0.04
    )


def test_a_baseline_measured_on_a_narrower_model_rises_for_a_wider_one():
    # A 42% MFU measured on a model of width 2,304 carried to width 25,600:
    # (1 + 455/2304) / (1 + 455/25600) = 1.1975 / 1.0178 = 1.1766.
    narrow = _estimate(
        workload_dict(num_layers=80, hidden_size=25600 // 4 * 4, baseline_hidden_size=2304)
    )
    assert narrow.baseline_mfu == pytest.approx(
        0.42 * (1 + 455 / 2304) / (1 + 455 / 25600), rel=1e-9
    )
    same = _estimate(workload_dict(num_layers=80, hidden_size=8192))
    assert same.baseline_mfu == pytest.approx(
        0.42
    )  # measured on the workload's own model: unchanged
