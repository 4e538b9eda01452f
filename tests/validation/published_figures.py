"""Predicted vs published training throughput, spec-only and with one-scale evidence.

Run from the repository root:  python tests/validation/published_figures.py
Not a test (it asserts nothing and is not collected): it prints the validation table of
resources/methodology.md and the geometric-mean errors, whatever they are.

Every published figure below is public and named. The model predicts a step time from each
row's architecture (layers, hidden size, vocabulary, sequence): its FLOP count includes the
attention term, and recomputation turns model FLOPs into the hardware FLOPs a publication may
count (Megatron-LM and MT-NLG count full recomputation: 96 B s l h^2 (...)). Each row converts the
published rate into a step time with the publication's own formula, and the prediction back
into the publication's FLOPs. Spec-only rows use nothing measured on the system: the buyer's
stack at 42.57% MFU of BF16 peak on H100, measured on MPT-70B (width 8,192; llm-foundry, 64
GPUs), times the catalog's factor per GPU and precision, carried to each row's width by the
width term (flops.WIDTH_H0, fitted on llm-foundry's A100 table, none of whose rows is here).
Evidence rows give the model one published point (the smallest scale of the series) as a
step-time measurement and let it carry the calibration to the other scales (and widths).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desktop"))

from tests.conftest import bid_dict, workload_dict  # noqa: E402

from clusterbid.core.bid import Bid  # noqa: E402
from clusterbid.core.catalog import default_catalog  # noqa: E402
from clusterbid.core.costmodel.estimate import estimate_training  # noqa: E402
from clusterbid.core.costmodel.stack_efficiency import mfu_factor as stack_mfu_factor  # noqa: E402
from clusterbid.core.workload import Workload  # noqa: E402

REFERENCE_MFU = 0.4257  # llm-foundry H100 80GB BF16, MPT-70B, seq 2048, 64 GPUs (MFU; HFU 56.76)
REFERENCE_WIDTH = 8192  # MPT-70B d_model


@dataclass(frozen=True)
class Row:
    series: str
    label: str
    gpu: str
    fabric: tuple[str, int, float]  # catalog fabric id, NICs per node, Gb/s each
    layers: int
    hidden: int
    vocab: int
    seq: int
    tp: int
    pp: int
    gpus: int
    batch: int  # sequences per step
    precision: str
    published_tflops: float  # per GPU, in the publication's own FLOP count
    passes: int  # 4 when the publication counts activation recomputation, else 3
    mbs: int = 1
    virtual: int = 1
    grad_bytes: int = 4
    dp_overlap: float = (
        0.5  # the workload default; 0 where the gradients are reduced after backward
    )
    tp_overlap: float = 0.0  # share of tensor-parallel traffic hidden (Megatron-LM 2021: none)
    recompute: str | None = None  # as published when it is neither full nor none

    def params(self) -> float:  # Narayanan et al. 2021, eq. for P
        l, h = self.layers, self.hidden
        return 12 * l * h * h * (1 + 13 / (12 * h) + (self.vocab + self.seq) / (12 * l * h))

    def published_flops_per_step(self) -> float:  # 24 x passes x B s l h^2 (1 + s/6h + V/16lh)
        l, h, s = self.layers, self.hidden, self.seq
        return (
            24
            * self.passes
            * self.batch
            * s
            * l
            * h
            * h
            * (1 + s / (6 * h) + self.vocab / (16 * l * h))
        )

    def published_step_s(self) -> float:
        return self.published_flops_per_step() / (self.gpus * self.published_tflops * 1e12)

    def counts_hardware_flops(self) -> bool:
        return self.passes == 4


A100, H100 = "A100-80GB-SXM", "H100-SXM"
HDR200, NDR400 = ("IB-HDR200", 8, 200.0), ("IB-NDR400", 8, 400.0)
# Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using
# Megatron-LM", SC21, Table 1 (weak scaling, Selene: 8 A100 80GB and 8 HDR200 per node; FLOPs
# counted with full activation recomputation; vocabulary 51,200, sequence 2,048). Micro-batch
# sizes and interleaved stages (layers per model stage / --num-layers-per-virtual-pipeline-stage)
# as run: Megatron-LM examples/sc21/run_table_1.sh, the paper's own scripts. From 39B they use
# DDP=local, Megatron's wrapper, which all-reduces the gradient buffer after backward (nothing
# hidden; megatron/model/distributed.py); the smaller models use PyTorch DDP (overlapped).
MEGATRON = [
    Row(
        "Megatron-LM Table 1",
        "1.7B/32",
        A100,
        HDR200,
        24,
        2304,
        51200,
        2048,
        1,
        1,
        32,
        512,
        "bf16",
        137,
        4,
        mbs=16,
    ),
    Row(
        "Megatron-LM Table 1",
        "3.6B/64",
        A100,
        HDR200,
        30,
        3072,
        51200,
        2048,
        2,
        1,
        64,
        512,
        "bf16",
        138,
        4,
        mbs=16,
    ),
    Row(
        "Megatron-LM Table 1",
        "7.5B/128",
        A100,
        HDR200,
        36,
        4096,
        51200,
        2048,
        4,
        1,
        128,
        512,
        "bf16",
        142,
        4,
        mbs=16,
    ),
    Row(
        "Megatron-LM Table 1",
        "18.4B/256",
        A100,
        HDR200,
        40,
        6144,
        51200,
        2048,
        8,
        1,
        256,
        1024,
        "bf16",
        135,
        4,
        mbs=8,
    ),
    Row(
        "Megatron-LM Table 1",
        "39.1B/512",
        A100,
        HDR200,
        48,
        8192,
        51200,
        2048,
        8,
        2,
        512,
        1536,
        "bf16",
        138,
        4,
        mbs=4,
        dp_overlap=0.0,
    ),
    Row(
        "Megatron-LM Table 1",
        "76.1B/1024",
        A100,
        HDR200,
        60,
        10240,
        51200,
        2048,
        8,
        4,
        1024,
        1792,
        "bf16",
        140,
        4,
        mbs=2,
        virtual=3,
        dp_overlap=0.0,
    ),
    Row(
        "Megatron-LM Table 1",
        "145.6B/1536",
        A100,
        HDR200,
        80,
        12288,
        51200,
        2048,
        8,
        8,
        1536,
        2304,
        "bf16",
        148,
        4,
        mbs=2,
        virtual=2,
        dp_overlap=0.0,
    ),
    Row(
        "Megatron-LM Table 1",
        "310.1B/1920",
        A100,
        HDR200,
        96,
        16384,
        51200,
        2048,
        8,
        16,
        1920,
        2160,
        "bf16",
        155,
        4,
        mbs=1,
        virtual=2,
        dp_overlap=0.0,
    ),
    Row(
        "Megatron-LM Table 1",
        "529.6B/2520",
        A100,
        HDR200,
        105,
        20480,
        51200,
        2048,
        8,
        35,
        2520,
        2520,
        "bf16",
        163,
        4,
        mbs=1,
        virtual=3,
        dp_overlap=0.0,
    ),
    Row(
        "Megatron-LM Table 1",
        "1008B/3072",
        A100,
        HDR200,
        128,
        25600,
        51200,
        2048,
        8,
        64,
        3072,
        3072,
        "bf16",
        163,
        4,
        mbs=1,
        dp_overlap=0.0,
    ),
]
# Smith et al., "Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B", 2022, section
# 2.4: batch 1,920 on 280/350/420 DGX A100 (8 HDR200 each), TP8 x PP35: 126/121/113 TFLOP/s per GPU
# (strong scaling). A100 40GB there; the catalog's 80GB entry has the same compute.
MT_NLG = [
    Row(
        "MT-NLG 530B strong scaling",
        f"{n}",
        A100,
        HDR200,
        105,
        20480,
        50272,
        2048,
        8,
        35,
        n,
        1920,
        "bf16",
        t,
        4,
    )
    for n, t in ((2240, 126), (2800, 121), (3360, 113))
]
# llm-foundry scripts/train/benchmarking/README.md, table "H100 80GB BF16": MPT-13B (40 layers,
# d_model 5120), seq 2048, micro-batch 2, no activation checkpointing, 8-64 GPUs; MFU counts
# attention (3 passes). The cluster's fabric is not stated; 8 x NDR400 per node assumed.
FOUNDRY = [
    Row(
        "llm-foundry MPT-13B H100",
        f"{n}",
        H100,
        NDR400,
        40,
        5120,
        50368,
        2048,
        1,
        1,
        n,
        2 * n,
        "bf16",
        mfu * 989,
        3,
        mbs=2,
    )
    for n, mfu in ((8, 0.3979), (16, 0.3958), (32, 0.3995), (64, 0.3986))
]
# NVIDIA NeMo docs/source/performance/performance_summary.md (NeMo 24.07, DGX H100, FP8): GPT3-175B
# (96 layers, hidden 12,288), seq 2,048, TP4 PP8 VP6: 802 model TFLOP/s per GPU on 128 GPUs (GBS
# 256) and 895 on 512 (GBS 2,048, linked to NVIDIA's MLPerf Training GPT-3 submission).
# The run's settings as NVIDIA publishes them for this model in FP8 (NeMo-Framework-Launcher
# launcher_scripts/conf/training/gpt3/175b_fp8_performance.yaml): gradients reduced in BF16
# (grad_sync_dtype: bf16, 2 bytes), the distributed optimizer's gradient sync overlapped
# (overlap_grad_sync), selective recomputation, and tensor-parallel traffic overlapped with the
# GEMMs (ub_tp_comm_overlap) as ub-confs/ub_cfg_h100_175b_tp4_mbs1_seqlen2k_bf16grad.yaml sets it
# for this model, TP4 and sequence 2K: every all-gather by ring exchange or in bulk behind another
# GEMM, and the two forward reduce-scatters (attention projection, second MLP GEMM) pipelined in 4
# splits, the last split exposed: 2 x 1/2 (a reduce-scatter is half an all-reduce) x 1/4 = 1/4 of
# the 4 all-reduces' worth a layer moves, so 15/16 hidden (that file is for micro-batch 1; the
# 512-GPU row's micro-batch of 2 is taken with the same settings).
NEMO_TP_OVERLAP = 1 - (2 * 0.5 * 0.25) / 4
NEMO = [
    Row(
        "NeMo GPT3-175B FP8 (MLPerf-linked)",
        "128",
        H100,
        NDR400,
        96,
        12288,
        51200,
        2048,
        4,
        8,
        128,
        256,
        "fp8",
        802,
        3,
        virtual=6,
        grad_bytes=2,
        dp_overlap=1.0,
        tp_overlap=NEMO_TP_OVERLAP,
        recompute="selective",
    ),
    Row(
        "NeMo GPT3-175B FP8 (MLPerf-linked)",
        "512",
        H100,
        NDR400,
        96,
        12288,
        51200,
        2048,
        4,
        8,
        512,
        2048,
        "fp8",
        895,
        3,
        mbs=2,
        virtual=6,
        grad_bytes=2,
        dp_overlap=1.0,
        tp_overlap=NEMO_TP_OVERLAP,
        recompute="selective",
    ),
]


# The stack each publication ran (issue 36 item 1): the "stated" pass names it, takes the stack's
# published H100 BF16 figure (resources/catalog/stacks.toml, sources independent of these rows
# except llm-foundry's, which is the reference) as the buyer's baseline, and keeps its range.
SERIES_STACK = {
    "Megatron-LM Table 1": "megatron-lm-2021",
    "MT-NLG 530B strong scaling": "megatron-lm-2021",
    "llm-foundry MPT-13B H100": "llm-foundry-2023",
    "NeMo GPT3-175B FP8 (MLPerf-linked)": "nemo-2024",
}


def stated_baseline(row: Row) -> tuple[str, float]:
    """The row's stack and the middle (geometric) of its published H100 BF16 range."""
    from clusterbid.core.costmodel.stack_efficiency import stack_catalog

    stack = SERIES_STACK[row.series]
    low, high = stack_catalog()[stack].h100_bf16_mfu
    return stack, math.sqrt(low * high)


def _workload(
    row: Row, mfu: float, measured_on_width: int | None, stack: str = "not-stated"
) -> Workload:
    return Workload.model_validate(
        workload_dict(
            software_stack=stack,
            total_params_billions=row.params() / 1e9,
            active_params_billions=row.params() / 1e9,
            job_gpus=row.gpus,
            precision=row.precision,
            tensor_parallel=row.tp,
            pipeline_parallel=row.pp,
            virtual_pipeline_stages=row.virtual,
            micro_batch_size=row.mbs,
            sequence_length=row.seq,
            global_batch_tokens=row.batch * row.seq,
            grad_bytes_per_param=row.grad_bytes,
            num_layers=row.layers,
            hidden_size=row.hidden,
            baseline_mfu=min(mfu, 0.85),
            baseline_hidden_size=measured_on_width,
            activation_recomputation=row.recompute
            or ("full" if row.counts_hardware_flops() else "none"),
            dp_comm_overlap=row.dp_overlap,
            tp_comm_overlap=row.tp_overlap,
        )
    )


def _bid(row: Row, evidence: list[dict]) -> Bid:
    tech, nics, rate = row.fabric
    return Bid.model_validate(
        bid_dict(
            capacity={
                "gpu_model": row.gpu,
                "gpus_offered": row.gpus,
                "largest_contiguous_block_gpus": row.gpus,
            },
            fabric={"technology": tech, "nics_per_node": nics, "nic_line_rate_gbit_s": rate},
            topology={"leaf_domain_gpus": row.gpus},
            evidence=evidence,
        )
    )


def predicted_step_s(row: Row, evidence_row: Row | None, stated: bool = False) -> float:
    """Spec-only, or with the evidence row's published step time attached (same workload);
    `stated`: spec-only with the row's own stack named and its published figure as baseline."""
    gpu = default_catalog().gpu(row.gpu)
    mfu, width = REFERENCE_MFU, REFERENCE_WIDTH
    if stated:
        stack, mfu = stated_baseline(row)
        return estimate_training(_workload(row, mfu, None, stack), [_bid(row, [])]).bids[0].step_s
    evidence = []
    if evidence_row is not None:
        evidence = [
            {
                "kind": "training_step_time",
                "value": evidence_row.published_step_s(),
                "unit": "s",
                "scale_gpus": evidence_row.gpus,
                "grade": "provider_claim",
                "description": f"{evidence_row.series}, {evidence_row.label}",
            }
        ]
    same_workload = evidence_row is not None and (evidence_row.params(), evidence_row.batch) == (
        row.params(),
        row.batch,
    )
    if evidence_row is not None and not same_workload:
        # Weak scaling changes the model or the batch with the scale: calibrate on the evidence
        # row's own workload, then carry the calibrated MFU to this row (the width term moves it
        # from the evidence model's width to this one's). The catalog factor is undone so that the
        # workload carries the stack's BF16-on-H100 figure, as a buyer would state it.
        calibrated = estimate_training(
            _workload(evidence_row, mfu, width), [_bid(evidence_row, evidence)]
        ).bids[0]
        factor = stack_mfu_factor("not-stated", gpu, row.precision)
        mfu, width = calibrated.baseline_mfu / factor, evidence_row.hidden
        evidence = []
    e = estimate_training(_workload(row, mfu, width), [_bid(row, evidence)]).bids[0]
    return e.step_s


def spec_only_band(
    row: Row, samples: int = 4000, stated: bool = False
) -> tuple[float, float] | None:
    """The spec-only prediction's P10-P90 in the publication's TFLOP/s: the Monte Carlo's run-hours
    percentiles over its point figure, applied to the rate (a longer run is a lower rate)."""
    from tests.conftest import evaluation_dict

    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.uncertainty.montecarlo import run_monte_carlo

    # The Monte Carlo draws only bids that pass the memory gates: llm-foundry shards parameters
    # (FSDP) and NeMo the optimizer state (the distributed optimizer), which the point table leaves out.
    sharding = {"shard_parameters": True} if row in FOUNDRY else {"distributed_optimizer": True}
    stack, mfu = stated_baseline(row) if stated else ("not-stated", REFERENCE_MFU)
    width = None if stated else REFERENCE_WIDTH
    workload = {
        **_workload(row, mfu, width, stack).model_dump(mode="json"),
        **sharding,
    }
    bid = _bid(row, []).model_dump(mode="json")
    evaluation = Evaluation.model_validate(evaluation_dict([bid], workload=workload))
    point_hours = estimate_training(evaluation.workload, evaluation.bids).bids[0].wall_hours
    band = run_monte_carlo(evaluation, samples, seed=1, precision=None).bids.get(
        evaluation.bids[0].id
    )
    if band is None:  # the bid did not pass a gate, so it has no band
        return None
    rate = predicted_rate(row, None, stated)
    return rate * point_hours / band.hours_p90, rate * point_hours / band.hours_p10


def coverage(stated: bool = False) -> dict[str, tuple[int, int, float]]:
    """Per GPU type and precision (and "all rows"): rows inside the spec-only P10-P90, rows with a
    band, and the geometric-mean point error over them; `stated`: each row names its stack."""
    by_gpu: dict[str, list[tuple[bool, float]]] = {}
    for row in (*MEGATRON, *MT_NLG, *FOUNDRY, *NEMO):
        found = spec_only_band(row, stated=stated)
        if found is None:
            print(f"  {row.series:36s} {row.label:>12s} no band: the bid did not pass a gate")
            continue
        low, high = found
        inside = low <= row.published_tflops <= high
        error = abs(math.log(predicted_rate(row, None, stated) / row.published_tflops))
        by_gpu.setdefault(f"{row.gpu} {row.precision}", []).append((inside, error))
        print(
            f"  {row.series:36s} {row.label:>12s} {row.published_tflops:8.1f} in "
            f"{low:7.1f}-{high:7.1f}: "
            f"{'inside' if inside else 'OUTSIDE'}"
        )
    by_gpu["all rows"] = [x for rows in by_gpu.values() for x in rows]
    return {
        name: (
            sum(inside for inside, _ in rows),
            len(rows),
            math.exp(sum(e for _, e in rows) / len(rows)) - 1,
        )
        for name, rows in by_gpu.items()
    }


def band_coverage() -> None:
    """Issue 36 item 2: the share of published figures inside the spec-only P10-P90, per GPU type,
    with the point error beside it (goals: at least 80% inside, point error 15% or better)."""
    for stated in (False, True):
        print(
            "\nspec-only band coverage (published figure inside the model's P10-P90), stack "
            + ("stated (each row names the stack it ran):" if stated else "not stated:")
        )
        for name, (inside, rows, point) in coverage(stated).items():
            print(
                f"  {name:24s} {inside / rows:5.0%} inside over {rows:2d} rows; point error "
                f"{point:.1%} (geometric mean)"
            )


def predicted_rate(row: Row, evidence_row: Row | None, stated: bool = False) -> float:
    """The prediction in the publication's own FLOPs per GPU per second (TFLOP/s)."""
    step = predicted_step_s(row, evidence_row, stated)
    return row.published_flops_per_step() / (row.gpus * step) / 1e12


def main() -> None:
    print(
        f"{'series':36s} {'point':>12s} {'published':>10s} {'spec-only':>10s} {'err':>7s} "
        f"{'evidence':>10s} {'err':>7s}"
    )
    spec_errors, evidence_errors, by_series = [], [], []
    signed: list[tuple[str, float]] = []  # (series, ln(spec-only / published))
    for series in (MEGATRON, MT_NLG, FOUNDRY, NEMO):
        first = series[0]
        for row in series:
            published = row.published_tflops
            spec = predicted_rate(row, None)
            spec_err = spec / published - 1
            spec_errors.append(abs(math.log(spec / published)))
            signed.append((row.series, math.log(spec / published)))
            by_series.append((row.series, ("spec", spec_errors[-1])))
            line = (
                f"{row.series:36s} {row.label:>12s} {published:10.1f} {spec:10.1f} {spec_err:+7.1%}"
            )
            if row is not first:
                with_evidence = predicted_rate(row, first)
                evidence_errors.append(abs(math.log(with_evidence / published)))
                by_series.append((row.series, ("evidence", evidence_errors[-1])))
                line += f" {with_evidence:10.1f} {with_evidence / published - 1:+7.1%}"
            else:
                line += f" {'(evidence point)':>18s}"
            print(line)
    # nccl-tests: one published curve, Azure ND H100 v5 single node (8 GPUs, NVLink), all_reduce
    # in place, 8 GB: 478.87 GB/s busbw (samuel-bohman/AI-benchmarking-guide, Azure_Results/
    # ND_H100_v5_results.md). It used NCCL's NVLS algorithm (NVLink SHARP), not Ring.
    from clusterbid.core.costmodel.communication import nvlink_busbw_gb_s

    nvlink = float(nvlink_busbw_gb_s(default_catalog().gpu(H100).nvlink_bandwidth_gb_s))
    print(
        f"{'nccl-tests all_reduce, 8 H100 (NVLS)':36s} {'8 GB':>12s} {478.87:10.1f} {nvlink:10.1f} "
        f"{nvlink / 478.87 - 1:+7.1%}"
        "   (busbw GB/s; ring model, not in the means)"
    )

    def geomean(errors):
        return math.exp(sum(errors) / len(errors)) - 1

    print("\nper series (spec-only; with evidence):")
    for name in dict.fromkeys(series_name for series_name, _ in by_series):
        spec = [e for n, e in by_series if n == name and e[0] == "spec"]
        evid = [e for n, e in by_series if n == name and e[0] == "evidence"]
        print(
            f"  {name:36s} {geomean([x for _, x in spec]):6.1%} over {len(spec):2d}; "
            f"{geomean([x for _, x in evid]) if evid else float('nan'):6.1%} over {len(evid)}"
        )
    print(
        f"\ngeometric-mean error, throughput rows: spec-only {geomean(spec_errors):.1%} over "
        f"{len(spec_errors)} points; "
        f"with one-scale evidence {geomean(evidence_errors):.1%} over {len(evidence_errors)} points"
    )
    # The evidence of a weak-scaling series is a run of a smaller model: carried to another model,
    # which the evidence-fit rule (section 5) down-grades in a real bid. The other series measure
    # the same model at another scale, the case a provider's one-scale run is.
    same = [e for n, (kind, e) in by_series if kind == "evidence" and n != MEGATRON[0].series]
    other = [e for n, (kind, e) in by_series if kind == "evidence" and n == MEGATRON[0].series]
    print(
        f"  with evidence of the same model at another scale: {geomean(same):.1%} over {len(same)} "
        "points; "
        f"carried from a smaller model (weak scaling): {geomean(other):.1%} over {len(other)}"
    )
    _spec_only_floor(signed, geomean)
    band_coverage()


def _spec_only_floor(signed: list[tuple[str, float]], geomean) -> None:
    """How close any spec-only model with ONE software-efficiency assumption could come: every
    prediction scaled by the one constant that minimises the mean |log error| (the median). What
    is left is the publications' own software (each series' scale differs), which only evidence
    measured on the buyer's or provider's stack can bring."""
    errors = sorted(e for _, e in signed)
    median = (
        errors[len(errors) // 2] if len(errors) % 2 else sum(errors[len(errors) // 2 - 1 :][:2]) / 2
    )
    floor = geomean([abs(e - median) for e in errors])
    print(
        "\nspec-only floor: scaling every prediction by the best single constant "
        f"({math.exp(-median):.3f}x) "
        f"still leaves {floor:.1%}; each publication's stack against the buyer's baseline:"
    )
    for name in dict.fromkeys(n for n, _ in signed):
        own = sorted(e for n, e in signed if n == name)
        print(
            f"  {name:36s} predicted / published x{math.exp(own[len(own) // 2]):.2f} (median of "
            f"{len(own)})"
        )


if __name__ == "__main__":
    main()
