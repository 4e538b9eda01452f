"""Re-scoring after an edit reads only the edited bids again (issue 32 item 1), and the result is
the full re-score's to the last figure: price, fabric, removal, addition and a weights change on
a 50-bid document, each scored warm (rows kept from the document before the edit) and cold."""

from __future__ import annotations

import math
from dataclasses import fields
from decimal import Decimal

import pytest

from clusterbid.core.comparison_table import rank_resting_on
from clusterbid.core.costmodel import estimate as estimate_module
from clusterbid.core.costmodel import inputs
from clusterbid.core.costmodel.bid_rows import ROWS, WORKLOADS, BidRowMemory
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard, score_evaluation
from clusterbid.core.uncertainty import default_effects as effects_module
from clusterbid.core.uncertainty.default_effects import scorecard_default_effects

BIDS = 50


def fifty_bids() -> Evaluation:
    """The demo's six bids repeated under fresh ids, each price a cent apart from its template's."""
    demo = demo_evaluation()
    bids = []
    for i in range(BIDS):
        template = demo.bids[i % len(demo.bids)].model_dump()
        template["id"] = f"bid-{i:02d}"
        template["terms"]["price_per_gpu_hour"] += Decimal(i % 7) / 100
        bids.append(template)
    return Evaluation.model_validate({**demo.model_dump(), "bids": bids})


def with_bids(evaluation: Evaluation, bids) -> Evaluation:
    return evaluation.model_copy(update={"bids": tuple(bids)})


def priced(evaluation: Evaluation) -> Evaluation:
    bids = list(evaluation.bids)
    bid = bids[7]
    bids[7] = bid.model_copy(
        update={"terms": bid.terms.model_copy(update={"price_per_gpu_hour": Decimal("1.23")})}
    )
    return with_bids(evaluation, bids)


def refabricked(evaluation: Evaluation) -> Evaluation:
    bids = list(evaluation.bids)
    bid = bids[0]  # northwind: InfiniBand, 8 NICs; half of them now
    bids[0] = bid.model_copy(update={"fabric": bid.fabric.model_copy(update={"nics_per_node": 4})})
    return with_bids(evaluation, bids)


def removed(evaluation: Evaluation) -> Evaluation:
    return with_bids(evaluation, [b for i, b in enumerate(evaluation.bids) if i != 3])


def added(evaluation: Evaluation) -> Evaluation:
    extra = evaluation.bids[1].model_copy(update={"id": "bid-new"})
    return with_bids(evaluation, [*evaluation.bids, extra])


def reweighted(evaluation: Evaluation) -> Evaluation:
    weights = evaluation.policy.weights.model_copy(update={"sla": 40.0})
    policy = evaluation.policy.model_copy(update={"weights": weights})
    return evaluation.model_copy(update={"policy": policy})


def added_larger(evaluation: Evaluation) -> Evaluation:
    """A bid whose block is larger than any other: the scaling curves' shared grid grows."""
    template = evaluation.bids[0]
    block = 2 * max(b.capacity.largest_contiguous_block_gpus for b in evaluation.bids)
    capacity = template.capacity.model_copy(
        update={"gpus_offered": block, "largest_contiguous_block_gpus": block}
    )
    extra = template.model_copy(update={"id": "bid-large", "capacity": capacity})
    return with_bids(evaluation, [*evaluation.bids, extra])


EDITS = {
    "price": priced,
    "fabric": refabricked,
    "remove": removed,
    "add": added,
    "add a larger block": added_larger,
}
EDITED_BIDS = {"price": 1, "fabric": 1, "remove": 0, "add": 1, "add a larger block": 1}
EDITED_BIDS["weights"] = 0


def figures(estimate: BidEstimate) -> dict[str, object]:
    """Every number and finding of an estimate (NaN compared as NaN)."""
    kept = {}
    for f in fields(BidEstimate):
        value = getattr(estimate, f.name)
        if isinstance(value, float) and math.isnan(value):
            value = "nan"
        kept[f.name] = value
    return kept


def comparable(scorecard: Scorecard) -> list[tuple]:
    effects = scorecard_default_effects(scorecard)
    return [
        (s.bid.id, s.rank, s.weighted_score, s.criteria, figures(s.estimate), effects[s.bid.id])
        for s in scorecard.scores
    ] + [("rests on", sorted(rank_resting_on(scorecard).items()))]


def forget() -> None:
    """Nothing kept from an earlier scoring: the full re-score."""
    ROWS.forget()
    estimate_module._LAST.clear()
    effects_module.LAST_EFFECTS.clear()


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The ids of the bids read into rows, in order."""
    seen: list[str] = []
    read = inputs._bid_row

    def counted(workload, bid, catalog, rate):
        seen.append(bid.id)
        return read(workload, bid, catalog, rate)

    monkeypatch.setattr(inputs, "_bid_row", counted)
    return seen


@pytest.mark.parametrize("kind", [*EDITS, "weights"])
def test_an_edit_reads_only_its_bid_and_scores_as_a_full_rescore(kind, reads) -> None:
    before = fifty_bids()
    after = (EDITS.get(kind) or reweighted)(before)
    forget()
    comparable(score_evaluation(before))  # the scoring and its default effects, as the app runs
    reads.clear()
    warm = comparable(score_evaluation(after))
    # The scoring reads the edited bid once; the default effects' build finds every row kept.
    assert len(reads) == EDITED_BIDS[kind]
    forget()
    reads.clear()
    cold = comparable(score_evaluation(after))
    assert len(reads) == len(after.bids)  # nothing kept: every bid read
    assert warm == cold


def test_the_edited_price_is_the_one_the_model_ran() -> None:
    before = fifty_bids()
    score_evaluation(before)
    after = priced(before)
    estimate = next(s.estimate for s in score_evaluation(after).scores if s.bid.id == "bid-07")
    assert estimate.price_per_gpu_hour == 1.23  # USD evaluation, USD bid: rate 1
    kept = next(s.estimate for s in score_evaluation(before).scores if s.bid.id == "bid-07")
    # bid-07 is the second demo bid (2.49) plus 7 % 7 = 0 cents.
    assert kept.price_per_gpu_hour == 2.49


def test_a_workload_edit_reads_every_bid_again(reads) -> None:
    before = fifty_bids()
    score_evaluation(before)
    tokens = before.workload.training_tokens_billions
    workload = before.workload.model_copy(update={"training_tokens_billions": tokens * 2})
    reads.clear()
    score_evaluation(before.model_copy(update={"workload": workload}))
    assert len(reads) == BIDS


def test_a_weights_edit_reuses_the_default_effects_and_an_edited_bid_does_not(monkeypatch) -> None:
    runs: list[int] = []
    run = effects_module.default_effects
    monkeypatch.setattr(
        effects_module, "default_effects", lambda i, e: runs.append(len(e.bids)) or run(i, e)
    )
    forget()
    before = fifty_bids()
    scorecard_default_effects(score_evaluation(before))
    scorecard_default_effects(score_evaluation(reweighted(before)))
    assert runs == [BIDS]  # the weights do not enter a bid's cost at either end of a range
    scorecard_default_effects(score_evaluation(priced(before)))
    assert runs == [BIDS, BIDS]


def test_a_weights_edit_keeps_every_estimate_and_a_price_edit_all_but_its_bid() -> None:
    forget()
    before = fifty_bids()
    first = {s.bid.id: s.estimate for s in score_evaluation(before).scores}
    again = {s.bid.id: s.estimate for s in score_evaluation(reweighted(before)).scores}
    assert all(again[i] is first[i] for i in first)  # the same objects: nothing re-estimated
    repriced = {s.bid.id: s.estimate for s in score_evaluation(priced(before)).scores}
    assert [i for i in first if repriced[i] is not first[i]] == ["bid-07"]
    # A larger block than any other widens every bid's scaling grid: every bid re-estimated.
    larger = {s.bid.id: s.estimate for s in score_evaluation(added_larger(priced(before))).scores}
    assert not any(larger[i] is repriced[i] for i in repriced)


def test_rows_are_kept_for_each_schedule_tried_and_the_oldest_workload_goes_first() -> None:
    # A workload that leaves its schedule unstated builds every bid under each candidate schedule
    # (schedule_range.py) and then under the chosen one: each keeps its rows.
    memory, reads = BidRowMemory(), []
    catalog, bids, rates = object(), [object(), object()], [1.0, 1.0]

    def read(bid, rate) -> dict:
        reads.append(bid)
        return {"bid": bid, "rate": rate}

    schedules = [f"interleave {v}" for v in range(1, 6)]
    for _ in range(3):
        for workload in schedules:
            memory.rows(workload, catalog, bids, rates, read)
    assert len(reads) == 2 * len(schedules)  # the first round only
    edited = object()
    assert memory.rows(schedules[0], catalog, [bids[0], edited], rates, read)[1]["bid"] is edited
    assert reads[-1] is edited and len(reads) == 2 * len(schedules) + 1
    assert memory.rows(schedules[0], catalog, bids, [1.0, 0.5], read)[1]["rate"] == 0.5
    assert len(reads) == 2 * len(schedules) + 2  # another rate is another row
    for v in range(WORKLOADS):  # as many other workloads as are kept: the first ones go
        memory.rows(f"another {v}", catalog, bids, rates, read)
    before = len(reads)
    memory.rows(schedules[1], catalog, bids, rates, read)
    assert len(reads) == before + 2
    memory.rows(f"another {WORKLOADS - 1}", catalog, bids, rates, read)
    assert len(reads) == before + 2  # the most recent are still kept
    memory.rows(f"another {WORKLOADS - 1}", object(), bids, rates, read)
    assert len(reads) == before + 4  # another catalog: read again
