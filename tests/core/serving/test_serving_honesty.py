"""Issue 31, item 2 for serving: a decode-throughput claim without a log is centred no worse than
the same bid without evidence, and drawn exactly as it is."""

from __future__ import annotations

import numpy as np
import pytest
from serving_builders import serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import decode_step
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays

TP, BATCH = 8, 32


def _predicted_tokens_per_s(workload, bid) -> float:
    """What the model itself predicts for the bid at TP 8 and batch 32: batch / decode step."""
    arrays = build_serving_arrays(workload, [bid], default_catalog(), [1.0])
    step = decode_step(
        ServingScalars.from_workload(workload),
        arrays,
        np.asarray(float(TP)),
        np.asarray(float(BATCH)),
    )
    return BATCH / float(np.asarray(step.engine_s + step.comm_s).ravel()[0])


def _claim(value: float) -> dict:
    return {
        "kind": "serving_decode_throughput",
        "scale_gpus": TP,
        "value": value,
        "unit": "tokens/s",
        "grade": "provider_claim",
        "batch_size": BATCH,
    }


def _bands(workload, claimed: float | None):
    honest = serving_bid("honest", price="2.90", evidence=[_claim(claimed)] if claimed else [])
    estimates = estimate_serving(
        workload, [honest, serving_bid("rival", gpu="H200-SXM", price="3.60")]
    )
    return estimates, mc.serving_uncertainty(estimates, samples=48)


def test_a_claim_equal_to_the_prediction_gives_the_band_and_chance_silence_gives():
    workload = serving_workload(peak_requests_per_s=120, average_requests_per_s=50)
    predicted = _predicted_tokens_per_s(workload, serving_bid("honest", price="2.90"))
    _, with_claim = _bands(workload, predicted)
    _, silent = _bands(workload, None)
    for a, b in zip(with_claim.bands, silent.bands, strict=True):
        assert a.cost_per_million == pytest.approx(b.cost_per_million, rel=1e-9)
        assert a.chance_cheapest == b.chance_cheapest


def test_a_claim_above_the_prediction_is_taken_back_only_to_the_prediction():
    """A claim 5% above the prediction: 0.90 x 1.05 = 0.945 < 1, so it is centred on the
    workload's assumptions (factor 1 / 1.05 on the calibrated efficiencies); 20% above: 0.90 x 1.2
    = 1.08, centred 8% above the assumptions (factor 0.90). Before issue 31 both were drawn 10%
    below the claim, the first below silence."""
    assert mc.claim_median(1.05) == pytest.approx(1 / 1.05)
    assert mc.claim_median(1.20) == pytest.approx(0.90)
    assert mc.claim_median(0.80) == 1.0  # a claim below the assumptions is taken as stated
    workload = serving_workload(peak_requests_per_s=120, average_requests_per_s=50)
    predicted = _predicted_tokens_per_s(workload, serving_bid("honest", price="2.90"))
    _, near = _bands(workload, 1.05 * predicted)
    _, silent = _bands(workload, None)
    assert near.bands[0].cost_per_million == pytest.approx(
        silent.bands[0].cost_per_million, rel=1e-6
    )
