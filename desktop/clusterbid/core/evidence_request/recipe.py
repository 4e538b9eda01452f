"""The training run of a request (and of the acceptance plan's step-time test) as a command a
provider can run as written: Megatron-LM's public `pretrain_gpt.py` (NVIDIA/Megatron-LM) with the
workload's shape and layout, synthetic data, at a ladder of scales up to the job's.

One recipe serves both: the evidence before award and the acceptance after it are the same run,
returned in the same throughput format and read by the same reader."""

from __future__ import annotations

from clusterbid.core.evidence_request.model import CommandRun
from clusterbid.core.workload import Workload

RECIPE = "Megatron-LM pretrain_gpt.py (github.com/NVIDIA/Megatron-LM), synthetic data (--mock-data)"
LADDER = (
    8,
    64,
)  # rungs below the job's size for providers who will not run the job before signature
HEAD_DIM = (
    128  # Llama-class models' attention head width, used when the workload gives no head count
)
MOCK_VOCAB = 32_000  # the token count only sizes the embedding and output layers of a mock run
TIMED_STEPS = 60  # 10 warm-up steps, then at least 50 timed (the request packs' rule)


def model_parallel(w: Workload) -> int:
    return w.tensor_parallel * w.pipeline_parallel * w.context_parallel


def ladder(w: Workload, room_gpus: int) -> list[int]:
    """Each rung raised to a whole number of model replicas, the job's size last, none beyond
    the room the bid offers; a rung the batch cannot divide into is dropped."""
    replica = model_parallel(w)
    sequences = w.global_batch_tokens // w.sequence_length
    rungs = []
    for wanted in (*LADDER, w.job_gpus):
        gpus = -(-wanted // replica) * replica
        data_parallel = gpus // replica
        if (
            gpus <= min(room_gpus, w.job_gpus)
            and sequences % (data_parallel * w.micro_batch_size) == 0
        ):
            rungs.append(gpus)
    return sorted(set(rungs))


def recipe_arguments(w: Workload) -> tuple[list[str], list[str]]:
    """pretrain_gpt.py's options for the workload, and what of them the workload did not give."""
    assumed = []
    args = [
        "--tensor-model-parallel-size",
        str(w.tensor_parallel),
        "--pipeline-model-parallel-size",
        str(w.pipeline_parallel),
        "--context-parallel-size",
        str(w.context_parallel),
        "--micro-batch-size",
        str(w.micro_batch_size),
        "--global-batch-size",
        str(w.global_batch_tokens // w.sequence_length),
        "--seq-length",
        str(w.sequence_length),
        "--max-position-embeddings",
        str(w.sequence_length),
    ]
    if w.num_layers and w.hidden_size:
        heads = w.num_attention_heads or max(w.hidden_size // HEAD_DIM, 1)
        args += [
            "--num-layers",
            str(w.num_layers),
            "--hidden-size",
            str(w.hidden_size),
            "--num-attention-heads",
            str(heads),
        ]
        if w.num_attention_heads is None:
            assumed.append(
                f"attention heads = hidden size / {HEAD_DIM} (the workload does not state them)"
            )
        stages = w.pipeline_parallel * w.virtual_pipeline_stages
        if w.virtual_pipeline_stages > 1 and w.num_layers % stages == 0:
            args += ["--num-layers-per-virtual-pipeline-stage", str(w.num_layers // stages)]
    else:
        assumed.append(
            "layers, hidden size and heads: the workload does not state them; use the model's own"
        )
    if w.distributed_optimizer:
        args.append("--use-distributed-optimizer")
    if w.activation_recomputation != "none":
        args += ["--recompute-granularity", w.activation_recomputation]
        args += ["--recompute-method", "uniform"] if w.activation_recomputation == "full" else []
    args += ["--bf16"] if w.precision == "bf16" else ["--bf16", "--fp8-format", "hybrid"]
    args += [
        "--mock-data",
        "--tokenizer-type",
        "NullTokenizer",
        "--vocab-size",
        str(w.vocab_size or MOCK_VOCAB),
        "--train-iters",
        str(TIMED_STEPS),
        "--log-interval",
        "1",
        "--log-throughput",
        "--eval-iters",
        "0",
    ]
    if w.vocab_size is None:
        assumed.append(
            f"vocabulary {MOCK_VOCAB:,} tokens of synthetic data (the workload does not state it)"
        )
    if w.container_image is None:
        assumed.append(
            "software: the provider's own Megatron-LM container (the workload pins no image)"
        )
    return args, assumed


def training_runs(
    w: Workload, gpus_per_node: int, room_gpus: int, return_as: str
) -> list[CommandRun]:
    """One run per rung of the ladder, every one returned as a row of the same throughput file."""
    args, _ = recipe_arguments(w)
    runs = []
    for gpus in ladder(w, room_gpus):
        nodes = -(-gpus // gpus_per_node)
        launcher = [
            "torchrun",
            "--nnodes",
            str(nodes),
            "--nproc-per-node",
            str(min(gpus, gpus_per_node)),
            "--rdzv-backend",
            "c10d",
            "--rdzv-endpoint",
            "HEAD_NODE:29500",
        ]
        scale = "the job's size" if gpus == w.job_gpus else "a rung of the scale ladder"
        runs.append(
            CommandRun(
                name=f"{gpus:,} GPUs, {scale}",
                nodes=nodes,
                gpus=gpus,
                launcher=launcher,
                program="pretrain_gpt.py",
                arguments=list(args),
                return_as=return_as,
                container_image=w.container_image,
            )
        )
    return runs
