"""Issue 31, item 2, the spare pool: a bid that leaves its spare pool blank is never better than
the same bid stating the typical pool, one 8-GPU node. Blank is none on hand (a failed node waits
for its swap) and, on a term that bills spares, one node billed; stated, the node is on hand and
billed the same. Worked by hand on the 8-GPU job on an 8-GPU offer at $2.50 per GPU-hour."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, evaluation_dict
from tests.core.uncertainty.helpers import one_node_workload

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation

HOURS_PER_MONTH = 730


def _bid(bid_id: str, spares: int | None, **terms) -> dict:
    bid = bid_dict(
        bid_id,
        capacity={"gpus_offered": 8, "largest_contiguous_block_gpus": 8},
        topology={"leaf_domain_gpus": 8},
        terms={"price_per_gpu_hour": "2.50", **terms},
    )
    bid["reliability"].update(failures_per_1000_gpu_days=2.0, node_replacement_hours=72)
    if spares is None:
        del bid["capacity"]["spare_pool_gpus"]  # left out: ClusterBid's default, nobody stated it
    else:
        bid["capacity"]["spare_pool_gpus"] = spares
    return bid


def _estimates(**terms) -> dict:
    ev = Evaluation.model_validate(
        evaluation_dict(
            [_bid("stated", 8, **terms), _bid("blank", None, **terms)], workload=one_node_workload()
        )
    )
    return {s.bid.id: s for s in score_evaluation(ev).scores}


RESERVED = {"billing": "reserved", "term_months": 12}


def test_a_blank_pool_on_a_term_bills_one_node_with_none_on_hand():
    scores = _estimates(**RESERVED)
    stated, blank = scores["stated"].estimate, scores["blank"].estimate
    # Both bill 8 + 8 GPUs for 12 x 730 h at $2.50 = $175,200.
    assert stated.commitment == pytest.approx(16 * 12 * HOURS_PER_MONTH * 2.50, abs=0.01)
    assert blank.commitment == pytest.approx(16 * 12 * HOURS_PER_MONTH * 2.50, abs=0.01)
    assert stated.spare_on_hand and not blank.spare_on_hand
    assert blank.wall_hours > stated.wall_hours  # a failed node waits for its 72 h swap
    assert blank.plan_cost >= stated.plan_cost
    assert scores["blank"].weighted_score <= scores["stated"].weighted_score
    words = next(w.message for w in blank.warnings if w.code == "spare_pool_not_stated")
    assert "one node (8 GPUs) is billed for the term" in words


@pytest.mark.parametrize(
    "terms", [{**RESERVED, "spares_free_in_writing": True}, {"billing": "on-demand"}]
)
def test_where_spares_are_not_billed_the_blank_costs_the_swap_waits(terms):
    """Free in writing, or on demand: nothing billed for spares either way, so the blank bid pays
    only for its longer run (the stated spare node is swapped in at once)."""
    scores = _estimates(**terms)
    stated, blank = scores["stated"].estimate, scores["blank"].estimate
    if terms.get("billing") == "reserved":
        assert (
            stated.commitment
            == blank.commitment
            == pytest.approx(8 * 12 * HOURS_PER_MONTH * 2.50, abs=0.01)
        )
    else:
        assert blank.commitment / stated.commitment == pytest.approx(
            blank.wall_hours / stated.wall_hours
        )
    assert blank.wall_hours > stated.wall_hours
    assert blank.plan_cost >= stated.plan_cost
    assert not any(w.code == "spare_pool_not_stated" for w in blank.warnings)


def test_a_pool_marked_not_stated_is_read_as_the_blank():
    bid = _bid("marked", 0, **RESERVED)
    bid["provenance"] = {"capacity.spare_pool_gpus": {"kind": "not_stated"}}
    ev = Evaluation.model_validate(evaluation_dict([bid], workload=one_node_workload()))
    assert ev.bids[0].billed_gpus == 16
    stated = Evaluation.model_validate(
        evaluation_dict([_bid("zero", 0, **RESERVED)], workload=one_node_workload())
    )
    assert stated.bids[0].billed_gpus == 8  # a provider stating no spares is billed for none
