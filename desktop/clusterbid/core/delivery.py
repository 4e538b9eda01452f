"""When a bid hands its GPUs over, as the provider states it (issue 39, item 1).

A bid without a schedule keeps the single handover date of `capacity.available_from`. A schedule
lists phases (GPUs, date, whether they join the job's non-blocking block), what the provider says
about keeping to it (a confidence, or the slips of its past deliveries), what it owes when late
(credits, liquidated damages, a right to terminate) and whether billing starts only at acceptance.
Everything left out is "not stated": the slip then follows ClusterBid's documented default below,
which is never shown as the provider's word (methodology section 9).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from pydantic import Field, model_validator

from clusterbid.core.base import FrozenModel

# ClusterBid's default slip when the provider states neither a confidence nor a history (a
# judgement, methodology section 9): half of the handovers on the date, the other half late by an
# exponential number of days with a mean of 30 (a month: the slips buyers report for new GPU
# capacity are counted in weeks to months, none of them a published statistic).
DEFAULT_ON_TIME_SHARE = 0.5
DEFAULT_MEAN_SLIP_DAYS = 30.0
# With remedies stated but no cap, they are counted up to this share of the commitment (the low
# end of the 10-20% caps common on liquidated damages: a judgement; a cap left out never helps).
DEFAULT_REMEDY_CAP_PERCENT = 10.0


class DeliveryPhase(FrozenModel):
    gpus: int = Field(ge=1, le=1_000_000, description="GPUs handed over in this phase")
    handover: dt.date = Field(description="Date the provider states this phase is handed over")
    contiguous: bool = Field(
        True,
        description="The phase joins the same non-blocking block as the earlier contiguous phases "
        "(false: it is capacity elsewhere, which the job's block cannot use)",
    )


class DeliverySchedule(FrozenModel):
    phases: tuple[DeliveryPhase, ...] = Field(
        min_length=1,
        max_length=52,
        description="Handover phases in date order; their GPUs add up to the offer",
    )
    on_time_percent: float | None = Field(
        None,
        ge=0,
        le=100,
        description="The provider's stated chance of handing each phase over on its date; "
        "empty = not stated",
    )
    past_slip_days: tuple[int, ...] = Field(
        (),
        max_length=200,
        description="Days late of the provider's recent deliveries (0 = on time); a "
        "delivery slip is drawn from these when given",
    )
    late_credit_percent_per_week: float | None = Field(
        None,
        ge=0,
        le=100,
        description="Credit per full week the job's block is late, percent of the "
        "commitment; empty = none stated",
    )
    liquidated_damages_per_day: Decimal | None = Field(
        None,
        ge=0,
        max_digits=16,
        decimal_places=4,
        allow_inf_nan=False,
        description=(
            "Liquidated damages per day the job's block is late, in the bid's currency; empty = "
            "none"
        ),
    )
    remedy_cap_percent: float | None = Field(
        None,
        ge=0,
        le=100,
        description="Most the late-delivery remedies pay, percent of the commitment; empty "
        f"= not stated (counted up to {DEFAULT_REMEDY_CAP_PERCENT:g}%)",
    )
    terminate_after_days_late: int | None = Field(
        None,
        ge=0,
        le=3_650,
        description="The buyer may end the contract once the job's block is this many days "
        "late; empty = no such right stated",
    )
    billing_starts_at_acceptance: bool | None = Field(
        None,
        description="Billing starts only when the buyer accepts the capacity; empty = not stated (billed "
        "from the stated date, so a late handover is paid for)",
    )

    @model_validator(mode="after")
    def _ordered(self) -> DeliverySchedule:
        dates = [p.handover for p in self.phases]
        if dates != sorted(dates):
            raise ValueError("delivery.phases must be in date order (earliest handover first)")
        return self

    def block_handover(self, job_gpus: int) -> dt.date | None:
        """The date the contiguous phases first add up to the job's GPUs (None: they never do)."""
        block = 0
        for phase in self.phases:
            block += phase.gpus if phase.contiguous else 0
            if block >= job_gpus:
                return phase.handover
        return None

    @property
    def slip_stated(self) -> bool:
        return self.on_time_percent is not None or bool(self.past_slip_days)

    @property
    def remedies_stated(self) -> bool:
        return bool(self.late_credit_percent_per_week or self.liquidated_damages_per_day)


def slip_words(schedule: DeliverySchedule) -> str:
    """Where a drawn slip comes from, in the officer's words (never a default as the provider's)."""
    if schedule.past_slip_days:
        late = sum(1 for d in schedule.past_slip_days if d > 0)
        return (
            f"drawn from the provider's {len(schedule.past_slip_days)} past deliveries ({late} "
            "late), "
            "stated by provider"
        )
    if schedule.on_time_percent is not None:
        return (
            f"on time in {schedule.on_time_percent:g}% of draws, stated by provider; when late, by "
            f"{DEFAULT_MEAN_SLIP_DAYS:g} days on average (ClusterBid default)"
        )
    return (
        f"not stated: on time in {DEFAULT_ON_TIME_SHARE:.0%} of draws, otherwise late by "
        f"{DEFAULT_MEAN_SLIP_DAYS:g} days on average (ClusterBid default, a judgement)"
    )
