"""A measured run at other lengths than the service's is said in the notes (score, JSON, app, memo)
and drawn wider (issue 37 item 1, found by a tester): a vLLM run at 3,000-token prompts and
150-token outputs attached to a 1,000/600 service narrowed the bid's P10-P90 by half and lifted it
to first, while "carries over only roughly" was said once, at attach time. Spreads worked by
hand: a provider's measured run draws its engine factor at 0.07 in log space; a carry between
lengths adds log(1.12), the largest of the validation's TensorRT-LLM length carries (2-12%)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from serving_builders import MEASURED_H200_RUN, serving_bid, serving_workload

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_evidence_shape import carried_across_lengths
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.uncertainty import serving_draws

SAMPLES = 20_000
AT_SERVICE = {**MEASURED_H200_RUN, "tensor_parallel": 1}  # 1,000 / 600, the service's lengths
LONG_PROMPTS = {**AT_SERVICE, "prompt_tokens": 3000, "output_tokens": 150, "value": 300}


def _estimates(run: dict):
    workload = serving_workload(
        peak_requests_per_s=120,
        serving_engine="tensorrt-llm",
        prompt_tokens=1000,
        output_tokens=600,
    )
    return estimate_serving(workload, [serving_bid("offer", gpu="H200-SXM", evidence=[run])])


def _log_spread(estimates) -> float:
    mbu, _ = serving_draws.efficiency_draws(estimates, np.ones(1), SAMPLES, seed=11)
    return float(np.log(mbu[0]).std())


def test_a_run_at_the_services_lengths_says_nothing_and_keeps_its_grades_spread():
    estimates = _estimates(AT_SERVICE)
    assert not any("The run was measured at" in n for n in estimates.bids[0].calibration_notes)
    assert _log_spread(estimates) == pytest.approx(0.07, rel=0.03)


def test_a_run_at_other_lengths_is_said_and_drawn_wider():
    estimates = _estimates(LONG_PROMPTS)
    estimate = estimates.bids[0]
    assert estimate.throughput_evidence is not None  # used, not flagged
    said = [n for n in estimate.calibration_notes if n.startswith("The run was measured at 3,000")]
    assert len(said) == 1 and "the service has 1,000 and 600" in said[0]
    assert "widened by 11%" in said[0] and "ask for a run at the service's lengths" in said[0]
    assert _log_spread(estimates) == pytest.approx(math.hypot(0.07, math.log(1.12)), rel=0.03)


def test_the_rule_is_the_attach_findings_0_75_to_4_3():
    run = Evidence.model_validate({**AT_SERVICE, "prompt_tokens": 760, "output_tokens": 790})
    assert not carried_across_lengths(run, 1000, 600)  # 0.76 and 1.32: inside
    run = Evidence.model_validate({**AT_SERVICE, "prompt_tokens": 740})
    assert carried_across_lengths(run, 1000, 600)  # 0.74: outside


def test_the_memo_says_the_run_was_carried_between_lengths():
    from tests.conftest import EXAMPLES

    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.memo.serving_tables import unverified
    from clusterbid.core.serving_scoring import score_serving_evaluation

    demo = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    data = demo.model_dump(mode="json")
    ridge = next(b for b in data["bids"] if b["id"] == "ridge-h200-ib")
    ridge["evidence"] = [*ridge.get("evidence", []), LONG_PROMPTS]
    scorecard = score_serving_evaluation(type(demo).model_validate(data))
    line = next(line for line in unverified(scorecard) if line.startswith("Ridge"))
    assert (
        "It ran at 3,000-token prompts and 150-token outputs, carried to the service's 1,000 "
        in (line)
    )


def test_the_bands_share_that_can_serve_is_named_for_what_it_is_and_never_rounds_to_100():
    # A tester read "meets the targets in 100%" on the band line beside "88% of the Monte Carlo
    # draws" on the targets line: the first is whether any fleet within the GPUs offered can
    # serve, the second the fleet as costed, and 99.6% had been rounded up to 100%.
    from clusterbid.core.serving_words import band_text
    from clusterbid.core.uncertainty.serving_bands import ServingBand

    def band(share: float) -> ServingBand:
        return ServingBand(
            bid_id="offer",
            cost_per_million=(1.0, 1.2, 1.5),
            monthly_cost=(1e5, 1.2e5, 1.5e5),
            chance_cheapest=0.5,
            chance_servable=share,
            mean_cost_per_million=1.25,
            point_percentile=0.5,
        )

    assert "within the targets in over 99%" in band_text(band(0.996), "USD")
    assert "the GPUs offered can carry the workload within the targets in 88%" in band_text(
        band(0.88), "USD"
    )
    assert "carry the workload" not in band_text(band(1.0), "USD")


def test_an_independent_run_carried_to_the_service_does_not_end_in_nothing_to_ask():
    # A tester read "measured independently ...; nothing to ask." then "ask for a run at ...".
    from tests.conftest import EXAMPLES

    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.memo.serving_tables import unverified
    from clusterbid.core.serving_scoring import score_serving_evaluation

    demo = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    data = demo.model_dump(mode="json")
    ridge = next(b for b in data["bids"] if b["id"] == "ridge-h200-ib")
    third_party = {**LONG_PROMPTS, "grade": "measured_independent", "measured_by": "third_party"}
    ridge["evidence"] = [*ridge.get("evidence", []), third_party]
    line = next(
        line
        for line in unverified(score_serving_evaluation(type(demo).model_validate(data)))
        if line.startswith("Ridge")
    )
    assert "measured independently" in line and "nothing to ask" not in line
    assert "carried to the service's 1,000 and 600" in line
