"""What the award would have been with the figures measured at acceptance in place of the ones
the bid was scored on: a what-if, re-scored on a copy, recorded in the audit trail as such. The
bid's claims and evidence in the document are never changed by it."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from clusterbid.core.acceptance.status import AcceptanceResult
from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import KIND_WORDS, Evidence, EvidenceKind
from clusterbid.core.ranking import BidScore
from clusterbid.core.scoring import Scorecard, score_evaluation
from clusterbid.core.store.document import EvaluationDocument

MEASURED_KINDS = {
    EvidenceKind.ALLREDUCE_BUSBW: (EvidenceKind.ALLREDUCE_BUSBW,),
    EvidenceKind.TRAINING_MFU: (EvidenceKind.TRAINING_MFU, EvidenceKind.TRAINING_STEP_TIME),
}
WHAT_IF_PREFIX = "acceptance-what-if-"


@dataclass(frozen=True, slots=True)
class AcceptanceWhatIf:
    bid_id: str
    figures_used: tuple[str, ...]  # in words: which measured figures replaced which
    winner_before: str | None  # provider names
    winner_after: str | None
    rank_before: int | None
    rank_after: int | None
    plan_cost_before: float
    plan_cost_after: float
    hours_before: float  # wall-clock hours to finish the job
    hours_after: float

    def words(self, currency: str) -> str:
        if not self.figures_used:
            return (
                "No measured figure the cost model uses has been returned yet: nothing to re-score."
            )
        moved = (
            f"the award would still go to {self.winner_after}"
            if self.winner_after == self.winner_before
            else f"the award would go to {self.winner_after or 'no bid'} instead of {self.winner_before}"
        )
        rank = "excluded" if self.rank_after is None else f"ranked {self.rank_after}"
        return (
            f"What-if with the measured figures ({'; '.join(self.figures_used)}): this bid's net "
            "plan cost "
            f"{currency} {self.plan_cost_before:,.0f} becomes {currency} "
            f"{self.plan_cost_after:,.0f} and the job "
            f"{self.hours_before:,.1f} hours becomes {self.hours_after:,.1f}, {rank} "
            f"(was {self.rank_before}); {moved}. The bid's own claims are unchanged."
        )


def _value_words(e: Evidence) -> str:
    """An MFU as a percentage ('30.5%'), not '0.305167 fraction'; other figures in their unit."""
    return f"{e.value:.1%}" if e.unit == "fraction" else f"{e.value:g} {e.unit}"


def _measured_bid(bid: Bid, results: list[AcceptanceResult]) -> tuple[Bid, list[str]]:
    items = [e for r in results if r.state != "missing" for e in r.evidence]
    used, replaced = [], set()
    for family in MEASURED_KINDS.values():
        if any(e.kind in family for e in items):
            replaced |= set(family)
            used += [
                f"{KIND_WORDS[e.kind]} {_value_words(e)} on {e.scale_gpus:,} GPUs"
                for e in items
                if e.kind in family
            ]
    kept = [e for e in bid.evidence if e.kind not in replaced]  # the claims scored are set aside
    fields = {name: getattr(bid, name) for name in Bid.model_fields}
    return Bid.model_validate({**fields, "evidence": (*kept, *items)}), used


def what_if(
    evaluation: Evaluation, bid_id: str, results: list[AcceptanceResult]
) -> AcceptanceWhatIf:
    before = score_evaluation(evaluation)
    bid = next(b for b in evaluation.bids if b.id == bid_id)
    measured, used = _measured_bid(bid, results)
    fields = {name: getattr(evaluation, name) for name in Evaluation.model_fields}
    bids = tuple(measured if b.id == bid_id else b for b in evaluation.bids)
    after = (
        score_evaluation(Evaluation.model_validate({**fields, "bids": bids})) if used else before
    )
    old, new = _score_of(before, bid_id), _score_of(after, bid_id)
    return AcceptanceWhatIf(
        bid_id,
        tuple(used),
        _winner(before),
        _winner(after),
        old.rank,
        new.rank,
        old.estimate.plan_cost,
        new.estimate.plan_cost,
        old.estimate.wall_hours,
        new.estimate.wall_hours,
    )


def _score_of(scorecard: Scorecard, bid_id: str) -> BidScore[BidEstimate]:
    return next(s for s in scorecard.scores if s.bid.id == bid_id)


def _winner(scorecard: Scorecard) -> str | None:
    return scorecard.ranked[0].bid.quote.provider if scorecard.ranked else None


def record_what_if(document: EvaluationDocument, result: AcceptanceWhatIf, on: dt.date) -> None:
    """One audited artefact row saying what was re-scored and what came out: a what-if, not an edit."""
    payload = {
        "what_if": True,
        "bid_id": result.bid_id,
        "figures_used": list(result.figures_used),
        "winner_before": result.winner_before,
        "winner_after": result.winner_after,
        "rank_before": result.rank_before,
        "rank_after": result.rank_after,
        "plan_cost_before": round(result.plan_cost_before, 2),
        "plan_cost_after": round(result.plan_cost_after, 2),
        "hours_before": round(result.hours_before, 3),
        "hours_after": round(result.hours_after, 3),
    }
    data = json.dumps(payload, sort_keys=True).encode("utf-8")
    taken = {i.name for i in document.artefacts()}
    stem, number = f"{WHAT_IF_PREFIX}{result.bid_id}-{on.isoformat()}", 1
    while f"{stem}-{number}.json" in taken:
        number += 1
    document.attach_artefact(
        f"{stem}-{number}.json", data, bid_id=result.bid_id, media_type="application/json"
    )
