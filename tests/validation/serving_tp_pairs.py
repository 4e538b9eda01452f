"""The tensor-parallel move of the serving model against one engine's published runs of one model on
one GPU at several TP degrees (issue 37, target d), out of the validation rows' sample.

Run: PYTHONPATH=desktop python -m tests.validation.serving_tp_pairs  (printed, not a test)

The validation rows (serving_validation.py) carry an engine factor from an H100 TP2 run to an
H200 TP1 one and find the engine 1.11-1.19x slower at TP2 than the model's terms say, relative
to TP1; GPU and degree move together there. These pairs hold the GPU, the model, the engine and
the lengths fixed and change the degree alone. For each published degree the model's largest
output tokens/s per GPU (spec-only: the workload's default efficiencies, latency limits lifted,
the batch capped at 1,024 as the validation's TensorRT-LLM rows are) is set against the published
figure, and for each doubling the engine's TP move over the model's is

    (predicted / published at 2 TP) / (predicted / published at TP),

above 1 when the engine gains less from the doubling than the model says (the sense of the
validation's 1.12x). Nothing is fitted.

Sources (both NVIDIA's perf-overview of TensorRT-LLM, trtllm-bench throughput: requests fed with
no delay, fixed lengths, figures the total output tokens/s of the TP GPUs; neither is the
commit 00f37686 table the validation rows come from):
- V020: TensorRT-LLM v0.20 (PyTorch backend, CUDA graphs padded, KV cache fraction 0.95 mostly),
  nvidia/Llama-3.3-70B-Instruct-FP8 (FP8 KV cache, the checkpoint's), H200 141GB and H100 80GB
  HBM3 at TP 1/2/4/8. docs/source/performance/perf-overview.md as published in
  https://nvidia.github.io/TensorRT-LLM/0.20.0/performance/perf-overview.html, read from the copy
  at dominicshanshan/TensorRT-LLM commit ab4143e1d3c82df550f0d5673090a8feee84c7bd (its B200 FP4
  figures, 10,994.48 / 17,542.11 at 128/128, match the 0.20.0 page's).
- V014: TensorRT-LLM v0.14.0 (TensorRT engines from trtllm-bench build --quantization FP8, which
  sets an FP8 KV cache: the page's note), "LLaMA v3.1 70B", H200 141GB and H100 80GB HBM3 at TP
  1/2/4/8 ("All data in the table below was generated using version 0.14.0"), the same file at
  arthurrasmusson/TensorRT-LLM commit e00d4e6564921307dd264b61fe1d46f116095e0e.
H100 TP1 is left out of both: 70.6 GB of FP8 weights on an 80 GB GPU leave the KV cache a few GB
(the engine ran it at 410-2,552 tok/s), a test of the memory rule, not of the TP move.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2])]  # the repository root, for tests.*

from tests.validation.serving_validation import Row, geometric_error, replica_at  # noqa: E402

V020 = "TensorRT-LLM v0.20 perf-overview, Llama 3.3 70B FP8"
V014 = "TensorRT-LLM v0.14.0 perf-overview, Llama 3.1 70B FP8"
# (source, GPU, (prompt, output)): {TP: total output tokens/s of the TP GPUs}
PUBLISHED: dict[tuple[str, str, tuple[int, int]], dict[int, float]] = {
    (V020, "H200-SXM", (128, 128)): {1: 3605.47, 2: 6427.69, 4: 10407.42, 8: 15434.37},
    (V020, "H200-SXM", (128, 2048)): {1: 4315.80, 2: 8464.03, 4: 13508.59, 8: 20759.72},
    (V020, "H200-SXM", (128, 4096)): {1: 2701.17, 2: 5573.55, 4: 11458.56, 8: 16668.75},
    (V020, "H200-SXM", (500, 2000)): {1: 3478.76, 2: 6740.06, 4: 12200.18},
    (V020, "H200-SXM", (1000, 1000)): {1: 2744.32, 2: 5119.72, 4: 8685.44, 8: 12744.51},
    (V020, "H200-SXM", (1000, 2000)): {1: 2896.44, 2: 5847.26, 4: 9031.21, 8: 13141.17},
    (V020, "H200-SXM", (2048, 128)): {1: 435.90, 2: 772.67, 4: 1264.76},
    (V020, "H200-SXM", (5000, 500)): {1: 545.96, 2: 997.15, 4: 1698.22, 8: 2655.28},
    (V020, "H200-SXM", (20000, 2000)): {1: 276.66, 2: 620.33, 4: 1161.29, 8: 1985.85},
    (V020, "H100-SXM", (128, 2048)): {2: 5782.57, 4: 11464.94, 8: 17424.32},
    (V020, "H100-SXM", (128, 4096)): {2: 3868.37, 4: 8206.39, 8: 12624.61},
    (V020, "H100-SXM", (500, 2000)): {2: 4684.06, 4: 9903.53, 8: 14553.93},
    (V020, "H100-SXM", (1000, 1000)): {2: 4247.19, 4: 7435.65, 8: 11018.81},
    (V020, "H100-SXM", (1000, 2000)): {2: 3866.53, 4: 7611.12, 8: 11139.22},
    (V020, "H100-SXM", (2048, 128)): {2: 736.89, 4: 1213.33, 8: 1839.22},
    (V020, "H100-SXM", (5000, 500)): {2: 862.91, 4: 1552.68, 8: 2369.84},
    (V020, "H100-SXM", (20000, 2000)): {2: 416.13, 4: 903.66, 8: 1554.10},
    (V014, "H200-SXM", (128, 128)): {1: 3897.2623, 2: 5357.0227, 4: 8826.9618, 8: 16382.9807},
    (V014, "H200-SXM", (128, 2048)): {1: 3612.2603, 2: 7054.7235, 4: 12763.4114, 8: 19266.0398},
    (V014, "H200-SXM", (128, 4096)): {1: 2415.1981, 2: 5671.9561, 4: 8939.8227, 8: 13974.2854},
    (V014, "H200-SXM", (500, 2000)): {1: 2826.6665, 2: 6106.5855, 4: 10816.8283, 8: 17693.705},
    (V014, "H200-SXM", (1000, 1000)): {1: 2585.0953, 2: 4600.9616, 4: 7607.5304, 8: 13081.434},
    (V014, "H200-SXM", (2048, 128)): {1: 458.1948, 2: 692.3911, 4: 1034.5773, 8: 2070.8157},
    (V014, "H200-SXM", (2048, 2048)): {1: 1797.6743, 2: 3518.0774, 4: 6112.9026, 8: 9716.1934},
    (V014, "H200-SXM", (5000, 500)): {1: 533.6128, 2: 936.7014, 4: 1386.4827, 8: 2711.5057},
    (V014, "H200-SXM", (20000, 2000)): {1: 240.7202, 2: 614.318, 4: 1030.9528, 8: 1898.9762},
    (V014, "H100-SXM", (128, 128)): {2: 5194.8171, 4: 8542.3012, 8: 15533.1169},
    (V014, "H100-SXM", (128, 2048)): {2: 5869.3998, 4: 9017.4377, 8: 15190.1652},
    (V014, "H100-SXM", (128, 4096)): {2: 3518.782, 4: 6431.2702, 8: 9168.709},
    (V014, "H100-SXM", (500, 2000)): {2: 4605.9226, 4: 9205.3766, 8: 13109.4437},
    (V014, "H100-SXM", (1000, 1000)): {2: 4116.4444, 4: 6932.8808, 8: 10730.156},
    (V014, "H100-SXM", (2048, 128)): {2: 697.3907, 4: 1001.0771, 8: 1966.6072},
    (V014, "H100-SXM", (2048, 2048)): {2: 2445.0093, 4: 4838.5272, 8: 7434.8117},
    (V014, "H100-SXM", (5000, 500)): {2: 886.6758, 4: 1313.893, 8: 2444.9643},
    (V014, "H100-SXM", (20000, 2000)): {2: 397.6801, 4: 851.8542, 8: 1354.5333},
}
CAP = 1024  # the batch cap of the validation's TensorRT-LLM rows


def _row(source: str, gpu: str, lengths: tuple[int, int], tp: int, total: float) -> Row:
    prompt, output = lengths
    return Row(
        source,
        "saturated",
        f"{source}: {gpu} TP{tp}, {prompt}/{output}",
        gpu,
        tp,
        tp,
        (prompt,),
        output,
        "llama3-70b",
        "fp8",
        "fp8",
        CAP,
        total,
    )


def ratios_by_degree(
    source: str, gpu: str, lengths: tuple[int, int], published: dict[int, float]
) -> dict[int, tuple[float, float]]:
    """{TP: (published tok/s per GPU, predicted / published)} for one source, GPU and lengths."""
    out = {}
    for tp, total in sorted(published.items()):
        predicted = replica_at(_row(source, gpu, lengths, tp, total), lengths[0])[0]
        out[tp] = (total / tp, predicted / (total / tp))
    return out


def doublings(by_tp: dict[int, tuple[float, float]]) -> list[tuple[int, float]]:
    """[(lower degree, the engine's TP move over the model's)] for each published doubling."""
    return [(tp, by_tp[2 * tp][1] / by_tp[tp][1]) for tp in sorted(by_tp) if 2 * tp in by_tp]


def tp_moves() -> dict[tuple[str, str, tuple[int, int]], list[tuple[int, float]]]:
    """{(source, GPU, lengths): [(lower degree, the engine's move over the model's)]}."""
    return {
        key: doublings(ratios_by_degree(*key, published)) for key, published in PUBLISHED.items()
    }


def main() -> None:
    print(
        "Tensor-parallel pairs: one engine, model and GPU at several degrees (issue 37, target d)"
    )
    print(
        "\n| source | GPU | in/out | TP: published tok/s/GPU, predicted/published "
        "| engine's move over the model's per doubling |"
    )
    print("|---|---|---|---|---|")
    moves: dict[tuple[str, str, int], list[float]] = {}
    for (source, gpu, lengths), published in PUBLISHED.items():
        by_tp = ratios_by_degree(source, gpu, lengths, published)
        steps = doublings(by_tp)
        for tp, move in steps:
            moves.setdefault((source, gpu, tp), []).append(move)
        cells = "; ".join(f"TP{tp} {pub:,.0f} ({r:.2f})" for tp, (pub, r) in by_tp.items())
        step_cells = ", ".join(f"{tp}->{2 * tp} {m:.3f}" for tp, m in steps)
        print(f"| {source} | {gpu} | {lengths[0]}/{lengths[1]} | {cells} | {step_cells} |")
    print_summary(moves)
    print_gpu_move()
    print_validation_carry()
    # Imported here: that module reads this one's table of published runs.
    from tests.validation.serving_gpu_move_causes import print_gpu_move_causes

    print_gpu_move_causes()


def print_summary(moves: dict[tuple[str, str, int], list[float]]) -> None:
    """Geometric mean, spread and count of the move per (source, GPU, doubling), and over all."""
    print("\n| source | GPU | doubling | pairs | geometric mean move | range |")
    print("|---|---|---|---|---|---|")
    for (source, gpu, tp), values in moves.items():
        mean = geometric_error(values)[0]
        print(
            f"| {source} | {gpu} | TP{tp}->TP{2 * tp} | {len(values)} | {mean:.3f} "
            f"| {min(values):.3f}-{max(values):.3f} |"
        )
    every = [m for values in moves.values() for m in values]
    logs = [math.log(m) for m in every]
    spread = math.sqrt(sum((x - sum(logs) / len(logs)) ** 2 for x in logs) / (len(logs) - 1))
    mean, error = geometric_error(every)
    print(
        f"\nOver every doubling: {len(every)} pairs, geometric mean {mean:.3f}, "
        f"log spread {spread:.3f}, range {min(every):.3f}-{max(every):.3f}; a factor carried "
        f"one doubling on the same GPU misses by {error:.0%} "
        "(geometric-mean error)."
    )
    for tp in (1, 2, 4):
        these = [m for (_, _, d), v in moves.items() if d == tp for m in v]
        if these:
            print(
                f"TP{tp}->TP{2 * tp}: {len(these)} pairs, geometric mean "
                f"{geometric_error(these)[0]:.3f}, range {min(these):.3f}-{max(these):.3f}."
            )


def gpu_moves() -> dict[tuple[str, tuple[int, int]], dict[int, float]]:
    """The other half of the validation's carry, {(source, lengths): {TP: move}}: the same source,
    lengths and degree, H200 to H100, (predicted / published on the H100) / (predicted /
    published on the H200), above 1 when the engine runs the H100 slower than the model's terms
    say, relative to the H200."""
    out = {}
    for (source, gpu, lengths), published in PUBLISHED.items():
        other = PUBLISHED.get((source, "H100-SXM", lengths))
        if gpu != "H200-SXM" or other is None:
            continue
        h200 = ratios_by_degree(source, gpu, lengths, published)
        h100 = ratios_by_degree(source, "H100-SXM", lengths, other)
        out[source, lengths] = {tp: h100[tp][1] / h200[tp][1] for tp in h100 if tp in h200}
    return out


def print_gpu_move() -> None:
    print("\nThe GPU move at one degree: H200 to H100, same source, lengths and TP\n")
    print("| source | in/out | TP: the engine's H100 over the model's |")
    print("|---|---|---|")
    moves: dict[str, list[float]] = {}
    for (source, lengths), by_tp in gpu_moves().items():
        moves.setdefault(source, []).extend(by_tp.values())
        cells = "; ".join(f"TP{tp} {move:.3f}" for tp, move in by_tp.items())
        print(f"| {source} | {lengths[0]}/{lengths[1]} | {cells} |")
    for source, values in moves.items():
        mean, error = geometric_error(values)
        print(
            f"\n{source}: {len(values)} pairs, geometric mean {mean:.3f}, range "
            f"{min(values):.3f}-{max(values):.3f}, geometric-mean error {error:.0%}."
        )


def validation_carries() -> list[float]:
    """The validation rows' carry, H200 TP1 to H100 TP2 (GPU and degree at once), in these
    sources: (predicted / published, H100 TP2) / (predicted / published, H200 TP1)."""
    carries = []
    for (source, gpu, lengths), published in PUBLISHED.items():
        other = PUBLISHED.get((source, "H100-SXM", lengths), {})
        if gpu == "H200-SXM" and 1 in published and 2 in other:
            h200 = ratios_by_degree(source, gpu, lengths, {1: published[1]})[1][1]
            h100 = ratios_by_degree(source, "H100-SXM", lengths, {2: other[2]})[2][1]
            carries.append(h100 / h200)
    return carries


def print_validation_carry() -> None:
    carries = validation_carries()
    mean = geometric_error(carries)[0]
    print(
        f"\nThe validation's carry, H200 TP1 to H100 TP2, in these sources: {len(carries)} pairs, "
        f"geometric mean {mean:.3f}, range {min(carries):.3f}-{max(carries):.3f}."
    )


if __name__ == "__main__":
    main()
