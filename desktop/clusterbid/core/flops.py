"""What one training step computes and holds: model and hardware FLOPs, GEMM width, activations.

The counts follow Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
Clusters Using Megatron-LM" (SC21), appendix: a transformer layer's forward pass is
24 B s h^2 + 4 B s^2 h FLOPs (B sequences of s tokens, hidden size h); the backward pass is
twice that; full activation recomputation runs the forward pass once more, which is why the
paper's count is 96 B s l h^2 (1 + s/6h + V/16lh) and its Table 1 reports hardware FLOPs.
"""

from __future__ import annotations

import math

import numpy as np

RECOMPUTATION_KINDS = ("none", "selective", "full")

# Activation bytes one transformer layer keeps per token per unit of hidden size, with tensor
# and sequence parallelism over t GPUs dividing it: 34 s b h / t (Korthikanti et al., "Reducing
# Activation Recomputation in Large Transformer Models", 2022, eq. 2 and section 4.1). Their
# extra 5 a s^2 b / t for the attention scores is not stored with FlashAttention (Dao et al.
# 2022) nor with selective recomputation. Full recomputation keeps only each layer's input,
# 2 s b h / t, and rebuilds one layer at a time during the backward pass.
ACTIVATION_BYTES_PER_TOKEN_HIDDEN = 34.0
LAYER_INPUT_BYTES_PER_TOKEN_HIDDEN = 2.0

# Why efficiency rises with model width: per token and layer the matrix multiplies grow as h^2
# while the memory-bound element-wise work (normalisation, activation functions, residual adds,
# which MFU counts do not include) grows as h. So the time per FLOP is a GEMM part plus a part
# proportional to 1/h: efficiency(h) = peak share / (1 + H0 / h). H0 = 455 is the least-squares
# fit of that form to llm-foundry's A100 80GB BF16 table at sequence 2,048 on 8-64 GPUs
# (mosaicml/llm-foundry scripts/train/benchmarking/README.md, HFU column: 125M h=768 44.79%,
# 350M 1024 51.62, 760M 1536 56.85, 1B 2048 59.86, 3B 2560 62.11, 7B 4096 64.23, 13B 5120
# 59.57, 30B 7168 73.74, 70B 8192 71.10; fit: 72.7% / (1 + 455/h), every row within 12%).
# None of those rows is in the validation table (resources/methodology.md section 10).
WIDTH_H0 = 455.0


def attention_factor(active_params, layers, hidden, seq_len):
    """Model FLOPs per token over 6N: 1 + 12 l s h / 6N (the attention score and value matmuls,
    which 6N leaves out; Megatron's 1 + s/6h when N = 12 l h^2). 1 without the architecture."""
    if layers is None or hidden is None:
        return 1.0
    return 1.0 + 2.0 * layers * seq_len * hidden / active_params


def hardware_flops_ratio(recomputation, active_params, layers, hidden, seq_len):
    """FLOPs the GPUs execute over the model's FLOPs (HFU / MFU). Full recomputation repeats the
    forward pass (a third of the model FLOPs): 4/3. Selective recomputation (Korthikanti et al.
    2022) repeats only the attention score and value matmuls, 4 l s h per token, over the model's
    6N + 12 l s h; without the architecture that share is unknown and taken as 0."""
    if recomputation == "full":
        return 4.0 / 3.0
    if recomputation == "selective" and layers is not None and hidden is not None:
        attention = 12.0 * layers * seq_len * hidden
        return 1.0 + attention / 3.0 / (6.0 * active_params + attention)
    return 1.0


def width_efficiency(hidden):
    """Relative GEMM-bound efficiency at hidden size h: 1 / (1 + H0 / h)."""
    return 1.0 / (1.0 + WIDTH_H0 / np.asarray(hidden, dtype=float))


def width_factor(hidden, measured_on_hidden):
    """Efficiency at this model's width over the efficiency at the width a figure was measured
    on; 1 when either is unknown (the figure is taken as the workload's own)."""
    if hidden is None or measured_on_hidden is None:
        return 1.0
    return float(width_efficiency(hidden) / width_efficiency(measured_on_hidden))


def activation_gb_per_gpu(
    *,
    layers,
    hidden,
    seq_len,
    micro_batch,
    tp,
    cp,
    pp,
    virtual_stages,
    micro_batches,
    recomputation,
) -> float | None:
    """Activations the busiest GPU (the first pipeline stage) holds at the peak of a step, GB.

    Under 1F1B the first stage holds min(pp, m) micro-batches in flight, each of l/pp layers:
    l layers' worth when m >= pp (Korthikanti et al. 2022, section 4.2.3); interleaving over v
    virtual stages adds a factor 1 + (pp-1)/(pp v). Context parallelism splits the sequence.
    None when the architecture is not given."""
    if layers is None or hidden is None:
        return None
    tokens = seq_len / cp * micro_batch
    full_layer = ACTIVATION_BYTES_PER_TOKEN_HIDDEN * tokens * hidden / tp
    if recomputation == "full":
        per_layer, working = LAYER_INPUT_BYTES_PER_TOKEN_HIDDEN * tokens * hidden / tp, full_layer
    else:
        per_layer, working = full_layer, 0.0
    in_flight = min(pp, max(micro_batches, 1))
    interleave = 1.0 + (pp - 1.0) / (pp * virtual_stages) if virtual_stages > 1 else 1.0
    return (layers / pp * in_flight * interleave * per_layer + working) / 1e9


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def flops_text(value: float, plain: bool = False) -> str:
    """A FLOP count as a person reads it: '6.33 × 10²³ FLOPs' (plain: '6.33 x 10^23 FLOPs', for a
    terminal that may not print superscripts), never the programmer's '6.331e+23'."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g} FLOPs"
    exponent = math.floor(math.log10(abs(value)))
    mantissa = value / 10**exponent
    if round(mantissa, 2) >= 10:  # 9.996e23 rounds to 10.00: say 1.00 x 10^24
        mantissa, exponent = mantissa / 10, exponent + 1
    if plain:
        return f"{mantissa:.2f} x 10^{exponent} FLOPs"
    return f"{mantissa:.2f} × 10{str(exponent).translate(_SUPERSCRIPT)} FLOPs"
