"""One procurement round: the workload, the bids and the scoring policy, validated together."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, ValidationInfo, create_model, model_validator

from clusterbid.core.base import CurrencyCode, FrozenModel
from clusterbid.core.bid import CERTIFICATIONS, Bid
from clusterbid.core.criteria import CRITERIA, Criterion
from clusterbid.core.provider_rating import ProviderRating
from clusterbid.core.text_rules import (
    DIRECTION_MARKS,
    already_checked,
    check_model_text,
    look_alike,
)
from clusterbid.core.workloads import AnyWorkload

Weight = Annotated[float, Field(ge=0, le=100)]
DecisionBasis = Literal["expected", "p50"]
DECISION_WORDS = {
    "expected": "expected net cost (the mean over the Monte Carlo samples)",
    "p50": "median net cost (P50 of the Monte Carlo samples)",
    "point": "point estimate (no Monte Carlo run: bands not computed)",
}
# The ranked figure in one word, where a table or a line names it ("mean $1.55"); none for "point".
DECISION_SHORT = {"expected": "mean", "p50": "median"}
Rate = Annotated[Decimal, Field(gt=0, max_digits=18, decimal_places=8, allow_inf_nan=False)]


class WeightRules(FrozenModel):
    """Relative weights; they are normalised to sum to 1 before use (see methodology)."""

    @model_validator(mode="after")
    def _not_all_zero(self) -> WeightRules:
        if sum(self.model_dump().values()) <= 0:
            raise ValueError("at least one criterion weight must be above zero")
        return self

    def normalised(self) -> dict[str, float]:
        raw = self.model_dump()
        total = sum(raw.values())
        return {name: value / total for name, value in raw.items()}


def weights_model(criteria: tuple[Criterion, ...]) -> type[WeightRules]:
    """The scoring policy's weights: one field per criterion of criteria.py, at its default."""
    fields: dict[str, Any] = {c.name: (Weight, c.default_weight) for c in criteria}
    return create_model(
        "CriteriaWeights",
        __base__=WeightRules,
        __module__=__name__,
        __doc__=WeightRules.__doc__,
        **fields,
    )


# The fields come from the criteria table (issue 33 item 3); the type checker sees the rules.
if TYPE_CHECKING:
    CriteriaWeights = WeightRules
else:
    CriteriaWeights = weights_model(CRITERIA)


class MustHaves(FrozenModel):
    """Issue 34: what a bid must offer to be ranked at all (must_haves.py gates on them), beside
    the certifications scored as a criterion. Empty: no such gate."""

    certifications: tuple[Annotated[str, Field(pattern="|".join(CERTIFICATIONS))], ...] = Field(
        (), description="Certifications a bid must hold to be ranked (a gate, not a score)"
    )
    data_residency: tuple[Annotated[str, Field(min_length=2, max_length=40)], ...] = Field(
        (),
        description="Places the data may be held, e.g. ['EU']; a bid elsewhere or not saying fails",
    )
    tenancy: Literal["any", "dedicated"] = Field(
        "any", description="'dedicated': a bid must offer hosts and fabric no other customer shares"
    )


class RateSource(FrozenModel):
    """Issue 34: where an exchange rate came from, printed beside the commitment on page 1."""

    as_of: date = Field(description="The day the rate was published or fixed")
    source: str = Field(
        min_length=2,
        max_length=200,
        description="Who published it, e.g. 'European Central Bank euro reference rate'",
    )


class ScoringPolicy(FrozenModel):
    weights: CriteriaWeights = CriteriaWeights()
    must_haves: MustHaves = MustHaves()
    required_certifications: tuple[Annotated[str, Field(pattern="|".join(CERTIFICATIONS))], ...] = (
        "SOC2",
        "ISO27001",
    )
    exchange_rates: dict[CurrencyCode, Rate] = Field(
        default_factory=dict,
        description="Units of the evaluation currency per unit of each bid currency",
    )
    exchange_rate_sources: dict[CurrencyCode, RateSource] = Field(
        default_factory=dict, description="The date and source of each rate in exchange_rates"
    )
    random_seed: int = Field(
        20261122, ge=0, description="Seed of the Monte Carlo, recorded for reproducibility"
    )
    # Issue 31: one decision rule. Documents written before it rank on the expected net cost too
    # (this default, stated in methodology section 6), never on the point estimate.
    decision_basis: DecisionBasis = Field(
        "expected",
        description="What ranks, recommends and sizes: 'expected' (the mean net cost over the Monte Carlo "
        "samples) or 'p50' (their median); never the point estimate",
    )


class Evaluation(FrozenModel):
    """The aggregate: what is being bought, the offers, and how they are judged."""

    title: str = Field(min_length=1, max_length=200)
    currency: CurrencyCode = "USD"
    workload: AnyWorkload
    bids: tuple[Bid, ...] = ()
    policy: ScoringPolicy = ScoringPolicy()
    # Issue 39: third-party ratings of the providers, kept apart from what their bids claim.
    provider_ratings: tuple[ProviderRating, ...] = Field(
        (), description="Dated third-party ratings (e.g. ClusterMAX), one per provider"
    )

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Evaluation:
        if not already_checked(info.context):  # the store scanned the stored JSON whole, once
            check_model_text(
                self, skip=("bids",)
            )  # each bid checked its own text when it was validated
        alike = look_alike([bid.quote.provider for bid in self.bids])
        if alike is not None:
            first, second = (self.bids[i] for i in alike)
            raise ValueError(
                f"bids[{alike[1]}] ({second.id}): provider "
                f"{second.quote.provider.translate(DIRECTION_MARKS)!r} "
                f"looks the same as the provider of {first.id} but differs by an invisible "
                "direction mark "
                "(U+200E or U+200F); spell one provider one way"
            )
        seen: set[str] = set()
        for index, bid in enumerate(self.bids):
            if bid.id in seen:
                raise ValueError(
                    f"bids[{index}]: bid id {bid.id!r} is used twice; ids must be unique"
                )
            seen.add(bid.id)
            currency = bid.terms.currency
            if currency != self.currency and currency not in self.policy.exchange_rates:
                raise ValueError(
                    f"bids[{index}] ({bid.id}) is priced in {currency} but the evaluation is in "
                    f"{self.currency}: "
                    f"add policy.exchange_rates.{currency}"
                )
        rated = [r.provider for r in self.provider_ratings]
        twice = sorted({name for name in rated if rated.count(name) > 1})
        if twice:
            raise ValueError(
                f"provider_ratings rates {', '.join(twice)} more than once: keep one rating per "
                "provider (the latest)"
            )
        unknown = sorted(set(self.policy.exchange_rate_sources) - set(self.policy.exchange_rates))
        if unknown:
            raise ValueError(
                f"policy.exchange_rate_sources names {', '.join(unknown)}, which has no rate in "
                "policy.exchange_rates: add the rate or remove its source"
            )
        return self

    def rate_to_evaluation_currency(self, currency: str) -> Decimal:
        return Decimal(1) if currency == self.currency else self.policy.exchange_rates[currency]
