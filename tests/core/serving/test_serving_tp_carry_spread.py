"""A serving run carried to another tensor-parallel degree than the fleet is costed at is said in
words and drawn wider (issue 37; methodology section 8: carrying MLPerf Server's H100 TP2 row to
the H200 TP1 service read 1.194x at the OpenOrca set's mean prompt, the largest carry published,
against 4% at the same degree). Spreads worked by hand: a provider's measured run draws its
engine factor at 0.07 in log space; the carry adds log(1.194) in quadrature."""

from __future__ import annotations

import math

import numpy as np
import pytest
from serving_builders import MEASURED_H200_RUN, serving_bid, serving_workload

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_evidence_shape import carried_across_degrees
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.uncertainty import serving_draws

SAMPLES = 20_000
# The run on one H200 (TP1), attached to an H100 offer: 70 GB of FP8 weights leave an 80 GB H100
# too little room for the KV cache of a batch, so its fleet is costed at TP2.
TP1_RUN = {**MEASURED_H200_RUN, "tensor_parallel": 1}
TP2_ALONE = {**TP1_RUN, "scale_gpus": 2, "tensor_parallel": 2}


def _estimate(run: dict, gpu: str):
    bids = [serving_bid("offer", gpu=gpu, evidence=[run])]
    # The buyer's engine named, the run's own: an unstated one would move the run's draw too.
    workload = serving_workload(peak_requests_per_s=120, serving_engine="tensorrt-llm")
    return estimate_serving(workload, bids)


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
    assert _log_spread(estimates) == pytest.approx(math.hypot(0.07, math.log(1.194)), rel=0.03)


def test_the_runs_degree_is_its_replicas_gpus_when_tp_is_not_stated():
    unstated = {k: v for k, v in TP1_RUN.items() if k != "tensor_parallel"}  # scale_gpus 1
    estimate = _estimate(unstated, "H100-SXM").bids[0]
    assert any("measured at tensor parallel 1" in n for n in estimate.calibration_notes)


def test_a_claims_carry_is_said_without_a_widening_it_does_not_get():
    # A claim is drawn as silence is (the shared market draws), so the note promises no widening.
    claim = {**TP1_RUN, "grade": "provider_claim"}
    notes = _estimate(claim, "H100-SXM").bids[0].calibration_notes
    said = [n for n in notes if "measured at tensor parallel 1" in n]
    assert len(said) == 1 and "widened" not in said[0]


def test_a_pipeline_parallel_run_is_carried_even_to_a_fleet_of_as_many_gpus_a_replica():
    # The engine factor is solved for a tensor-parallel replica of the run's 2 GPUs; a TP1 x PP2
    # run is another replica than a TP2 fleet's (a TP2 run is not), and the note names both.
    piped = {**TP1_RUN, "scale_gpus": 2, "pipeline_parallel": 2, "batch_size": 64}
    piped["value"] = 2 * TP1_RUN["value"]
    estimate = _estimate(piped, "H100-SXM").bids[0]
    said = [n for n in estimate.calibration_notes if "x pipeline parallel 2" in n]
    assert len(said) == 1 and "measured at tensor parallel 1 x pipeline parallel 2" in said[0]
    assert f"costed at tensor parallel {estimate.tensor_parallel}:" in said[0]
    # and the rule itself, at a fleet of the run's 2 GPUs a replica
    assert carried_across_degrees(Evidence.model_validate(piped), 2)
    assert not carried_across_degrees(Evidence.model_validate(TP2_ALONE), 2)
