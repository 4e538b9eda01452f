"""Issue 37, item 5: the serving bands draw the failure rate and the node replacement time as the
training Monte Carlo does, with common random numbers across bids.

Worked by hand (test_serving_sla_credit's bid): one 8-GPU H100 node at $3.00 an hour, net 30, a
failure rate of 0.5 per 1,000 GPU-days and 4 h to replace a node, both stated by the provider; 99.9%
uptime allows 0.73 h a node-month, so one failure breaches. Credit 10%, half the faults counted,
90% of breaches claimed, capped at 10%: claimable share = P(breach) x 0.045.

Draw d, from the streams written here (streams.stream(seed, owner, input)):
  failure factor     = exp(0.3 z_bid + 0.4 z_H100)   (0.5 in all: 0.4 shared by the GPU type,
                                                        sqrt(0.5^2 - 0.4^2) = 0.3 the bid's own)
  replacement factor = exp(0.3 z_bid')                (a stated figure: 0.3, the bid's own)
  lambda = 0.5 x factor / 1,000 / 24 x 8 x 730, P(breach) = 1 - e^-lambda (a repair of 4 h x
  factor outlasts 0.73 h in every draw here: factor > 0.18 needs z > -5.7),
and, with the efficiencies not drawn, each draw's cost per million output tokens is
  8 x 730 x 3.00 x (1 - share_d) / 6,307.2.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from serving_builders import serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.uncertainty import serving_draws
from clusterbid.core.uncertainty.serving_reliability import reliability_factors
from clusterbid.core.uncertainty.streams import stream

BILL = 8 * 730 * 3.00
MILLIONS_A_MONTH = 4 * 600 * 730 * 3600 / 1e6
CLAIMS = {"covered_percent": 50, "automatic": False, "claim_window_days": 30, "cap_percent": 10}
DRAWS = 400


def _bid(bid_id: str = "s1", gpu: str = "H100-SXM"):
    return serving_bid(
        bid_id,
        gpu,
        reliability={"sla_credit_percent": 10.0},
        sla_claims=CLAIMS,
        terms={"payment_terms_days": 30},
    )


def _by_hand_shares(bid_id: str, seed: int) -> np.ndarray:
    gpu = stream(seed, "gpu:H100-SXM", "failure_rate").standard_normal(DRAWS)
    own = stream(seed, bid_id, "failure_rate").standard_normal(DRAWS)
    repair = 4.0 * np.exp(0.3 * stream(seed, bid_id, "replacement_hours").standard_normal(DRAWS))
    assert repair.min() > 0.73  # one failure breaches in every draw
    lam = 0.5 * np.exp(0.3 * own + 0.4 * gpu) / 1000 / 24 * 8 * 730
    return (1 - np.exp(-lam)) * 0.5 * 0.9 * 0.10


def test_the_bands_draw_the_credit_from_the_drawn_failure_rate_and_repair(monkeypatch):
    monkeypatch.setattr(serving_draws, "MBU_SIGMA", dict.fromkeys(serving_draws.MBU_SIGMA, 0.0))
    monkeypatch.setattr(serving_draws, "MARKET_MBU_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "COMPUTE_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "ENGINE_SPREAD_SCALE", 0.0)  # issue 37: no engine reach
    estimates = estimate_serving(serving_workload(), [_bid()])
    assert estimates.bids[0].gpus_billed == 8
    band = mc.serving_uncertainty(estimates, samples=DRAWS).bands[0]
    per_million = BILL * (1 - _by_hand_shares("s1", mc.SEED)) / MILLIONS_A_MONTH
    assert band.cost_per_million == pytest.approx(
        tuple(np.percentile(per_million, [10, 50, 90])), rel=1e-9
    )
    assert band.mean_cost_per_million == pytest.approx(per_million.mean(), rel=1e-9)
    # The draws do move it: P10 and P90 apart by more than a rounding (cents per million).
    assert band.cost_per_million[2] - band.cost_per_million[0] > 0.005
    point = (BILL - BILL * (1 - math.exp(-0.121667)) * 0.045) / MILLIONS_A_MONTH
    assert estimates.bids[0].cost_per_million_tokens == pytest.approx(point, rel=1e-5)


def test_bids_on_one_gpu_share_its_shock_and_never_move_each_other():
    seed = 7
    three = reliability_factors([_bid("a"), _bid("b"), _bid("c", "H200-SXM")], DRAWS, seed)
    fail = np.log(three["failure_rate"])
    own = {k: stream(seed, k, "failure_rate").standard_normal(DRAWS) for k in "abc"}
    h100 = stream(seed, "gpu:H100-SXM", "failure_rate").standard_normal(DRAWS)
    h200 = stream(seed, "gpu:H200-SXM", "failure_rate").standard_normal(DRAWS)
    assert fail[0] == pytest.approx(0.3 * own["a"] + 0.4 * h100, abs=1e-12)
    assert fail[1] == pytest.approx(0.3 * own["b"] + 0.4 * h100, abs=1e-12)
    assert fail[2] == pytest.approx(0.3 * own["c"] + 0.4 * h200, abs=1e-12)
    # Common random numbers: bid a's draws are the same alone as beside b and c.
    alone = reliability_factors([_bid("a")], DRAWS, seed)
    assert np.array_equal(alone["failure_rate"][0], three["failure_rate"][0])
    assert np.array_equal(alone["replacement_hours"][0], three["replacement_hours"][0])
    # Same GPU: correlated (0.4^2 / 0.5^2 = 0.64 in theory); another GPU: not.
    assert np.corrcoef(fail[0], fail[1])[0, 1] > 0.5
    assert abs(np.corrcoef(fail[0], fail[2])[0, 1]) < 0.2
