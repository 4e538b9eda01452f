"""Value of information for serving (issue 37), checked by hand: a bid whose throughput is only
stated is worth measuring when it could take the choice, a bid pinned by its benchmark is not,
no measurement is worth anything when one bid is far cheaper, and one EVPPI is recomputed from
the serving draws with numpy alone (sort, cut into equal bins, average, take the minimum)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from serving_builders import MEASURED_H200_RUN as MEASURED
from serving_builders import serving_bid_dict, serving_dict
from tests.conftest import EXAMPLES, evaluation_dict

from clusterbid.cli import main
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.serving_scoring import serving_run
from clusterbid.core.uncertainty import serving_draws
from clusterbid.core.uncertainty.serving_montecarlo import draw_serving
from clusterbid.core.uncertainty.serving_value import serving_value

SAMPLES, SEED = 4000, 7  # 10 bins of 400 draws (value_of_information.MIN_PER_BIN)
# 120 requests/s at peak needs several nodes, so the drawn efficiencies move whole nodes.
# The buyer's engine named: an unstated one would draw the measured bid too (one engine for all).
WORKLOAD = serving_dict(
    peak_requests_per_s=120, average_requests_per_s=50, serving_engine="tensorrt-llm"
)
TERMS = {"payment_terms_days": 30}  # stated: payment days are not drawn


def _evaluation(spec_price: str, measured_price: str = "3.00") -> Evaluation:
    bids = [
        serving_bid_dict("measured", "H200-SXM", measured_price, evidence=[MEASURED]),
        serving_bid_dict("spec", "H200-SXM", spec_price),
    ]
    for bid in bids:
        bid["terms"] = {**bid["terms"], **TERMS}
    return Evaluation.model_validate(evaluation_dict(bids, workload=WORKLOAD))


@pytest.fixture
def pinned(monkeypatch):
    """The measured bid's benchmark pins its engine factor (its grade's spread 0): nothing is
    left for a measurement of it to settle."""
    monkeypatch.setattr(
        serving_draws, "MBU_SIGMA", {**serving_draws.MBU_SIGMA, EvidenceGrade.MEASURED_PROVIDER: 0}
    )


def _tied() -> Evaluation:
    """The stated bid priced so its expected cost per million tokens meets the measured one's:
    the serving cost scales with the GPU-hour price at a fixed fleet (every figure is GPU-hours
    times the price), so the ratio of the two expected costs at one price sets the other."""
    first = serving_value(_evaluation("3.00"), SAMPLES, SEED)
    ratio = first.expected_cost["measured"] / first.expected_cost["spec"]
    return _evaluation(f"{3.00 * ratio:.2f}")


def _value(voi, bid_id, name):
    return next(v for v in voi.values if v.bid_id == bid_id and v.input == name)


def test_the_stated_throughput_is_worth_measuring_and_the_pinned_one_is_not(pinned):
    voi = serving_value(_tied(), SAMPLES, SEED)
    spec = _value(voi, "spec", "serving_efficiency")
    measured = _value(voi, "measured", "serving_efficiency")
    # A +/-15% market shock on a tie: a measurement flips the choice in a good share of the bins
    # and saves a visible share of the cost per million (well above 0.1%, the noise floor).
    assert spec.change_probability >= 0.2
    assert spec.evpi > 0.001 * voi.expected_cost[voi.choice]
    # A constant draw: no bin of it changes the choice, so no bin saves anything.
    assert measured.evpi == 0.0 and measured.change_probability == 0.0
    assert spec.source == "the workload's assumed efficiencies"
    assert measured.source == EvidenceGrade.MEASURED_PROVIDER.value
    assert voi.values[0] is spec  # the stated bid's benchmark comes first


def test_no_measurement_can_change_a_choice_five_times_cheaper():
    # Same GPU, same fleet: $1.00 against $5.00 a GPU-hour is a fifth of the cost per million.
    # The widest draw (market 0.15 and own 0.05 in log space, about 4 sigma over 20,000 draws)
    # moves the dear bid's cost by under a factor exp(4 x 0.16) = 1.9, never the 5 it needs.
    voi = serving_value(_evaluation("5.00", measured_price="1.00"), SAMPLES, SEED)
    assert voi.choice == "measured"
    assert all(v.evpi == 0.0 and v.change_probability == 0.0 for v in voi.values)
    assert {v.input for v in voi.values} == {
        "serving_efficiency",
        "failure_rate",
        "replacement_hours",
    }  # payment days are stated, so not drawn; traffic growth is never a provider's to measure


def test_one_evpi_recomputed_from_the_draws_with_numpy(pinned):
    evaluation = _tied()
    voi = serving_value(evaluation, SAMPLES, SEED)
    run, _ = serving_run(evaluation)
    drawn = draw_serving(run, SAMPLES, SEED)
    cost = np.where(np.isfinite(drawn.per_million), drawn.per_million, np.nan)
    means = np.nanmean(cost, axis=1)
    # The stated bid's efficiency is its own and the market's draw; the measured bid's is its own
    # run's, so only the stated bid's cost moves with it: the other keeps its overall mean.
    order = np.argsort(drawn.mbu[1], kind="stable")
    bins = np.array_split(order, 10)
    spec_in_bin = np.array([np.nanmean(cost[1, b]) for b in bins])
    best = np.minimum(spec_in_bin, means[0])
    expected = means.min() - best.mean()
    assert _value(voi, "spec", "serving_efficiency").evpi == pytest.approx(expected, rel=1e-9)
    changes = np.mean(np.argmin(np.vstack([np.full(10, means[0]), spec_in_bin]), axis=0) != 0)
    assert _value(voi, "spec", "serving_efficiency").change_probability == pytest.approx(
        changes if means[0] <= means[1] else 1 - changes
    )


def test_the_cli_prints_the_value_and_the_pack_asks_the_worthier_question_first(
    pinned, tmp_path, capsys
):
    evaluation = _tied()
    data = evaluation.model_dump(mode="json")
    del data["bids"][1]["terms"]["payment_terms_days"]  # unstated: drawn, so worth asking
    path = tmp_path / "tied.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    args = ["request-evidence", str(path), "--bid", "spec", "-o", str(tmp_path / "out")]
    assert main([*args, "--samples", str(SAMPLES), "--issued-on", "2026-11-26"]) == 0
    said = capsys.readouterr().out
    voi = serving_value(Evaluation.model_validate(data), SAMPLES)
    spec = _value(voi, "spec", "serving_efficiency")
    assert (
        f"Ask Provider spec for the pack's serving benchmark runs (now: the workload's assumed "
        f"efficiencies): {spec.change_probability:.0%} chance it changes the choice, worth about "
        f"${spec.evpi:,.4f} per million output tokens"
    ) in said
    pack = json.loads((tmp_path / "out" / "spec-evidence-request-2026-11-26.json").read_text())
    text = json.dumps(pack)
    assert '"measured"' not in text and "Provider measured" not in text  # no rival named
    assert "chance" not in text and "per million output tokens" not in text  # nor any value
    payment = _value(voi, "spec", "payment_days").evpi
    credit = max(_value(voi, "spec", n).evpi for n in ("failure_rate", "replacement_hours"))
    first = "Payment terms" if payment >= credit else "Service credits"
    assert pack["questions"][0].startswith(first)


def test_everything_known_is_worth_at_least_one_measurement_when_the_choice_misses_draws():
    """The serving demo with Quarry GPU offering 80 GPUs: it can serve 95% of the draws (enough to
    be ranked: serving_capacity_gate.py) and its expected cost over them is the lowest, but it
    misses some. Knowing every figure is worth the choice's cost less each draw's cheapest, over
    the draws the choice serves; it printed $0 beside single measurements worth more when the
    cheapest was averaged over every draw."""
    data = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text(encoding="utf-8"))
    for bid in data["bids"]:
        if bid["id"] == "quarry-h100":
            bid["capacity"]["gpus_offered"] = 80
    evaluation = Evaluation.model_validate(data)
    voi = serving_value(evaluation, SAMPLES, SEED)
    run, _ = serving_run(evaluation)
    drawn = draw_serving(run, SAMPLES, SEED)
    rows = np.flatnonzero(drawn.eligible[:, 0])
    cost = np.where(np.isfinite(drawn.per_million[rows]), drawn.per_million[rows], np.nan)
    means = np.nanmean(cost, axis=1)
    choice = int(np.argmin(means))
    assert run.bids[rows[choice]].bid.id == voi.choice == "quarry-h100"
    served = ~np.isnan(cost[choice])
    assert 0 < served.sum() < SAMPLES  # the case itself: the choice misses some draws
    expected = np.mean(cost[choice, served] - np.nanmin(cost[:, served], axis=0))
    assert voi.total_evpi == pytest.approx(expected, rel=1e-9)
    assert voi.total_evpi >= max(v.evpi for v in voi.values) > 0


@pytest.mark.parametrize("samples", ["0", "-5"])
def test_a_bad_sample_count_is_refused_by_name_as_for_training(samples, tmp_path, capsys):
    demo = str(EXAMPLES / "demo-serving-evaluation.json")
    args = ["request-evidence", demo, "--bid", "quarry-h100", "-o", str(tmp_path / "out")]
    assert main([*args, "--samples", samples]) == 2
    said = capsys.readouterr().err
    assert f"samples must be a whole number from 1 to 10,000,000, not {samples}" in said
    assert not (tmp_path / "out").exists()  # nothing written
