"""A raw training log (Megatron-LM, and launchers that print its lines) as measured evidence
(issue 31, item 3): the run's own output, every step time in it, rather than a row someone typed.

What is read: the arguments block Megatron-LM prints at start-up (`  world_size ....... 512`) for
the run's layout, sequence, batch and precision, and its iteration lines (`iteration 20/ 500 |
... | elapsed time per iteration (ms): 8123.4 | ...`) for the step times. The first logged
interval holds start-up (compilation, allocator warm-up, the first data loads) and is dropped;
the step time is the median of the rest, so one slow interval (a checkpoint, a restart) does not
move it. The figure is the workload's own step time: it calibrates a bid only on the same model,
sequence, layout and global batch (costmodel/evidence_fit.py).
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
from dataclasses import dataclass

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import UNITS, Evidence, EvidenceKind
from clusterbid.core.evidence.nccl_result import NcclFlag
from clusterbid.core.evidence.provenance import grade_for

ITERATION = re.compile(
    r"iteration\s+(\d+)\s*/\s*\d+\s*\|.*?elapsed time per iteration \(ms\):\s*([0-9]+(?:\.[0-9]+)?)"
)
ARGUMENT = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s\.{3,}\s(\S.*?)\s*$")
SKIPPED = re.compile(r"number of (skipped|nan) iterations:\s*(\d+)")
REQUIRED = (
    "world_size",
    "tensor_model_parallel_size",
    "pipeline_model_parallel_size",
    "seq_length",
    "global_batch_size",
)
# Step times after warm-up that differ by more than this ratio describe an unsteady run (a slow
# node, a storage stall): flagged so the officer asks why.
UNSTEADY_RATIO = 1.5
MIN_STEADY_INTERVALS = 3


def looks_like_training_log(text: str) -> bool:
    return "elapsed time per iteration (ms)" in text[:2_000_000]


@dataclass(frozen=True)
class TrainingLog:
    arguments: dict[str, str]
    step_times_s: tuple[float, ...]  # every logged interval, the first (warm-up) included
    step_time_s: float  # the median after warm-up
    lines: tuple[int, ...]  # the line of each interval
    flags: tuple[NcclFlag, ...]


def _whole(arguments: dict[str, str], name: str, source: str) -> int:
    value = arguments[name]
    if not value.isdigit() or not 1 <= int(value) <= 10_000_000:
        raise EvidenceParseError(
            source, None, f"argument {name} is {value[:40]!r}, not a whole number of 1 or more"
        )
    return int(value)


def parse_training_log(text: str, source: str) -> TrainingLog:
    """The arguments and step times of one run; EvidenceParseError naming the line or argument."""
    arguments: dict[str, str] = {}
    times: list[float] = []
    lines: list[int] = []
    bad_steps = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if (found := ITERATION.search(line)) is not None:
            milliseconds = float(found.group(2))
            if not 0 < milliseconds < 1e9:
                raise EvidenceParseError(
                    source,
                    number,
                    f"elapsed time per iteration {found.group(2)} ms is not a step time",
                )
            times.append(milliseconds / 1000.0)
            lines.append(number)
            bad_steps += sum(int(n) for _, n in SKIPPED.findall(line))
        elif (argument := ARGUMENT.match(line)) is not None:
            arguments.setdefault(argument.group(1), argument.group(2))
    missing = [name for name in REQUIRED if name not in arguments]
    if missing:
        raise EvidenceParseError(
            source,
            None,
            f"the log's arguments block does not give {', '.join(missing)}: attach "
            "the log from its start (Megatron-LM prints its arguments before the first step)",
        )
    for name in REQUIRED:
        _whole(arguments, name, source)
    if len(times) < MIN_STEADY_INTERVALS + 1:
        raise EvidenceParseError(
            source,
            None,
            f"{len(times)} logged iteration line(s): a step time needs at least "
            f"{MIN_STEADY_INTERVALS + 1} (the first is warm-up); log more iterations",
        )
    steady = times[1:]
    flags = []
    if max(steady) / min(steady) > UNSTEADY_RATIO:
        flags.append(
            NcclFlag(
                code="step_time_unsteady",
                message=(
                    f"step times after warm-up range {min(steady):.3f}-{max(steady):.3f} s (over "
                    f"{UNSTEADY_RATIO:g}x): "
                    "the median is used; ask what slowed the slow steps"
                ),
            )
        )
    if bad_steps:
        flags.append(
            NcclFlag(
                code="skipped_iterations",
                message=(
                    f"the log reports {bad_steps} skipped or NaN iteration(s): the run was not "
                    "clean"
                ),
            )
        )
    return TrainingLog(
        arguments, tuple(times), statistics.median(steady), tuple(lines), tuple(flags)
    )


def _precision(arguments: dict[str, str]) -> str | None:
    if arguments.get("fp8", "None") not in ("None", "False", "none", "false"):
        return "fp8"
    return "bf16" if arguments.get("bf16") == "True" else None


def training_log_evidence(
    log: TrainingLog,
    *,
    measured_by: str,
    artefact_sha256: str,
    artefact_name: str | None,
    measured_on: dt.date | None = None,
) -> Evidence:
    """TRAINING_STEP_TIME at the run's world size, graded by who ran it: the log is the artefact."""
    a = log.arguments
    gpus, tp, pp = (
        int(a[name])
        for name in ("world_size", "tensor_model_parallel_size", "pipeline_model_parallel_size")
    )
    batch, seq = int(a["global_batch_size"]), int(a["seq_length"])
    steady = len(log.step_times_s) - 1
    flags = "; ".join(f"{flag.code}: {flag.message}" for flag in log.flags)
    description = (
        f"raw training log: {gpus} GPUs, TP{tp} PP{pp}, sequence {seq:,}, global batch {batch:,} "
        f"sequences; median of {steady} step times after the warm-up interval, "
        f"{log.step_time_s:.4g} s "
        f"(lines {log.lines[1]}-{log.lines[-1]})" + (f". Flags: {flags}" if flags else "")
    )
    return Evidence(
        kind=EvidenceKind.TRAINING_STEP_TIME,
        description=description[:2000],
        scale_gpus=gpus,
        value=log.step_time_s,
        unit=UNITS[EvidenceKind.TRAINING_STEP_TIME],
        grade=grade_for(measured_by, artefact_sha256),
        measured_by=measured_by,
        measured_on=measured_on,
        precision=_precision(a),
        sequence_length=seq,
        tensor_parallel=tp,
        pipeline_parallel=pp,
        # Megatron-LM prints context_parallel_size since it has one; older logs ran without (1).
        context_parallel=int(cp)
        if (cp := a.get("context_parallel_size", "1")).isdigit() and 0 < int(cp) <= 1024
        else None,
        global_batch_sequences=batch,
        # The recipe's shape as the run printed it (issue 39 item 5), held to the workload's by
        # recipe_fit.py; `vocab_size` is the one given (None with a real tokenizer, whose padded
        # size is not the model card's), never `padded_vocab_size`.
        num_attention_heads=_stated_whole(a, "num_attention_heads", 4096),
        vocab_size=_stated_whole(a, "vocab_size", 10_000_000),
        artefact_name=artefact_name,
        artefact_sha256=artefact_sha256,
    )


def _stated_whole(arguments: dict[str, str], name: str, most: int) -> int | None:
    """An optional argument as a whole number, None when absent or not one (e.g. 'None')."""
    value = arguments.get(name, "")
    return int(value) if value.isdigit() and 1 <= int(value) <= most else None
