"""The score criteria, declared once (issue 33 item 3): every list of criteria reads this table.

A criterion is its field in the scoring policy (`CriteriaWeights`, hence the JSON Schema), its
default weight, its names as each view prints them (the score table and memo, the matrix's short
heading, the weights panel's label with its keyboard letter), its row in methodology section 6
(written into resources/methodology.md by `clusterbid schema`) and its score in 0-1. Adding a
criterion is one entry below; the order is the panel's, the matrix's and the memo's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from clusterbid.core.bid import Bid
from clusterbid.core.evidence.model import EvidenceGrade, EvidenceKind
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.provider_rating import ProviderRating, rating_score

SUPPORT_SCORES = {"basic": 0.0, "business": 0.5, "enterprise": 1.0}
GRADE_SCORES = {
    EvidenceGrade.MEASURED_INDEPENDENT: 1.0,
    EvidenceGrade.MEASURED_PROVIDER: 0.75,
    EvidenceGrade.PROVIDER_CLAIM: 0.25,
    EvidenceGrade.DERIVED: 0.0,
}
# The evidence a training bid should carry (buyers.md): a fabric measurement across nodes and
# a measured training efficiency.
EXPECTED_EVIDENCE = (
    (EvidenceKind.ALLREDUCE_BUSBW,),
    (EvidenceKind.TRAINING_MFU, EvidenceKind.TRAINING_STEP_TIME),
)
COST = "cost_to_finish"  # the one criterion scored from the cost model, not from the bid


@dataclass(frozen=True, slots=True)
class CriterionInputs:
    """What a criterion may read beside the bid: the policy's required certifications and the
    third-party ratings recorded on the evaluation (provider -> rating; issue 39)."""

    required_certifications: tuple[str, ...]
    ratings: Mapping[str, ProviderRating]


@dataclass(frozen=True, slots=True)
class Criterion:
    name: str  # the scoring policy's field
    default_weight: int  # 0-100, before normalising
    words: str  # as the score table, the memo and the tipping points name it
    short: str  # the score matrix's heading (the full words are its tooltip)
    label: str  # the weights panel's label; "&" marks the keyboard letter
    methodology_name: str  # the first cell of its row in methodology section 6
    how_scored: str  # the second cell: its normalisation to 0-1, in words
    score: Callable[[Bid, CriterionInputs], float] | None  # None: the cost, ranked by the model


def sla_score(bid: Bid) -> float:
    """Nines of the uptime SLA (99% -> 0, 99.9% -> 0.5, 99.99% -> 1), 3/4, and credits, 1/4."""
    reliability = effective_reliability(bid)
    downtime = max(1.0 - reliability.uptime_sla_percent / 100.0, 1e-6)
    nines = min(max((-math.log10(downtime) - 2.0) / 2.0, 0.0), 1.0)
    credits = min(reliability.sla_credit_percent / 25.0, 1.0)
    return float(0.75 * nines + 0.25 * credits)


def evidence_score(bid: Bid) -> float:
    """Mean over the expected evidence kinds of the best grade on file (none: 0)."""
    total = 0.0
    for kinds in EXPECTED_EVIDENCE:
        grades = [GRADE_SCORES[e.grade] for e in bid.evidence if e.kind in kinds]
        total += max(grades, default=0.0)
    return total / len(EXPECTED_EVIDENCE)


def _tier(bid: Bid, _: CriterionInputs) -> float:
    tier = bid.facility.datacenter_tier
    return 0.0 if tier is None else (tier - 1) / 3.0


def _certifications(bid: Bid, inputs: CriterionInputs) -> float:
    required = set(inputs.required_certifications)
    return len(set(bid.facility.certifications) & required) / len(required) if required else 1.0


CRITERIA: tuple[Criterion, ...] = (
    Criterion(
        COST,
        70,
        "Net plan cost",
        "Cost",
        "&Cost (net plan cost)",
        "net cost of the plan (weight `cost_to_finish`)",
        "cheapest passing bid's net plan cost / this bid's",
        None,
    ),
    Criterion(
        "sla",
        8,
        "SLA",
        "SLA",
        "&SLA",
        "SLA",
        "3/4 x nines of uptime (99% = 0, 99.9% = 0.5, 99.99% = 1, clamped) + 1/4 x "
        "min(credit % / 25, 1)",
        lambda bid, _: sla_score(bid),
    ),
    Criterion(
        "datacenter_tier",
        5,
        "Data-centre tier",
        "Tier",
        "Data-centre &tier",
        "data-centre tier",
        "(tier - 1) / 3; unknown = 0",
        _tier,
    ),
    Criterion(
        "certifications",
        5,
        "Certifications",
        "Certs",
        "Certificati&ons",
        "certifications",
        "share of the policy's required certifications held",
        _certifications,
    ),
    Criterion(
        "support",
        3,
        "Support",
        "Support",
        "Su&pport",
        "support",
        "basic 0, business 0.5, enterprise 1",
        lambda bid, _: SUPPORT_SCORES[bid.terms.support_tier],
    ),
    Criterion(
        "contract_terms",
        4,
        "Contract terms",
        "Terms",
        "Contract te&rms",
        "contract terms",
        "0.5 for an exit clause + 0.5 for migration to the next GPU generation",
        lambda bid, _: 0.5 * bid.terms.exit_clause + 0.5 * bid.terms.next_gen_migration,
    ),
    Criterion(
        "evidence",
        5,
        "Evidence",
        "Evidence",
        "E&vidence",
        "evidence",
        "mean, over a fabric measurement and a training-efficiency measurement, of the best grade "
        "held (independent 1, provider with artefact 0.75, claim 0.25, none 0)",
        lambda bid, _: evidence_score(bid),
    ),
    Criterion(
        "provider_rating",
        0,  # issue 39: nothing moves until the policy weighs a third party's dated rating
        "Provider rating (third party)",
        "Rating",
        "Provider ratin&g (third party)",
        "provider rating (third party)",
        "the tier of a dated third-party rating of the provider recorded on the evaluation "
        "(`provider_ratings`: tier, categories, date, source; ClusterMAX's tiers Platinum 1, Gold "
        "0.75, Silver 0.5, Bronze 0.25, Underperform 0); a provider nobody rated 0. Never read "
        "from the bid: a rating is evidence about the provider, not its claim. The categories "
        "are shown, not scored",
        lambda bid, inputs: rating_score(inputs.ratings.get(bid.quote.provider)),
    ),
)


def criterion_words() -> dict[str, str]:
    """Name -> the words every table prints (score table, memo, tipping points)."""
    return {c.name: c.words for c in CRITERIA}


def bid_scores(bid: Bid, inputs: CriterionInputs) -> dict[str, float]:
    """Each criterion scored from the bid, in 0-1 (every criterion but the cost)."""
    return {c.name: c.score(bid, inputs) for c in CRITERIA if c.score is not None}
