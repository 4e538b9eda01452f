"""Sweeps that stop below 1 GiB: a lower bound from the largest size, the per-size curve, a wider band.

Figures come from tests/data/nccl-tests/sweep_128m_2x8.log (written for this test in nccl-tests'
format): 16 ranks on 2 hosts, all_reduce, busbw = algbw x 2 x 15 / 16 = algbw x 1.875.
"""

from __future__ import annotations

import json
import math

from nccl_fixture_files import FIXTURES, fixture_text
from tests.conftest import bid_dict
from tests.core.uncertainty.helpers import evaluation, evidence

from clusterbid.cli import main
from clusterbid.core.evidence import parse_nccl_tests_text
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import run_monte_carlo
from clusterbid.core.uncertainty.spreads import Spreads, bid_inputs

SHORT = FIXTURES / "sweep_128m_2x8.log"
MIB = 2**20


def test_a_128_mib_sweep_is_scored_at_its_largest_size_as_a_lower_bound() -> None:
    (run,) = parse_nccl_tests_text(fixture_text("sweep_128m_2x8.log"), "short.log")
    # 128 MiB row: out-of-place algbw 96.00 -> 96.00 x 1.875 = 180.00; in-place 95.20 -> 178.50.
    assert (run.plateau.busbw_gb_s, run.plateau.size_bytes, run.plateau.placement) == (
        180.00,
        128 * MIB,
        "out_of_place",
    )
    assert run.plateau.saturated is False
    (flag,) = [f for f in run.flags if f.code == "sweep_below_1gib"]
    assert flag.message.startswith("sweep stops at 128 MiB: bandwidth not saturated, a lower bound")
    assert "busbw_formula_mismatch" not in run.flag_codes()


def test_the_lower_bound_becomes_evidence_that_says_so() -> None:
    reading = read_evidence(SHORT.read_bytes(), "short.log")
    (item,) = reading.evidence
    assert (item.value, item.scale_gpus) == (180.00, 16)
    assert "lower bound" in item.lower_bound and "128 MiB" in item.lower_bound
    assert "busbw lower bound 180 GB/s at 128 MiB" in item.description


def test_json_output_carries_the_per_size_curve(capsys) -> None:
    assert main(["evidence", "parse", str(SHORT), "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)["nccl_runs"]
    assert run["run"] == 1 and run["plateau"]["saturated"] is False
    assert [p["bytes"] for p in run["curve"]] == [8 * MIB, 16 * MIB, 32 * MIB, 64 * MIB, 128 * MIB]
    first = run["curve"][0]
    # 8 MiB row as written: oop 582.5 us, algbw 14.40 -> busbw 27.00; in-place 14.56 -> 27.30.
    assert first["out_of_place"] == {
        "time_us": 582.5,
        "algbw_gb_s": 14.40,
        "busbw_gb_s": 14.40 * 1.875,
    }
    assert first["in_place"]["busbw_gb_s"] == 27.30


def test_text_output_shows_the_curve_and_the_lower_bound(capsys) -> None:
    assert main(["evidence", "parse", str(SHORT)]) == 0
    out = capsys.readouterr().out
    assert "busbw lower bound: 180 GB/s at 128 MiB (out-of-place): sweep stops at 128 MiB" in out
    assert "64 MiB" in out and "132" in out  # the 64 MiB row: 70.40 x 1.875 = 132.00


def _busbw_sigma(item: dict) -> float:
    ev = evaluation([bid_dict(evidence=[item])])
    estimate = score_evaluation(ev).scores[0].estimate
    busbw = bid_inputs(estimate, ev.workload.job_gpus, Spreads())[0]
    assert busbw.name == "busbw" and busbw.evidence is not None
    return busbw.sigma


def test_a_lower_bound_widens_the_busbw_draw_of_the_monte_carlo() -> None:
    plateau = evidence("allreduce_busbw", 150.0, 64)
    bound = plateau | {
        "lower_bound": "sweep stops at 128 MiB: bandwidth not saturated, a lower bound"
    }
    # The lower-bound sigma adds 0.20 in quadrature to whatever grade and scale gave.
    assert math.isclose(_busbw_sigma(bound), math.hypot(_busbw_sigma(plateau), 0.20))
    ev = evaluation([bid_dict(evidence=[bound])])
    assert score_evaluation(ev).scores[0].estimate.node_busbw_gb_s == 150.0  # used as measured
    assert run_monte_carlo(ev, 2000).bids["b1"].cost_p90 > 0
