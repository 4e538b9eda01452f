"""A provider's quality as a third party rated it, with its date and source (issue 39, item 6).

A rating is evidence about the provider, not a claim of its bid: it is recorded on the
evaluation, keyed by the provider's name, and scored as its own criterion (`provider_rating`,
default weight 0, so nothing moves until the policy gives it a weight). The tiers follow the
shape of SemiAnalysis's ClusterMAX ratings (Platinum, Gold, Silver, Bronze, Underperform); the
categories it rates (security, networking, reliability, support...) are kept as written and
shown, not scored. A provider nobody rated scores 0, as an unstated data-centre tier does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Annotated, Literal

from pydantic import Field

from clusterbid.core.base import FrozenModel

RatingTier = Literal["platinum", "gold", "silver", "bronze", "underperform"]
# The criterion's score in 0-1: evenly spaced from the lowest tier to the highest.
TIER_SCORES: dict[str, float] = {
    "platinum": 1.0,
    "gold": 0.75,
    "silver": 0.5,
    "bronze": 0.25,
    "underperform": 0.0,
}
TIER_WORDS = {tier: tier.capitalize() for tier in TIER_SCORES}
CategoryName = Annotated[str, Field(min_length=1, max_length=60)]
CategoryGrade = Annotated[str, Field(min_length=1, max_length=60)]


class ProviderRating(FrozenModel):
    provider: str = Field(
        min_length=1,
        max_length=200,
        description="The provider's name exactly as its bids spell it (quote.provider)",
    )
    tier: RatingTier = Field(
        description="Overall tier: platinum, gold, silver, bronze or underperform"
    )
    categories: dict[CategoryName, CategoryGrade] = Field(
        default_factory=dict,
        description="Grades by category as the rating states them, e.g. "
        "{'Networking': 'Gold'}; shown, not scored",
    )
    rated_on: dt.date = Field(description="Date the rating was published")
    source: str = Field(
        min_length=2,
        max_length=300,
        description="Who rated and where, e.g. 'SemiAnalysis ClusterMAX 2.0'",
    )

    def words(self) -> str:
        text = f"{TIER_WORDS[self.tier]} ({self.source}, {self.rated_on.isoformat()})"
        if self.categories:
            text += "; " + ", ".join(f"{name} {grade}" for name, grade in self.categories.items())
        return text


def ratings_by_provider(ratings: tuple[ProviderRating, ...]) -> dict[str, ProviderRating]:
    return {rating.provider: rating for rating in ratings}


def rating_score(rating: ProviderRating | None) -> float:
    """The criterion's score: the tier's, or 0 for a provider nobody rated."""
    return 0.0 if rating is None else TIER_SCORES[rating.tier]


def criteria_in_view(
    criteria: Iterable[str], weights: Mapping[str, float], ratings: tuple[ProviderRating, ...]
) -> list[str]:
    """The criteria shown to a reader (the memo's matrix, the app's): all but the third-party
    rating, which shows once the policy weighs it or a rating is recorded. Unweighted and unrated,
    its column would read as every provider scoring 0 on quality."""
    return [name for name in criteria if name != "provider_rating" or weights.get(name) or ratings]
