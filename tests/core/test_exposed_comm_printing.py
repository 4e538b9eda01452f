"""Issue 36 item 7: exposed communication printed by kind, and SHARP on a non-InfiniBand bid warned."""

from __future__ import annotations

import pytest

from clusterbid.core.assumptions import bid_assumptions, exposed_by_kind
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.demo import demo_evaluation


@pytest.fixture(scope="module")
def demo():
    evaluation = demo_evaluation()
    return evaluation, estimate_training(evaluation.workload, evaluation.bids).bids


def test_each_kind_is_its_own_share_and_data_parallel_is_within_the_all_reduce(demo) -> None:
    evaluation, estimates = demo
    workload = evaluation.workload
    for e in estimates:
        kinds = exposed_by_kind(e, workload)
        # By hand from the printed parts: TP less its overlap share; pipeline and experts whole.
        assert kinds["tensor-parallel"] == pytest.approx(
            e.tp_comm_s * (1 - workload.tp_comm_overlap)
        )
        assert kinds["pipeline"] == pytest.approx(e.pp_comm_s)
        assert kinds["expert all-to-all"] == pytest.approx(e.moe_comm_s)
        assert sum(kinds.values()) == pytest.approx(e.exposed_comm_s)
        # The gradient all-reduce can leave at most its own time exposed (the old label's flaw:
        # every kind printed under it read as more than the all-reduce took).
        assert 0 <= kinds["data-parallel"] <= e.dp_comm_s * (1 + 1e-9)


def test_the_data_parallel_line_prints_its_own_exposure_and_a_line_splits_the_rest(demo) -> None:
    evaluation, estimates = demo
    e = next(x for x in estimates if x.tp_comm_s > 0)
    lines = {a.name: a for a in bid_assumptions(e, evaluation.workload)}
    dp_exposed = exposed_by_kind(e, evaluation.workload)["data-parallel"]
    assert (
        lines["Data-parallel all-reduce per step"].value
        == f"{e.dp_comm_s:.3f} s, {dp_exposed:.3f} s exposed"
    )
    split = lines["Exposed communication per step"].value
    assert split.startswith(f"{e.exposed_comm_s:.3f} s in all: ")
    assert (
        f"tensor-parallel {e.tp_comm_s * (1 - evaluation.workload.tp_comm_overlap):.3f} s" in split
    )


def test_sharp_on_roce_is_warned_and_not_credited(demo) -> None:
    evaluation, _ = demo
    roce = next(b for b in evaluation.bids if b.fabric.technology.startswith("RoCE"))
    assert not roce.fabric.sharp
    claimed = roce.model_copy(update={"fabric": roce.fabric.model_copy(update={"sharp": True})})
    plain, with_claim = estimate_training(evaluation.workload, [roce, claimed]).bids
    assert (
        with_claim.node_busbw_gb_s == plain.node_busbw_gb_s
    )  # SHARP is an InfiniBand switch feature
    source = next(
        a.source
        for a in bid_assumptions(with_claim, evaluation.workload)
        if a.name == "Scale-out busbw per node"
    )
    assert "WARNING: the bid states SHARP" in source and "not InfiniBand: no credit given" in source
    plain_source = next(
        a.source
        for a in bid_assumptions(plain, evaluation.workload)
        if a.name == "Scale-out busbw per node"
    )
    assert "SHARP" not in plain_source
