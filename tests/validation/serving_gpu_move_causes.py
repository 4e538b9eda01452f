"""Why the engine runs an H100 about 1.12x slower, relative to an H200, than the serving model says
(the GPU move of serving_tp_pairs.py): each candidate cause, stated with its source, worked out on
the same pairs by lengths. The test is the pattern: the move is largest on the long-output rows
(1.14-1.23) and least on the short-output or long-prompt ones (1.02-1.07). Printed, not a test;
nothing here is fitted to the pairs, and the serving model is not changed by it.

Candidates (sources in resources/methodology.md, section 8, "Why the H100 reads 1.12x slow"):
- KV admission. trtllm-bench throughput runs TensorRT-LLM's capacity scheduler with
  GUARANTEED_NO_EVICT (its `--scheduler_policy` default, tensorrt_llm/bench/benchmark/
  throughput.py; the library's default too, "Useful Runtime Options" in the performance-tuning
  guide), which admits a request only when the KV cache can hold it to completion: each running
  request holds blocks for prompt + output, not the prompt + output/2 it reads on average.
  trtllm-bench's own batch heuristic sizes the KV cache the same way (bench/build/tuning.py:
  requests = KV memory / (bytes per token x (ISL + OSL))).
- Sustained clocks: a difference moves every row alike, compute-bound ones included, so the
  short-output rows bound it.
- Achieved HBM bandwidth: what share of the H200's achieved fraction the H100 would need.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from tests.validation import serving_tp_pairs as pairs
from tests.validation import serving_validation as validation
from tests.validation.serving_validation import Row, geometric_error, replica_at

import clusterbid.core.costmodel.serving_replica as serving_replica
from clusterbid.core.catalog import default_catalog
from clusterbid.core.evidence.serving_models import find_model
from clusterbid.core.serving_workload import (
    DEFAULT_COMPUTE_EFFICIENCY,
    DEFAULT_HBM_EFFICIENCY,
    DEFAULT_USABLE_HBM_FRACTION,
)

Lengths = tuple[int, int]
# TensorRT-LLM v0.20 perf-overview, Llama 3.3 70B FP8, "H100 80GB HBM3" TP1, total output tok/s
# (the same table as serving_tp_pairs.V020; left out of the pairs, used here for the KV pool).
H100_TP1_V020: dict[Lengths, float] = {
    (128, 128): 3128.33,
    (128, 2048): 756.42,
    (1000, 1000): 742.14,
    (1000, 2000): 533.74,
    (1024, 2048): 530.16,
    (5000, 500): 204.94,
}


@contextmanager
def kv_held_to_completion() -> Iterator[None]:
    """The KV rule of GUARANTEED_NO_EVICT: a batch of B holds B x (prompt + output) tokens."""
    original = serving_replica.kv_tokens_held

    def held(w: serving_replica.ServingScalars, batch: np.ndarray) -> np.ndarray:
        return np.asarray(batch * w.context_tokens, dtype=float)

    serving_replica.kv_tokens_held = held
    try:
        yield
    finally:
        serving_replica.kv_tokens_held = original


@contextmanager
def weights_and_matmuls_in_series() -> Iterator[None]:
    """A bound, not a candidate: the step with the weight read and the matmuls added, as if neither
    hid the other (the model takes the larger; a real kernel near the roofline's knee does neither
    exactly)."""
    step = serving_replica.DecodeStep
    original = step.engine_s
    step.engine_s = property(  # type: ignore[method-assign,assignment]
        lambda s: np.asarray(s.weights_read_s + s.compute_s + s.kv_read_s)
    )
    try:
        yield
    finally:
        step.engine_s = original  # type: ignore[method-assign]


def gpu_moves_by_lengths(h100_hbm_share: float = 1.0) -> dict[tuple[str, Lengths], list[float]]:
    """{(source, lengths): [H100 predicted/published over H200 predicted/published, per TP]},
    with the H100's HBM efficiency at `h100_hbm_share` of the H200's (the default's)."""
    h100 = (DEFAULT_HBM_EFFICIENCY * h100_hbm_share, DEFAULT_COMPUTE_EFFICIENCY)
    out: dict[tuple[str, Lengths], list[float]] = {}
    for (source, gpu, lengths), published in pairs.PUBLISHED.items():
        other = pairs.PUBLISHED.get((source, "H100-SXM", lengths), {})
        if gpu != "H200-SXM":
            continue
        for tp in sorted(set(published) & set(other)):
            on_h200 = replica_at(pairs._row(source, gpu, lengths, tp, 0.0), lengths[0])[0]
            on_h100 = replica_at(
                pairs._row(source, "H100-SXM", lengths, tp, 0.0), lengths[0], h100
            )[0]
            move = (on_h100 / (other[tp] / tp)) / (on_h200 / (published[tp] / tp))
            out.setdefault((source, lengths), []).append(move)
    return out


def _by_lengths(moves: dict[tuple[str, Lengths], list[float]]) -> dict[Lengths, list[float]]:
    out: dict[Lengths, list[float]] = {}
    for (_, lengths), values in moves.items():
        out.setdefault(lengths, []).extend(values)
    return dict(sorted(out.items()))


def _by_source(moves: dict[tuple[str, Lengths], list[float]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for (source, _), values in moves.items():
        out.setdefault(source, []).extend(values)
    return out


def candidate_moves() -> dict[str, dict[tuple[str, Lengths], list[float]]]:
    """The GPU move under each candidate, and under none ("as is")."""
    cases = {"as is": gpu_moves_by_lengths()}
    with kv_held_to_completion():
        cases["KV held to completion"] = gpu_moves_by_lengths()
        cases["KV held to completion and H100 HBM at 0.9"] = gpu_moves_by_lengths(0.9)
    cases["H100 HBM at 0.9 of the H200's"] = gpu_moves_by_lengths(0.9)
    cases["H100 HBM at 0.8 of the H200's"] = gpu_moves_by_lengths(0.8)
    with kv_held_to_completion(), weights_and_matmuls_in_series():
        cases["KV held to completion, weights and matmuls in series"] = gpu_moves_by_lengths()
    return cases


def tp_move() -> float:
    """Geometric mean of the engine's move over the model's per TP doubling (serving_tp_pairs)."""
    return geometric_error([m for steps in pairs.tp_moves().values() for _, m in steps])[0]


def knee(gpu: str, lengths: Lengths, tp: int) -> tuple[int, float, float]:
    """(batch, weight read ms, matmul ms) of the model's best replica, KV held to completion."""
    with kv_held_to_completion():
        batch = replica_at(pairs._row(pairs.V020, gpu, lengths, tp, 0.0), lengths[0])[3]
        row = pairs._row(pairs.V020, gpu, lengths, tp, 0.0)
        workload = validation._workload(row, lengths[0], None, "not-stated")
        bid = validation.Bid.model_validate(validation.serving_bid_dict(gpu=gpu))
        scalars = validation.ServingScalars.from_workload(workload)
        arrays = validation.build_serving_arrays(workload, [bid], default_catalog(), [1.0])
        step = serving_replica.decode_step(
            scalars, arrays, np.array([[[float(tp)]]]), np.array([[[float(batch)]]])
        )
    return (
        batch,
        float(step.weights_read_s.ravel()[0]) * 1e3,
        float(step.compute_s.ravel()[0]) * 1e3,
    )


def implied_kv_pool(lengths: Lengths, published: float) -> tuple[float, float, float]:
    """(sequences, KV tokens held to completion, KV tokens held on average) the H100 TP1 run
    must have held for the model's step to give its published rate: the batch where the model's
    tokens/s (memory rule aside) crosses the published figure."""
    row = pairs._row(pairs.V020, "H100-SXM", lengths, 1, published)
    grid = _unbounded_grid(row, lengths[0])
    batch = float(np.interp(published, grid, np.arange(1, grid.size + 1)))
    prompt, output = lengths
    return batch, batch * (prompt + output), batch * (prompt + output / 2)


def _unbounded_grid(row: Row, prompt: int) -> np.ndarray:
    """Tokens/s of one replica at batches 1..1,024, the HBM and latency rules lifted."""
    workload = validation._workload(row, prompt, None, "not-stated")
    bid = validation.Bid.model_validate(validation.serving_bid_dict(gpu="H100-SXM"))
    scalars = validation.ServingScalars.from_workload(workload)
    arrays = validation.build_serving_arrays(workload, [bid], validation.default_catalog(), [1.0])
    return np.asarray(validation.replica_grid(scalars, arrays).tokens_per_s[0, 0])


def print_gpu_move_causes() -> None:
    print("\nWhy the H100 reads slow: the GPU move under each candidate cause, by lengths\n")
    cases = candidate_moves()
    print("| in/out | pairs | " + " | ".join(cases) + " |")
    print("|---|---|" + "---|" * len(cases))
    columns = [_by_lengths(moves) for moves in cases.values()]
    for lengths, values in columns[0].items():
        cells = " | ".join(f"{geometric_error(c[lengths])[0]:.2f}" for c in columns)
        print(f"| {lengths[0]}/{lengths[1]} | {len(values)} | {cells} |")
    for name, moves in cases.items():
        per_source = ", ".join(
            f"{source.split(' perf')[0]} {geometric_error(v)[0]:.3f} over {len(v)}"
            for source, v in _by_source(moves).items()
        )
        print(f"\n{name}: {per_source}.")
    with kv_held_to_completion():
        held = tp_move()
    with kv_held_to_completion(), weights_and_matmuls_in_series():
        in_series = tp_move()
    print(
        f"\nThe TP move per doubling (serving_tp_pairs): as is {tp_move():.3f}, KV held to "
        f"completion {held:.3f}, and weights and matmuls in series {in_series:.3f}."
    )
    print_knee()
    short = [m for (_, (_, out)), v in cases["as is"].items() if out <= 128 for m in v]
    print(
        f"\nSustained clocks: the short-output rows (128 out), most compute-bound, move "
        f"{geometric_error(short)[0]:.3f} over {len(short)} pairs: a clock or power difference "
        "would move every row by about that much, not the long-output rows alone."
    )
    print_implied_pool()


def print_knee() -> None:
    """Where the long-output TP2 rows sit on the roofline, KV held to completion."""
    for lengths in ((128, 2048), (1000, 2000)):
        cells = []
        for gpu in ("H100-SXM", "H200-SXM"):
            batch, weights, matmuls = knee(gpu, lengths, 2)
            cells.append(f"{gpu} batch {batch}, weights {weights:.1f} ms, matmuls {matmuls:.1f} ms")
        print(f"TP2 at {lengths[0]}/{lengths[1]}: " + "; ".join(cells) + ".")


def print_implied_pool() -> None:
    print(
        "\nThe H100 TP1 runs (left out of the pairs) as a test of the KV rule: the batch each "
        "must have held for the model's step to give its rate, and the KV tokens that is\n"
    )
    print("| in/out | published tok/s | sequences | held to completion | held on average |")
    print("|---|---|---|---|---|")
    to_completion, on_average = [], []
    for lengths, published in H100_TP1_V020.items():
        batch, full, mean = implied_kv_pool(lengths, published)
        if lengths[1] >= 1000:
            to_completion.append(full)
            on_average.append(mean)
        print(
            f"| {lengths[0]}/{lengths[1]} | {published:,.0f} | {batch:.1f} | {full / 1e3:.1f}k "
            f"| {mean / 1e3:.1f}k |"
        )
    for name, pools in (("to completion", to_completion), ("on average", on_average)):
        spread = (max(pools) - min(pools)) / (sum(pools) / len(pools))
        print(
            f"Rows of 1,000+ output tokens, KV held {name}: {min(pools) / 1e3:.1f}k-"
            f"{max(pools) / 1e3:.1f}k tokens, a spread of {spread:.0%} of their mean."
        )
    print(f"(The model's own rule leaves {_model_pool_tokens() / 1e3:.1f}k tokens at H100 TP1.)")


def _model_pool_tokens() -> float:
    """KV tokens the model's memory rule leaves beside the weights on one H100 (usable 0.9 x 80 GB
    less 70.6 GB of FP8 weights, at 163,840 bytes a token)."""
    model = find_model("llama3-70b")
    assert model is not None
    hbm = default_catalog().gpus["H100-SXM"].hbm_gb * 1e9 * DEFAULT_USABLE_HBM_FRACTION
    per_token = 2.0 * model.layers * model.kv_heads * model.head_dim * 1.0
    return max(0.0, hbm - model.params_billions * 1e9) / per_token


if __name__ == "__main__":
    print_gpu_move_causes()
