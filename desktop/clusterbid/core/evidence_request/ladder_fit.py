"""The scale ladder's returned runs fitted and carried to the job's size (issue 39, item 5).

A provider who will not run the whole job before signature runs the request's recipe at 8 (or
one model replica), 64 and as many GPUs as it will, each a row of one throughput file. The rows
that ran the workload's layout (TP, PP, CP, sequence, global batch) at two or more GPU counts are
fitted with the scaling fit the scaling tables use (`core/evidence/scaling_fit.py`: a power law
in log-log space), and the fit's throughput at the job's size is set beside the step time the
evaluation scored for the bid, so the officer sees how far the provider's own runs carry the
claim."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.recipe_fit import container_mismatch, shape_mismatches
from clusterbid.core.evidence.scaling_fit import (
    Extrapolation,
    ScalingFit,
    extrapolate,
    fit_power_law,
)
from clusterbid.core.evidence.throughput import ThroughputResult
from clusterbid.core.workload import Workload


@dataclass(frozen=True)
class LadderFit:
    points: tuple[tuple[int, float], ...]  # (GPUs, tokens per second), the best run at each size
    fit: ScalingFit
    at_job: Extrapolation
    job_step_s: float  # the fit's step time at the job's size: global batch / tokens per second
    claimed_step_s: float
    claimed_source: str

    @property
    def share_of_claim(self) -> float:
        """The fit's throughput at the job's size over the one the evaluation scored."""
        return self.claimed_step_s / self.job_step_s

    def words(self) -> str:
        sizes = ", ".join(f"{g:,}" for g, _ in self.points)
        text = (
            f"scaling fit over the runs on {sizes} GPUs: throughput grows as "
            f"N^{self.fit.exponent:.3f} (RMS residual {self.fit.rms_relative_error:.1%}); at the "
            f"job's {self.at_job.job_gpus:,} GPUs it predicts "
            f"{self.at_job.tokens_per_second:,.0f} tokens/s, a step of {self.job_step_s:.3f} s, "
            f"against {self.claimed_step_s:.3f} s scored ({self.claimed_source}): "
            f"{self.share_of_claim:.0%} of the throughput the evaluation counted on"
        )
        return text + (f"; {self.at_job.warning}" if self.at_job.warning else "")


def runs_at_layout(results: Iterable[ThroughputResult], w: Workload) -> list[tuple[int, float]]:
    """(GPUs, tokens/s) of every row that ran the workload's layout, at any GPU count."""
    found = []
    for result in results:
        row = result.row
        same = (row.tp, row.pp, row.cp, row.sequence_length) == (
            w.tensor_parallel,
            w.pipeline_parallel,
            w.context_parallel,
            w.sequence_length,
        )
        batch = row.global_batch_tokens in (None, w.global_batch_tokens)
        # Another model shape or container is another run: never fitted as this one's rungs.
        recipe = not shape_mismatches(row.num_attention_heads, row.vocab_size, w)
        recipe = recipe and container_mismatch(row.container_image, w) is None
        if same and batch and recipe and result.tokens_per_second:
            found.append((row.gpus, float(result.tokens_per_second)))
    return found


def fit_ladder(
    runs: Iterable[tuple[int, float]], w: Workload, claimed_step_s: float, claimed_source: str
) -> LadderFit | None:
    """The fit over the best run at each GPU count; None below two distinct counts."""
    best: dict[int, float] = {}
    for gpus, tokens in runs:
        best[gpus] = max(tokens, best.get(gpus, 0.0))
    if len(best) < 2 or claimed_step_s <= 0:
        return None
    points = tuple(sorted(best.items()))
    fit = fit_power_law(np.array([g for g, _ in points]), np.array([t for _, t in points]))
    at_job = extrapolate(fit, w.job_gpus)
    return LadderFit(
        points=points,
        fit=fit,
        at_job=at_job,
        job_step_s=w.global_batch_tokens / at_job.tokens_per_second,
        claimed_step_s=claimed_step_s,
        claimed_source=claimed_source,
    )
