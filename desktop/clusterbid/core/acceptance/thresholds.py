"""How far below a claim an acceptance measurement may fall and still pass, by how the claimed
figure was known when it was scored, and the failures a soak may see at the stated rate."""

from __future__ import annotations

import math

from clusterbid.core.evidence.model import GRADE_WORDS, EvidenceGrade

# nccl-tests repeat runs on one fabric differ by a few percent (placement, clocks, other tenants'
# traffic on shared spines): a figure the buyer already measured before award is held within 5%;
# a provider's own run, its claim, or a figure derived from the specs within 10%, the margin
# buyer-side acceptance guides leave for "within specification" (the 90% example).
SHARE_BY_GRADE = {
    EvidenceGrade.MEASURED_INDEPENDENT: 0.95,
    EvidenceGrade.MEASURED_PROVIDER: 0.90,
    EvidenceGrade.PROVIDER_CLAIM: 0.90,
    EvidenceGrade.DERIVED: 0.90,
}
# A soak passes with the failures a fleet at the stated rate would show 95 times in 100: more
# is evidence, at that confidence, that the cluster fails more often than the bid says.
SOAK_CONFIDENCE = 0.95
MIN_SOAK_HOURS = 24.0  # one day under load catches infant-mortality faults (burn-in guides)


def share_for(grade: EvidenceGrade | None) -> float:
    """The share of the scored figure a measurement must reach (None: derived from the specs)."""
    return SHARE_BY_GRADE[grade or EvidenceGrade.DERIVED]


def share_words(grade: EvidenceGrade | None) -> str:
    share = share_for(grade)
    known = GRADE_WORDS[grade] if grade else "derived from the specs"
    return f"{share:.0%} of the figure scored, because that figure was {known}"


def allowed_failures(expected: float, confidence: float = SOAK_CONFIDENCE) -> int:
    """The smallest k with P(Poisson(expected) <= k) >= confidence."""
    if expected < 0 or not math.isfinite(expected):
        raise ValueError(f"expected failures must be finite and not negative, not {expected}")
    k, term = 0, math.exp(-expected)
    total = term
    while total < confidence:
        k += 1
        term *= expected / k
        total += term
    return k
