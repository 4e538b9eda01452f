"""Issue 34, item 2: the policy's must-haves (a required certification, where the data is held,
dedicated tenancy) exclude a bid that lacks one, with words naming it; they are not a score."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.conftest import EXAMPLES

from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.serving_scoring import score_serving_evaluation, serving_run
from clusterbid.core.uncertainty.serving_montecarlo import draw_serving


def _demo(must_haves: dict, facilities: dict | None = None) -> Evaluation:
    data = demo_evaluation().model_dump(mode="json")
    data["policy"]["must_haves"] = must_haves
    for bid in data["bids"]:
        bid["facility"].update((facilities or {}).get(bid["id"], {}))
    return Evaluation.model_validate(data)


def _gates(scorecard) -> dict[str, list[str]]:
    return {s.bid.id: [g.message for g in s.estimate.gates] for s in scorecard.scores}


def test_without_must_haves_the_demo_ranks_as_before():
    before = score_evaluation(demo_evaluation())
    after = score_evaluation(_demo({}))
    assert [s.bid.id for s in after.ranked] == [s.bid.id for s in before.ranked]


def test_a_required_certification_excludes_the_bids_that_lack_it_by_name():
    # The demo file: legacy-a100 and cumulus-roce hold SOC2 only; northwind-ib and prime-efa both.
    scorecard = score_evaluation(_demo({"certifications": ["SOC2", "ISO27001"]}))
    assert {s.bid.id for s in scorecard.ranked} == {"northwind-ib", "prime-efa"}
    gates = _gates(scorecard)
    for bid_id in ("legacy-a100", "cumulus-roce"):
        assert any(
            m.startswith("lacks ISO27001, which the policy requires of every bid")
            for m in gates[bid_id]
        )
    assert any("lacks SOC2, ISO27001" in m for m in gates["budget-tcp"])
    assert not any("policy requires" in m for m in gates["northwind-ib"])


def test_residency_and_tenancy_gate_a_bid_that_says_otherwise_or_nothing():
    scorecard = score_evaluation(
        _demo(
            {"data_residency": ["EU"], "tenancy": "dedicated"},
            {
                "northwind-ib": {"data_residency": "eu", "tenancy": "dedicated"},
                "prime-efa": {"data_residency": "US", "tenancy": "shared"},
            },
        )
    )
    assert [s.bid.id for s in scorecard.ranked] == ["northwind-ib"]  # the only one stating both
    gates = _gates(scorecard)
    assert "holds the data in US; the policy requires the data to stay in EU" in " ".join(
        gates["prime-efa"]
    )
    assert "offers shared hosts or fabric; the policy requires dedicated tenancy" in " ".join(
        gates["prime-efa"]
    )
    assert "does not say where the data is held" in " ".join(gates["legacy-a100"])
    assert "does not say whether hosts and fabric are shared" in " ".join(gates["legacy-a100"])


def test_the_serving_ranking_applies_the_same_must_haves():
    data = Evaluation.model_validate_json((EXAMPLES / "demo-serving-evaluation.json").read_text())
    plain = score_serving_evaluation(data)
    ranked = [s.bid.id for s in plain.ranked]
    assert len(ranked) >= 2
    keep = ranked[0]
    dumped = data.model_dump(mode="json")
    dumped["policy"]["must_haves"] = {"tenancy": "dedicated"}
    for bid in dumped["bids"]:
        bid["facility"]["tenancy"] = "dedicated" if bid["id"] == keep else "shared"
    gated = score_serving_evaluation(Evaluation.model_validate(dumped))
    assert [s.bid.id for s in gated.ranked] == [keep]
    # The one bid left is the cheapest in every draw (the excluded bids were counted in the
    # draws), and its own draws are the ones it had without the gate, draw for draw (the default
    # run may stop sooner once fewer bids compete, so the fixed count of 2,000 compares them).
    (kept,) = [b for b in gated.uncertainty.bands if b.chance_cheapest > 0]
    assert kept.bid_id == keep and kept.chance_cheapest == 1.0
    run, estimates = serving_run(Evaluation.model_validate(dumped))
    row = [e.bid.id for e in run.bids].index(keep)
    alone = draw_serving(ServingEstimates(run.workload, estimates), 2_000).per_million[row]
    assert (alone == draw_serving(serving_run(data)[0], 2_000).per_million[row]).all()


def test_the_only_serving_bid_a_certification_lets_through_is_cheapest_in_every_draw():
    """Northwind alone holds ISO27017 in the serving demo; it is dearer than the H200 bids, so
    counted among them it was 'cheapest in 0% of samples' though it is the only bid ranked."""
    data = Evaluation.model_validate_json((EXAMPLES / "demo-serving-evaluation.json").read_text())
    dumped = data.model_dump(mode="json")
    dumped["policy"]["must_haves"] = {"certifications": ["ISO27017"]}
    gated = score_serving_evaluation(Evaluation.model_validate(dumped))
    assert [s.bid.id for s in gated.ranked] == ["northwind-ib"]
    assert gated.band("northwind-ib").chance_cheapest == 1.0
    assert all(
        b.chance_cheapest == 0.0 for b in gated.uncertainty.bands if b.bid_id != "northwind-ib"
    )


def test_a_must_have_outside_the_known_certifications_is_refused_by_name():
    with pytest.raises(ValidationError, match="must_haves.certifications"):
        _demo({"certifications": ["ISO9001"]})
