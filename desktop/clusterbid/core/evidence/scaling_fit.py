"""Fit how a workload's throughput grows with GPU count, and carry the fit to the job size.

The model is a power law, throughput = a * N^b, fitted as a straight line in log-log space:
- one shape parameter: b = 1 is linear scaling, and the scaling efficiency relative to the
  smallest measured size N0 is (N/N0)^(b-1), which falls slowly and never below zero. A line of
  efficiency against log N, the other common choice, reaches zero or negative efficiency when
  extrapolated a few doublings, which is the one thing this fit is used for;
- least squares on log throughput minimises relative error, the same measure we report as the
  fit's residual, so small- and large-scale points weigh alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Beyond two doublings past the largest measured size the job crosses network tiers (leaf to
# spine, oversubscription) the measurements never exercised: the fit may say nothing there.
FAR_BEYOND_FACTOR = 4.0
# A power law that misses the measured points by more than this on average is the wrong shape
# (a collapse at one size, a mixed-up row): report it rather than trust the extrapolation.
POOR_FIT_RMS = 0.10
# Superlinear scaling happens (more aggregate cache/HBM) but rarely beyond a few percent.
SUPERLINEAR_EXPONENT = 1.05


@dataclass(frozen=True)
class ScalingFit:
    """throughput = coefficient * N^exponent over the measured sizes, and how well it fits."""

    coefficient: float
    exponent: float
    rms_relative_error: float
    base_gpus: int  # the smallest measured size, the reference of every efficiency
    largest_gpus: int
    points: int

    def tokens_per_second(self, gpus: float) -> float:
        return float(self.coefficient * gpus**self.exponent)

    def efficiency(self, gpus: float) -> float:
        """Per-GPU throughput at `gpus` relative to the smallest measured size, per the fit."""
        return float((gpus / self.base_gpus) ** (self.exponent - 1.0))


@dataclass(frozen=True)
class Extrapolation:
    """The fit carried to the buyer's job size."""

    job_gpus: int
    tokens_per_second: float
    efficiency: float
    warning: str | None


def fit_power_law(gpus: np.ndarray, tokens_per_second: np.ndarray) -> ScalingFit:
    """Least squares of log throughput on log N; needs two or more distinct, positive sizes."""
    n = np.asarray(gpus, dtype=float)
    t = np.asarray(tokens_per_second, dtype=float)
    if n.shape != t.shape or n.ndim != 1:
        raise ValueError("gpus and tokens_per_second must be 1-D arrays of one length")
    if np.unique(n).size < 2 or np.any(n <= 0) or np.any(t <= 0) or not np.all(np.isfinite(t)):
        raise ValueError(
            "a scaling fit needs positive throughputs at two or more distinct GPU counts"
        )
    exponent, log_coefficient = np.polyfit(np.log(n), np.log(t), deg=1)
    fitted = np.exp(log_coefficient) * n**exponent
    rms = float(np.sqrt(np.mean((fitted / t - 1.0) ** 2)))
    return ScalingFit(
        coefficient=float(np.exp(log_coefficient)), exponent=float(exponent), rms_relative_error=rms,
        base_gpus=int(n.min()), largest_gpus=int(n.max()), points=int(n.size),
    )  # fmt: skip


def measured_efficiency(gpus: np.ndarray, tokens_per_second: np.ndarray) -> np.ndarray:
    """Per-GPU throughput at each size over that of the smallest size (1.0 = linear scaling)."""
    n = np.asarray(gpus, dtype=float)
    per_gpu = np.asarray(tokens_per_second, dtype=float) / n
    return np.asarray(per_gpu / per_gpu[np.argmin(n)], dtype=float)


def extrapolate(fit: ScalingFit, job_gpus: int) -> Extrapolation:
    """Throughput and efficiency at the job size; a warning when the fit cannot vouch for it."""
    warnings = []
    if job_gpus > FAR_BEYOND_FACTOR * fit.largest_gpus:
        warnings.append(
            f"the job's {job_gpus:,} GPUs are {job_gpus / fit.largest_gpus:.0f}x the largest "
            "measured size "
            f"({fit.largest_gpus:,}): the fit has not seen the network tiers a job that large "
            "crosses; "
            "ask for a measurement nearer the job size"
        )
    if fit.points == 2:
        warnings.append(
            "two sizes only: the fit passes through both exactly, so its residual says nothing"
        )
    elif fit.rms_relative_error > POOR_FIT_RMS:
        warnings.append(
            f"the power law misses the measurements by {fit.rms_relative_error:.0%} RMS: do not "
            "trust the extrapolation"
        )
    return Extrapolation(
        job_gpus=job_gpus, tokens_per_second=fit.tokens_per_second(job_gpus), efficiency=fit.efficiency(job_gpus),
        warning="; ".join(warnings) or None,
    )  # fmt: skip
