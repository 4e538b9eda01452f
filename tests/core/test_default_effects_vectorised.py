"""Issue 32: the default-effects pass runs the cost model once per input over every bid, and
must give, figure for figure, what the per-bid pass gave (tests/core/default_effects_reference.py,
the pass as first written: one model run per bid per input, ranks counted one by one)."""

from __future__ import annotations

import random

import pytest
from tests.conftest import bid_dict, evaluation_dict
from tests.core.default_effects_reference import per_bid_default_effects

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty import default_effects as effects_module
from clusterbid.core.uncertainty.default_effects import default_effects, scorecard_default_effects
from clusterbid.core.uncertainty.model_inputs import model_inputs

KINDS = ("provider", "default", "not_stated", "measured")
RELIABILITY = {  # document field -> (low, high) drawn from
    "failures_per_1000_gpu_days": (0.2, 2.0),
    "node_replacement_hours": (2.0, 48.0),
    "uptime_sla_percent": (99.0, 99.99),
    "storage_write_gb_s": (50.0, 400.0),
    "burn_in_hours": (0.0, 24.0),
}


def _source(rng: random.Random) -> dict:
    kind = rng.choice((*KINDS, "assumption"))
    return {"kind": kind, "who": "the buyer"} if kind == "assumption" else {"kind": kind}


def _random_bid(rng: random.Random, index: int, prices: list[str]) -> dict:
    """A bid with its figures and their sources drawn: some prices repeated (ties in rank), some
    bids gated (a block smaller than the job), term contracts with and without exit clauses."""
    price = rng.choice(prices) if prices and rng.random() < 0.3 else f"{rng.uniform(1.8, 3.2):.2f}"
    prices.append(price)
    terms: dict = {"price_per_gpu_hour": price, "currency": "USD"}
    if rng.random() < 0.5:
        terms.update(
            billing="reserved",
            term_months=rng.choice((3, 12, 24)),
            exit_clause=rng.random() < 0.5,
            early_exit_fee_percent=rng.choice((None, 20.0, 50.0)),
            price_escalation_percent_per_year=rng.choice((None, 0.0, 4.0)),
        )
    reliability: dict = {name: round(rng.uniform(*ends), 2) for name, ends in RELIABILITY.items()}
    capacity: dict = {
        "spare_pool_gpus": rng.choice((0, 8, 16)),
        "largest_contiguous_block_gpus": 256 if rng.random() < 0.15 else 512,
    }  # job: 512
    provenance = {f"reliability.{name}": _source(rng) for name in RELIABILITY if rng.random() < 0.7}
    if rng.random() < 0.5:
        provenance["capacity.spare_pool_gpus"] = _source(rng)
    for path, source in provenance.items():
        section, name = path.split(".")
        if source["kind"] == "not_stated":  # left empty (no spares: 0): its default is used
            (reliability if section == "reliability" else capacity)[name] = (
                None if section == "reliability" else 0
            )
    for term in ("terms.early_exit_fee_percent", "terms.price_escalation_percent_per_year"):
        if rng.random() < 0.3:
            provenance[term] = {"kind": "provider"}
    return bid_dict(
        f"r{index:03d}",
        terms=terms,
        reliability=reliability,
        capacity=capacity,
        provenance=provenance,
    )


def _random_evaluation(seed: int, bids: int) -> Evaluation:
    rng, prices = random.Random(seed), []
    return Evaluation.model_validate(
        evaluation_dict([_random_bid(rng, i, prices) for i in range(bids)])
    )


def _both(evaluation: Evaluation):
    inputs = model_inputs(evaluation, score_evaluation(evaluation))
    return per_bid_default_effects(inputs, evaluation), default_effects(inputs, evaluation)


def test_the_demo_gets_the_same_effects_figure_for_figure():
    reference, vectorised = _both(demo_evaluation())
    assert list(vectorised) == list(reference)  # every bid, in the document's order
    assert vectorised == reference  # same fields, same ends, same costs to the last bit, same ranks
    assert all(reference.values())  # every demo bid has unverified inputs to move


@pytest.mark.parametrize("seed", range(8))
def test_generated_documents_get_the_same_effects(seed):
    evaluation = _random_evaluation(seed, 14)
    reference, vectorised = _both(evaluation)
    assert vectorised == reference
    ranked = {s.bid.id for s in score_evaluation(evaluation).ranked}
    gated = [bid_id for bid_id in reference if bid_id not in ranked]
    # The draws reach the paths that matter: gated bids (no rank) and bids with effects.
    assert all(e.cost_rank_low is None for bid_id in gated for e in reference[bid_id])
    assert sum(len(effects) for effects in reference.values()) > len(reference)


def test_the_model_runs_once_per_input_not_once_per_bid_per_input(monkeypatch):
    evaluation = _random_evaluation(99, 40)
    inputs = model_inputs(evaluation, score_evaluation(evaluation))
    calls: list[int] = []
    real = effects_module.cost_and_hours

    def counted(workload, arrays):
        calls.append(1)
        return real(workload, arrays)

    monkeypatch.setattr(effects_module, "cost_and_hours", counted)
    found = default_effects(inputs, evaluation)
    paths = {e.field for effects in found.values() for e in effects}
    assert len(calls) == 1 + len(paths)  # the point costs, then one run per input over all bids
    assert sum(len(effects) for effects in found.values()) > 4 * len(calls)
    assert any(
        e.moves_rank for effects in found.values() for e in effects
    )  # rank counting exercised


def test_a_scorecard_derives_its_effects_once_and_a_rescored_one_afresh(monkeypatch):
    runs: list[str] = []
    real = effects_module.default_effects
    monkeypatch.setattr(
        effects_module,
        "default_effects",
        lambda inputs, evaluation: runs.append("run") or real(inputs, evaluation),
    )
    scorecard = score_evaluation(demo_evaluation())
    first = scorecard_default_effects(scorecard)
    assert scorecard_default_effects(scorecard) is first and runs == ["run"]
    scorecard_default_effects(score_evaluation(demo_evaluation()))  # a new scoring: its own pass
    assert runs == ["run", "run"]
