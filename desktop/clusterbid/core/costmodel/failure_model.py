"""How often a training job of a given size is interrupted, how long each restart takes, and what
the uptime SLA still adds once the failure model has counted its own downtime.

The job's failure rate is not simply the per-GPU rate times the GPUs. Meta's two published
fleet figures (methodology section 3):

- Kokolis et al., "Revisiting Reliability in Large-Scale Machine Learning Research Clusters"
  (Meta, 2024, arXiv 2410.21680; HPCA 2025), 11 months of two A100 research clusters: a mean
  time to failure of 47.7 days for 8-GPU jobs and 7.9 hours for 1,024-GPU jobs (per GPU-day:
  1 / (47.7 x 8) = 2.6 and 1 / (7.9/24 x 1,024) = 3.0 per 1,000, nearly flat), and a projected
  1.8 hours for 16,384 GPUs (their fitted 6.50 failures per 1,000 node-days on 2,048 nodes);
- Dubey et al., "The Llama 3 Herd of Models" (Meta, 2024), section 3.3.4: 466 interruptions in
  54 days on 16,384 H100s, one every 2.8 hours (419 unexpected: one every 3.1 hours).

Up to 1,024 GPUs the rate per GPU-day is flat (the research clusters' measured range); from
1,024 to 16,384 GPUs the job's failure rate grows 7.9 / 1.8 = 4.4 times for 16 times the GPUs,
as GPUs^0.53 (large jobs run on nodes that passed the health checks and lemon-node removal
small jobs do not wait for). So the job's rate grows with its size, linearly to 1,024 GPUs
and as GPUs^0.53 beyond; the bid's stated rate per 1,000 GPU-days is the fleet's, read on the
flat part of that curve.
"""

from __future__ import annotations

import math

import numpy as np

from clusterbid.core.costmodel.real_arrays import floats

Numbers = float | np.ndarray  # one figure, or one per bid (and Monte Carlo sample)

# The end of the research clusters' measured range, where the per-GPU rate is still flat.
FLAT_UP_TO_GPUS = 1024.0
# The job's rate grows as GPUs^(1 - SIZE_DISCOUNT) past it: 7.9 h at 1,024 GPUs to 1.8 h at
# 16,384 (Kokolis et al. 2024) is a 7.9 / 1.8 times higher rate for 16 times the GPUs.
SIZE_DISCOUNT = 1.0 - math.log(7.9 / 1.8) / math.log(16.0)


def size_factor(n_gpus: Numbers) -> np.ndarray:
    """The share of the fleet's per-GPU rate a job of `n_gpus` sees: 1 up to 1,024 GPUs, then
    (1,024 / GPUs)^0.47."""
    n = floats(n_gpus)
    return np.asarray(np.minimum(1.0, (FLAT_UP_TO_GPUS / np.maximum(n, 1.0)) ** SIZE_DISCOUNT))


def job_failures_per_hour(failures_per_gpu_hour: Numbers, n_gpus: Numbers) -> np.ndarray:
    """Interruptions per wall-clock hour of a job on `n_gpus`, from the fleet's per-GPU rate."""
    n = floats(n_gpus)
    return np.asarray(failures_per_gpu_hour * n * size_factor(n))


def checkpoint_read_hours(checkpoint_bytes: float, storage_gb_s: Numbers) -> Numbers:
    """Reading the last checkpoint back on every GPU before training resumes, at the bid's stated
    storage bandwidth (the checkpoint write figure: the one bandwidth a bid states)."""
    return checkpoint_bytes / (storage_gb_s * 1e9) / 3600.0


def sla_factor(uptime: Numbers, down_share: Numbers) -> np.ndarray:
    """What the uptime SLA adds on top of the failure model. The SLA is a floor on the share of
    time the capacity is up; the failure model already keeps the job down `down_share` of the
    time (restarts and node repairs). Counting both in full would charge the same outage twice,
    so only the SLA's allowance beyond what the model counted is taken: availability is the
    lower of the two, min(1 - down, uptime), and the factor is that over (1 - down)."""
    return np.asarray(np.minimum(1.0, uptime / np.maximum(1.0 - down_share, 1e-12)))
