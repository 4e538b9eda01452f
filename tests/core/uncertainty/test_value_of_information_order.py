"""Issue 32: the value of information's faster order is a stable sort's order, ties included,
and the bids a measurement informs are those a pairwise look at their common draws finds."""

from __future__ import annotations

import numpy as np

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty.sampling import sample_plan_costs
from clusterbid.core.uncertainty.value_of_information import _order, _owners, _Sharing


def test_the_order_is_a_stable_sorts_ties_kept_in_sample_order():
    values = np.array([2.0, 1.0, 2.0, 0.5, 1.0], dtype=np.float32)
    assert _order(values).tolist() == [3, 1, 4, 0, 2]  # by hand: 0.5, 1 (1st, 4th), 2 (0th, 2nd)
    many = np.exp(np.random.default_rng(7).standard_normal(5000).astype(np.float32)).round(
        2
    )  # many ties
    assert np.array_equal(_order(many), np.argsort(many, kind="stable"))
    signed = np.array([1.0, -1.0, 0.0, -1.0])  # not positive float32: the plain stable sort
    assert _order(signed).tolist() == [1, 3, 2, 0]


def test_the_bids_a_draw_moves_are_those_sharing_one_of_its_streams():
    plan = sample_plan_costs(demo_evaluation(), 500)
    sharing = _Sharing(plan)
    for bid, inputs in enumerate(plan.inputs):
        for item in inputs:
            mine = _owners(plan, bid, item.name)
            pairwise = sorted(
                {bid} | {k for k in range(len(plan.ids)) if mine & _owners(plan, k, item.name)}
            )
            assert sharing.depends_on(bid, item.name) == pairwise
    assert any(
        len(sharing.depends_on(b, "baseline_mfu")) > 1 for b in range(len(plan.ids))
    )  # shared draws exist
