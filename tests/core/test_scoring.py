"""Gates, ranking and weights, and the demo's lesson: the cheapest quote is not the cheapest work."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, evaluation_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation, sla_score


def test_demo_cheapest_hourly_quote_is_not_cheapest_finished_work():
    evaluation = demo_evaluation()
    scorecard = score_evaluation(evaluation)
    prices = {b.id: b.terms.price_per_gpu_hour for b in evaluation.bids}
    cheapest_quote = min(prices, key=prices.get)
    winner = scorecard.ranked[0]
    assert winner.bid.fabric.technology.startswith("IB-")
    assert winner.bid.topology.oversubscription_ratio == 1
    assert winner.cost_rank == 1
    assert prices[winner.bid.id] > prices[cheapest_quote]
    by_id = {s.bid.id: s for s in scorecard.scores}
    # The lowest hourly quote either cannot run the job or costs more to finish.
    loser = by_id[cheapest_quote]
    assert loser.rank is None or loser.estimate.plan_cost > winner.estimate.plan_cost
    # Every bid priced below the winner per hour ends up excluded or dearer to finish.
    for bid_id, price in prices.items():
        if price < prices[winner.bid.id]:
            s = by_id[bid_id]
            assert s.rank is None or s.estimate.plan_cost > winner.estimate.plan_cost, bid_id


def test_demo_has_the_gates_the_seeds_warn_about():
    scorecard = score_evaluation(demo_evaluation())
    codes = {g.code for s in scorecard.scores for g in s.estimate.gates}
    assert {"contiguous_block_too_small", "tcp_only_multi_node"} <= codes
    assert len(demo_evaluation().bids) in (5, 6)
    assert demo_evaluation().workload.job_gpus in (256, 512)


def test_gated_bids_are_excluded_from_the_ranking():
    small_block = bid_dict(
        "small",
        capacity={"gpus_offered": 512, "largest_contiguous_block_gpus": 256},
        topology={"leaf_domain_gpus": 256},
    )
    tcp = bid_dict(
        "tcp",
        fabric={
            "technology": "TCP-Ethernet",
            "nics_per_node": 2,
            "nic_line_rate_gbit_s": 100,
            "gpudirect_rdma": False,
        },
    )
    fp8_on_a100 = bid_dict(
        "a100",
        capacity={"gpu_model": "A100-80GB-SXM"},
        fabric={"technology": "IB-HDR200", "nic_line_rate_gbit_s": 200},
    )
    wide_tp = bid_dict("ok")
    evaluation = Evaluation.model_validate(
        evaluation_dict(
            [small_block, tcp, fp8_on_a100, wide_tp], workload=workload_dict(precision="fp8")
        )
    )
    scores = {s.bid.id: s for s in score_evaluation(evaluation).scores}
    assert [g.code for g in scores["small"].estimate.gates] == ["contiguous_block_too_small"]
    assert [g.code for g in scores["tcp"].estimate.gates] == ["tcp_only_multi_node"]
    assert [g.code for g in scores["a100"].estimate.gates] == ["precision_unsupported"]
    assert scores["ok"].rank == 1 and scores["small"].rank is None


def test_tp_beyond_nvlink_and_state_beyond_hbm_are_gates():
    # 70B with TP=16, PP=1 on H100 (8-GPU NVLink): TP crosses the fabric.
    wide = Evaluation.model_validate(
        evaluation_dict(
            workload=workload_dict(
                tensor_parallel=16, pipeline_parallel=1, global_batch_tokens=1024 * 4096
            )
        )
    )
    assert "tp_exceeds_nvlink_domain" in {
        g.code for g in score_evaluation(wide).scores[0].estimate.gates
    }
    # 70B on TP=1, PP=1 without a sharded optimizer: 70e9 x (2+4+12) bytes = 1,260 GB per GPU > 80 GB.
    flat = Evaluation.model_validate(
        evaluation_dict(
            workload=workload_dict(
                tensor_parallel=1,
                pipeline_parallel=1,
                distributed_optimizer=False,
                global_batch_tokens=1024 * 4096,
            )
        )
    )
    gate = [
        g
        for g in score_evaluation(flat).scores[0].estimate.gates
        if g.code == "model_state_exceeds_hbm"
    ]
    assert gate and "1260.0 GB" in gate[0].message


def test_weights_move_the_ranking():
    cheap_plain = bid_dict("cheap", terms={"price_per_gpu_hour": "2.40", "support_tier": "basic"})
    dear_premium = bid_dict(
        "premium",
        terms={
            "price_per_gpu_hour": "2.50",
            "support_tier": "enterprise",
            "exit_clause": True,
            "next_gen_migration": True,
        },
        reliability={"sla_credit_percent": 25},  # same uptime: the cost differs by price alone,
        sla_claims={
            "covered_percent": 0
        },  # as the SLA here counts no failure as downtime (issue 39)
        facility={"datacenter_tier": 4, "certifications": ["SOC2", "ISO27001"]},
    )
    cost_only = {
        "weights": {
            "cost_to_finish": 1,
            "sla": 0,
            "datacenter_tier": 0,
            "certifications": 0,
            "support": 0,
            "contract_terms": 0,
            "evidence": 0,
        }
    }
    by_cost = score_evaluation(
        Evaluation.model_validate(evaluation_dict([cheap_plain, dear_premium], policy=cost_only))
    )
    assert by_cost.ranked[0].bid.id == "cheap"
    assert by_cost.ranked[0].weighted_score == pytest.approx(1.0)
    balanced = score_evaluation(
        Evaluation.model_validate(evaluation_dict([cheap_plain, dear_premium]))
    )
    assert balanced.ranked[0].bid.id == "premium"
    assert sum(balanced.weights.values()) == pytest.approx(1.0)
    # Cost criterion = cheapest / own: 2.40/2.50 for the premium bid (same job, same fabric).
    premium = next(s for s in balanced.scores if s.bid.id == "premium")
    assert premium.criteria["cost_to_finish"] == pytest.approx(2.40 / 2.50)


@pytest.mark.parametrize(
    "uptime, credit, expected",
    [
        (99.0, 0, 0.0),
        (99.9, 0, 0.375),
        (99.99, 25, 1.0),
        (99.95, 10, 0.75 * (-__import__("math").log10(0.0005) - 2) / 2 + 0.1),
    ],
)
def test_sla_score_normalisation(uptime, credit, expected):
    bid = Bid.model_validate(
        bid_dict(reliability={"uptime_sla_percent": uptime, "sla_credit_percent": credit})
    )
    assert sla_score(bid) == pytest.approx(expected)


def test_an_evaluation_without_bids_scores_to_an_empty_scorecard_and_table():
    # "File > New evaluation" starts with the workload and no bids; it must score, not crash.
    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.report import format_ranking_table

    empty = Evaluation.model_validate({**demo_evaluation().model_dump(), "bids": []})
    scorecard = score_evaluation(empty)
    assert scorecard.scores == () and scorecard.ranked == []
    assert "rank" in format_ranking_table(scorecard)
