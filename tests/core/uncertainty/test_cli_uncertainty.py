"""`clusterbid score` shows the bands, win probabilities, evidence used and tipping points."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation


def test_score_text_has_bands_evidence_tipping_points_and_tornado(capsys):
    assert main(["score", str(EXAMPLES / "demo-evaluation.json"), "--samples", "2000"]) == 0
    out = capsys.readouterr().out
    assert "rank  bid" in out and "net plan cost" in out  # the existing table is still there
    assert f"Monte Carlo, 2,000 samples, seed {demo_evaluation().policy.random_seed}" in out
    assert "P(cheapest)" in out and "Tipping points" in out and "Tornado" in out
    # northwind-ib: 8 x 400G x 0.94 = 376 GB/s, x 2 x 15/16 for SHARP over the 16 nodes of a DP group
    assert "scale-out busbw 705 GB/s (spec; sigma 15%)" in out


def test_score_json_carries_the_same(capsys):
    assert (
        main(["score", str(EXAMPLES / "seed-network-example.json"), "--json", "--samples", "500"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["monte_carlo"]["samples"] == 500
    first = report["bids"][0]
    band = first["uncertainty"]
    assert (
        float(band["cost_p10"]["amount"])
        <= float(band["cost_p50"]["amount"])
        <= float(band["cost_p90"]["amount"])
    )
    assert 0 <= band["win_probability"] <= 1
    # The example's first bid carries a buyer-measured step time at 256 GPUs.
    efficiency = first["evidence_used"]["efficiency"]
    assert (efficiency["kind"], efficiency["grade"], efficiency["scale_gpus"]) == (
        "training_step_time",
        "measured_independent",
        256,
    )
    assert set(report["sensitivity"]["tipping_points"]) == {
        "cost_to_finish",
        "sla",
        "datacenter_tier",
        "certifications",
        "support",
        "contract_terms",
        "evidence",
    }
    assert report["sensitivity"]["tornado"][0]["input"]


def test_excluded_bids_have_no_band(capsys):
    assert (
        main(["score", str(EXAMPLES / "demo-evaluation.json"), "--json", "--samples", "200"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    excluded = [b for b in report["bids"] if not b["gates"]["passed"]]
    assert excluded and all(b["uncertainty"] is None for b in excluded)


def test_bad_sample_count_exits_2_with_a_message(capsys):
    assert main(["score", str(EXAMPLES / "demo-evaluation.json"), "--samples", "0"]) == 2
    assert "--samples must be at least 1" in capsys.readouterr().err
