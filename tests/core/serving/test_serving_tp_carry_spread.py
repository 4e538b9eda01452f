"""A serving run carried to another tensor-parallel degree than the fleet is costed at is said in
words and drawn wider (issue 37; methodology section 8: carrying MLPerf Server's H100 TP2 row to
the H200 TP1 service read 1.138x, against 10% at the same degree). Spreads worked by hand: a
provider's measured run draws its engine factor at 0.07 in log space; the carry adds log(1.138)
in quadrature."""

from __future__ import annotations

import math

import numpy as np
import pytest
from serving_builders import MEASURED_H200_RUN, serving_bid, serving_workload

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.uncertainty import serving_draws

SAMPLES = 20_000
# The run on one H200 (TP1), attached to an H100 offer: 70 GB of FP8 weights leave an 80 GB H100
# too little room for the KV cache of a batch, so its fleet is costed at TP2.
TP1_RUN = {**MEASURED_H200_RUN, "tensor_parallel": 1}


def _estimate(run: dict, gpu: str):
    bids = [serving_bid("offer", gpu=gpu, evidence=[run])]
    return estimate_serving(serving_workload(peak_requests_per_s=120), bids)


def _log_spread(estimates) -> float:
    mbu, compute = serving_draws.efficiency_draws(estimates, np.ones(1), SAMPLES, seed=7)
    assert np.array_equal(mbu, compute)  # one engine factor scales both
    return float(np.log(mbu[0]).std())


def test_a_run_at_the_fleets_degree_draws_its_grades_spread_and_says_nothing_of_a_carry():
    estimates = _estimate(TP1_RUN, "H200-SXM")
    assert estimates.bids[0].tensor_parallel == 1
    assert not any("tensor parallel" in n for n in estimates.bids[0].calibration_notes)
    assert _log_spread(estimates) == pytest.approx(0.07, rel=0.03)


def test_a_run_carried_from_tp1_to_a_tp2_fleet_is_said_and_drawn_wider():
    estimates = _estimate(TP1_RUN, "H100-SXM")
    estimate = estimates.bids[0]
    assert estimate.tensor_parallel == 2
    said = [n for n in estimate.calibration_notes if "measured at tensor parallel 1" in n]
    assert len(said) == 1 and "costed at tensor parallel 2" in said[0]
    assert "ask for a run at tensor parallel 2" in said[0]
    assert _log_spread(estimates) == pytest.approx(math.hypot(0.07, math.log(1.138)), rel=0.03)


def test_the_runs_degree_is_its_replicas_gpus_when_tp_is_not_stated():
    unstated = {k: v for k, v in TP1_RUN.items() if k != "tensor_parallel"}  # scale_gpus 1
    estimate = _estimate(unstated, "H100-SXM").bids[0]
    assert any("measured at tensor parallel 1" in n for n in estimate.calibration_notes)
