"""How a bid bills: the commercial terms a procurement officer signs (methodology section 9).

Five billing kinds cover the offers seen in practice. What the signature commits to follows from
the kind: usage (on demand), GPUs x term (reserved, block booking), or a minimum (committed spend,
committed GPU-hours), each with fees, escalation and exit terms on top.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from clusterbid.core.base import CurrencyCode, FrozenModel, MoneyAmount, PositiveMoney
from clusterbid.core.billing_kinds import (
    BILLING_KIND_SPECS,
    billing_kind_names,
    names_where,
    spec_of,
)

# The kinds are declared once, in billing_kinds.py; the model, the schema's enum and the bid
# sheet's choices read them from there.
if TYPE_CHECKING:
    BillingKind = str
else:
    BillingKind = Literal[billing_kind_names()]
BILLING_KINDS: tuple[str, ...] = billing_kind_names()
BILLING_WORDS = {spec.name: spec.words for spec in BILLING_KIND_SPECS}
TERM_KINDS = names_where(has_term=True)


def inferred_billing(term_months: int, committed_gpu_hours: float) -> str:
    """What a bid that does not name its billing kind bills, as its other fields suggest (documents
    written before billing kinds existed read this way): a GPU-hour commitment, a term, or usage.
    (Written before the table: these three kinds stay the inference whatever is added to it.)"""
    if committed_gpu_hours > 0:
        return "committed-gpu-hours"
    return "reserved" if term_months > 0 else "on-demand"


class Terms(FrozenModel):
    price_per_gpu_hour: PositiveMoney = Field(description="Price per GPU-hour, in `currency`")
    currency: CurrencyCode = "USD"
    fabric_price_per_gpu_hour: Decimal | None = Field(
        None,
        ge=0,
        max_digits=16,
        decimal_places=4,
        description=(
            "Part of the price per GPU-hour that pays for the scale-out fabric, when the bid "
            "itemises it"
        ),
    )
    # Issue 37: a serving fleet can reserve its base and rent GPUs above it by the hour.
    burst_price_per_gpu_hour: Decimal | None = Field(
        None,
        gt=0,
        max_digits=16,
        decimal_places=4,
        allow_inf_nan=False,
        description="Serving only: on-demand price per GPU-hour for GPUs used above the reserved base at busy "
        "hours, in `currency`; empty = no burst offered (the whole fleet is reserved)",
    )
    # Issue 37: a growing service re-sizes its reserved base only when the contract lets it.
    reserved_resize_months: int | None = Field(
        None,
        ge=1,
        le=120,
        description="Serving only: the reserved base may be changed every this many months (1 = "
        "monthly); empty = not stated, taken as fixed for the whole term",
    )
    billing: BillingKind | None = Field(
        None,
        description="How the contract bills: "
        + "; ".join(BILLING_WORDS.values())
        + ". Empty = not stated: inferred from the term and commitment, and flagged",
    )
    term_months: int = Field(
        0, ge=0, le=120, description="Contract term in months (0 = on demand, no term)"
    )
    reserved_gpus: int | None = Field(
        None,
        ge=1,
        le=1_000_000,
        description="GPUs billed for the whole term (reserved, block); empty = every offered GPU",
    )
    spares_free_in_writing: bool = Field(
        False,
        description=(
            "The hot-spare pool is free in writing (otherwise spares are billed with the term)"
        ),
    )
    block_days: int = Field(0, ge=0, le=3_660, description="Length of a block booking, days")
    committed_spend: MoneyAmount = Field(
        0, description="Minimum spend over the term (committed spend)"
    )
    committed_gpu_hours: float = Field(
        0, ge=0, le=1e10, description="Minimum GPU-hours billed over the term whatever the job uses"
    )
    # Issue 31: these four and payment terms, empty or left out = not stated, priced at a cautious
    # documented default and flagged (provenance/defaults.py FEE_DEFAULTS); a 0 must be written.
    billing_increment_hours: float | None = Field(
        None,
        ge=0,
        le=744,
        description="Usage is rounded up to this many hours per GPU (0 = by the second); "
        "empty = not stated (priced hourly)",
    )
    minimum_billed_hours: float | None = Field(
        None,
        ge=0,
        le=100_000,
        description="Minimum hours billed per GPU used; empty = not stated (priced at 1 hour)",
    )
    provisioning_lead_days: int = Field(
        0,
        ge=0,
        le=3_650,
        description="Days from signature to handover, when no handover date is given",
    )
    # Issue 31: empty = not stated, priced at a cautious documented default (provenance/defaults.py)
    # and flagged, never read as 0.
    price_escalation_percent_per_year: float | None = Field(
        None,
        ge=0,
        le=100,
        description=(
            "Price rise at each contract anniversary, percent; empty = not stated (cautious "
            "default used)"
        ),
    )
    one_off_fees: Decimal | None = Field(
        None,
        ge=0,
        max_digits=16,
        decimal_places=4,
        allow_inf_nan=False,
        description=(
            "Setup, onboarding, data egress and exit fees; empty = not stated (priced at 2% of the "
            "GPU bill)"
        ),
    )
    recurring_fees_per_month: Decimal | None = Field(
        None,
        ge=0,
        max_digits=16,
        decimal_places=4,
        allow_inf_nan=False,
        description="Support, storage and network fees per month, billed for the whole term; empty = not "
        "stated (priced at 10% of the GPU bill)",
    )
    payment_terms_days: int | None = Field(
        None,
        ge=0,
        le=365,
        description="Payment due this many days after each invoice (0 = on invoice); "
        "empty = not stated (priced as due on invoice: the cost of cash against the buyer's own "
        "terms)",
    )
    support_tier: Literal["basic", "business", "enterprise"] = "business"
    exit_clause: bool = Field(False, description="Buyer may end a reserved term early")
    early_exit_fee_percent: float | None = Field(
        None,
        ge=0,
        le=100,
        description="Share of the remaining term's value owed on early exit, percent; empty = not stated "
        "(with an exit clause: priced as no exit at all, 100%, and flagged)",
    )
    next_gen_migration: bool = Field(
        False, description="Migration to the next GPU generation is offered"
    )

    @model_validator(mode="after")
    def _consistent(self) -> Terms:
        if (
            self.fabric_price_per_gpu_hour is not None
            and self.fabric_price_per_gpu_hour > self.price_per_gpu_hour
        ):
            raise ValueError(
                f"fabric_price_per_gpu_hour ({self.fabric_price_per_gpu_hour}) is part of "
                "price_per_gpu_hour "
                f"({self.price_per_gpu_hour}) and cannot exceed it"
            )
        kind = self.billing_kind
        spec = spec_of(kind)
        if spec.has_term and self.term_months < 1:
            raise ValueError(
                f"billing {kind!r} needs term_months of at least 1 (the contract's term)"
            )
        if not spec.has_term and self.term_months:
            raise ValueError(
                f"billing {kind!r} has no term: set term_months to 0"
                + (" and give block_days" if spec.needs_block_days else ", or choose 'reserved'")
            )
        if spec.needs_block_days and self.block_days < 1:
            raise ValueError(f"billing {kind!r} needs block_days of at least 1 (the booked window)")
        if not spec.needs_block_days and self.block_days:
            blocks = " or ".join(repr(name) for name in names_where(needs_block_days=True))
            raise ValueError(
                f"block_days applies to billing {blocks} only, not {kind!r}: set it to 0"
            )
        if spec.minimum == "spend" and self.committed_spend <= 0:
            raise ValueError(f"billing {kind!r} needs committed_spend above 0")
        if spec.minimum == "gpu-hours" and self.committed_gpu_hours <= 0:
            raise ValueError(f"billing {kind!r} needs committed_gpu_hours above 0")
        if not spec.bills_for_a_span and self.reserved_gpus is not None:
            raise ValueError(
                f"reserved_gpus applies to reserved and block billing, not {kind!r}: leave it empty"
            )
        return self

    @property
    def billing_kind(self) -> str:
        """The billing kind stated, or inferred where the bid does not say (see `billing`)."""
        return self.billing or inferred_billing(self.term_months, self.committed_gpu_hours)

    @property
    def bills_for_a_term(self) -> bool:
        """Reserved and block contracts bill GPUs for a span of time, whether used or not."""
        return spec_of(self.billing_kind).bills_for_a_span
