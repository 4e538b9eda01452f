"""Why a capped engine's batch runs below its cap in a finite benchmark run (issue 37, methodology
section 8, "vLLM 0.6 out of sample"): a first-principles simulation, not a fit and not a test.

Run: PYTHONPATH=desktop python -m tests.validation.serving_finite_run

Every prompt is queued at once (request rate inf), the engine holds at most `cap` sequences,
schedules once per pass of `steps` decode steps (vLLM's --num-scheduler-steps) and prefills the
sequences it admits in a pass of their own before the decode steps (chunked prefill off). A
sequence that ends inside a pass keeps its slot, and is computed, to the pass's end. Step times
are the serving model's terms for Llama 3.1 8B on one H100 SXM (methodology section 8) at the
vLLM class's efficiencies (compute 0.39 of the 989 TFLOPS BF16 peak, HBM 0.70 of 3.35 TB/s): a
decode step of b sequences max(weights read, 2 x params x b / compute) + b x KV read; a prefill
pass 2 x params x its prompt tokens / compute. Answer lengths are drawn from a gamma distribution
of mean 197 tokens and the spread (cv) shown, capped at 2,048 - prompt as vLLM's ShareGPT
sampling does; a spread of 0 is a fixed-length set. These are not ShareGPT's lengths, whose
distribution the sources do not publish: the table shows how the idle share moves with the
spread and the run's size, not Lambda's figure.

Delivered / steady is the run's output tokens/s over the rate of the same engine with its batch
always full (prompts riding in each step, as the serving model's step has them); idle = steady /
delivered - 1.
"""

from __future__ import annotations

import numpy as np

PARAMS, PEAK, COMPUTE, HBM, BANDWIDTH = 8.03e9, 989e12, 0.39, 0.70, 3.35e12
WEIGHTS_S = 16.06e9 / (BANDWIDTH * HBM)  # BF16 weights read once per step
TOKEN_S = 2 * PARAMS / (PEAK * COMPUTE)  # one token's matmuls
KV_S = 131_072 * 300 / (BANDWIDTH * HBM)  # one sequence's KV cache (about 300 tokens) read
PROMPT, OUTPUT, CAP, STEPS = 205, 197, 256, 10


def decode_step_s(batch: int) -> float:
    return max(WEIGHTS_S, TOKEN_S * batch) + KV_S * batch


def run_s(lengths: np.ndarray, cap: int = CAP, steps: int = STEPS) -> float:
    """Seconds the engine takes to finish every request of `lengths` output tokens."""
    queued, clock, left = 0, 0.0, np.zeros(0, dtype=int)
    while queued < len(lengths) or left.size:
        admit = min(cap - left.size, len(lengths) - queued)
        if admit > 0:  # a prefill pass makes each admitted sequence's first token
            clock += TOKEN_S * PROMPT * admit
            left = np.concatenate([left, lengths[queued : queued + admit] - 1])
            queued += admit
        left = left[left > 0]
        if not left.size:
            continue
        passes = min(steps, int(left.max()))
        clock += passes * decode_step_s(left.size)  # finished sequences ride to the pass's end
        left = left - passes
    return clock


def lengths_of(spread: float, prompts: int, rng: np.random.Generator) -> np.ndarray:
    if spread == 0:
        return np.full(prompts, OUTPUT)
    shape = 1 / spread**2
    drawn = np.round(rng.gamma(shape, OUTPUT / shape, prompts)).astype(int)
    return np.clip(drawn, 1, 2048 - PROMPT)


def main() -> None:
    # tokens/s with the batch always full, the prompts riding in each step
    steady = CAP / (max(WEIGHTS_S, TOKEN_S * CAP * (1 + PROMPT / OUTPUT)) + KV_S * CAP)
    print("Finite runs at request rate inf, cap 256, 10 scheduler steps (Llama 3.1 8B, H100)\n")
    print("| prompts in the run | answer spread (cv) | delivered / steady | idle share |")
    print("|---|---|---|---|")
    rng = np.random.default_rng(20_261_127)
    for prompts in (5000, 500):
        for spread in (0.0, 0.25, 0.5, 1.0, 1.5):
            lengths = lengths_of(spread, prompts, rng)
            delivered = lengths.sum() / run_s(lengths)
            print(
                f"| {prompts:,} | {spread:.2f} | {delivered / steady:.3f} "
                f"| {steady / delivered - 1:.3f} |"
            )
    print(
        "\nThe idle share grows with the spread of answer lengths (nil for a fixed-length set) "
        "and with the cap over the run's prompts: the batch drains over the last sequences' "
        "spread of lengths, once per run. A service that runs steadily has no such drain."
    )


if __name__ == "__main__":
    main()
