"""Bands on the serving cost: their plumbing checked against the point estimate and by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serving_builders import MEASURED_H200_RUN, serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.core.uncertainty import serving_draws

DEMO = (
    Path(__file__).resolve().parents[3] / "resources" / "examples" / "demo-serving-evaluation.json"
)


def _no_spread(monkeypatch):
    monkeypatch.setattr(serving_draws, "MBU_SIGMA", dict.fromkeys(serving_draws.MBU_SIGMA, 0.0))
    monkeypatch.setattr(serving_draws, "MARKET_MBU_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "COMPUTE_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "ENGINE_SPREAD_SCALE", 0.0)  # issue 37: no engine reach
    monkeypatch.setattr(serving_draws, "CLAIM_MEDIAN", 1.0)


def test_without_spread_every_band_collapses_onto_the_point_estimate(monkeypatch):
    _no_spread(monkeypatch)
    # Two H100 bids at $3.00 and $2.00 with the same shape: the same fleet, so the cheaper one
    # is cheapest in every sample and both bands are their point costs.
    bids = [serving_bid("dear", price="3.00"), serving_bid("cheap", price="2.00")]
    estimates = estimate_serving(serving_workload(), bids)
    result = mc.serving_uncertainty(estimates, samples=40)
    for e, band in zip(estimates.bids, result.bands, strict=True):
        assert band.cost_per_million == pytest.approx((e.cost_per_million_tokens,) * 3, rel=1e-12)
        assert band.monthly_cost == pytest.approx((e.monthly_cost,) * 3, rel=1e-12)
    assert [b.chance_cheapest for b in result.bands] == [0.0, 1.0]
    assert result.bands[1].monthly_cost[0] == pytest.approx(result.bands[0].monthly_cost[0] * 2 / 3)


def test_a_bids_band_does_not_move_when_another_bid_is_added():
    first = estimate_serving(serving_workload(), [serving_bid("a", gpu="H200-SXM")])
    second = estimate_serving(
        serving_workload(), [serving_bid("a", gpu="H200-SXM"), serving_bid("b")]
    )
    alone = mc.serving_uncertainty(first, samples=48).bands[0]
    beside = mc.serving_uncertainty(second, samples=48).bands[0]
    assert (
        alone.cost_per_million == beside.cost_per_million
        and alone.monthly_cost == beside.monthly_cost
    )


def test_a_benchmarked_bid_draws_its_own_engine_factor_not_the_buyers_stack(monkeypatch):
    # The benchmark sets both efficiencies of the measured bid (one engine factor), so the
    # buyer-stack compute draw and the market MBU draw must not move its band; with its own
    # grade's spread at 0 the band is its point cost, while the bid without evidence spreads.
    # (A claim without a log is drawn as silence is: issue 31, test_honesty.py.) The buyer's
    # engine is named, the run's own: an unstated engine would move every bid, the measured too.
    monkeypatch.setattr(
        serving_draws, "MBU_SIGMA", {**mc.MBU_SIGMA, EvidenceGrade.MEASURED_PROVIDER: 0.0}
    )
    monkeypatch.setattr(serving_draws, "COMPUTE_SIGMA", 0.4)
    monkeypatch.setattr(serving_draws, "MARKET_MBU_SIGMA", 0.4)
    evidence = MEASURED_H200_RUN  # its whole shape stated: nothing widens it
    bids = [
        serving_bid("measured", gpu="H200-SXM", evidence=[evidence]),
        serving_bid("spec", gpu="H200-SXM"),
    ]
    # A peak of 120 requests/s needs several nodes, so efficiency draws move whole nodes.
    estimates = estimate_serving(
        serving_workload(
            peak_requests_per_s=120, average_requests_per_s=50, serving_engine="tensorrt-llm"
        ),
        bids,
    )
    measured, spec = mc.serving_uncertainty(estimates, samples=40).bands
    assert measured.cost_per_million == pytest.approx(
        (estimates.bids[0].cost_per_million_tokens,) * 3, rel=1e-12
    )
    assert spec.cost_per_million[0] < spec.cost_per_million[2]
    # Issue 37: the same run without its lengths is drawn wider (0.12 and 0.09 in quadrature).
    unstated = {k: v for k, v in evidence.items() if k not in ("prompt_tokens", "output_tokens")}
    bids[0] = serving_bid("measured", gpu="H200-SXM", evidence=[unstated])
    estimates = estimate_serving(
        serving_workload(
            peak_requests_per_s=120, average_requests_per_s=50, serving_engine="tensorrt-llm"
        ),
        bids,
    )
    widened = mc.serving_uncertainty(estimates, samples=40).bands[0]
    assert widened.cost_per_million[0] < widened.cost_per_million[2]


def test_the_bands_spread_and_the_chances_add_up_on_the_demo():
    evaluation = Evaluation.model_validate(json.loads(DEMO.read_text(encoding="utf-8")))
    scorecard = score_serving_evaluation(evaluation)
    report = serving_scorecard_to_json(scorecard)
    bands = {b["bid_id"]: b["uncertainty"] for b in report["bids"]}
    assert bands["lumen-l40s"] is None  # cannot serve: no band
    chances = [b["chance_cheapest"] for b in bands.values() if b]
    assert sum(chances) == pytest.approx(1.0, abs=1e-9)
    for band in (b for b in bands.values() if b):
        p10, p50, p90 = (
            float(band["cost_per_million_output_tokens"][k]["amount"])
            for k in ("p10", "p50", "p90")
        )
        assert p10 <= p50 <= p90 and p10 < p90  # +/-15% efficiencies move whole nodes


def test_each_tipping_point_is_where_re_scoring_changes_the_winner():
    from clusterbid.core.uncertainty.serving_tipping import serving_tipping_points

    data = json.loads(DEMO.read_text(encoding="utf-8"))
    scorecard = score_serving_evaluation(Evaluation.model_validate(data))
    points = serving_tipping_points(scorecard)
    checked = 0
    for name, t in points.items():
        policy_name = "cost_to_finish" if name == "cost_per_million_tokens" else name
        for edge, winner in ((t.lower, t.winner_below), (t.upper, t.winner_above)):
            if edge is None:
                continue
            for moved in (edge - 0.05, edge + 0.05):
                changed = json.loads(json.dumps(data))
                changed["policy"]["weights"][policy_name] = moved
                first = (
                    score_serving_evaluation(Evaluation.model_validate(changed)).ranked[0].bid.id
                )
                beyond = moved < edge if edge == t.lower else moved > edge
                assert (first == winner) if beyond else (first == scorecard.ranked[0].bid.id)
            checked += 1
    assert checked >= 3
