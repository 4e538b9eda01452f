"""The buyer's compute plan: when the job may start, when it must finish, and what the buyer does
with reserved time the job leaves idle. Shared by every bid; it decides what a term is worth."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import Field, model_validator

from clusterbid.core.base import FrozenModel, MoneyAmount

IdleUse = Literal["nothing", "more-runs", "other-work"]
IDLE_WORDS = {
    "nothing": "idle reserved time is worth nothing (the buyer has no other use for it)",
    "more-runs": "idle reserved time runs more jobs of the same kind (cost per finished job)",
    "other-work": "idle reserved time does other work, worth a stated amount per GPU-hour",
}


def cost_of_capital_field() -> Any:
    """The buyer's cost of capital as a model field: the training plan's and the serving
    workload's (issue 31: both price payment terms as the cost of cash)."""
    return Field(
        None,
        ge=0,
        le=50,
        description="The buyer's cost of capital, percent a year: what a day of paying an "
        "invoice sooner than its usual terms costs. Empty = ClusterBid's default, 8% (a judgement)",
    )


def baseline_payment_days_field() -> Any:
    """The buyer's usual payment terms as a model field (training plan and serving workload)."""
    return Field(
        None,
        ge=0,
        le=365,
        description="The buyer's usual payment terms, days after invoice: a bid due sooner "
        "costs the cost of cash of the days between, one due later saves it. Empty = 30 (net 30)",
    )


class ComputePlan(FrozenModel):
    start_date: dt.date | None = Field(
        None,
        description="Earliest date the job can start (contract signature); empty = at handover",
    )
    deadline: dt.date | None = Field(
        None, description="The job must finish by this date; empty = no deadline"
    )
    idle_use: IdleUse = Field(
        "nothing",
        description="What the buyer does with reserved time the job leaves idle: "
        + "; ".join(IDLE_WORDS.values()),
    )
    idle_value_per_gpu_hour: MoneyAmount | None = Field(
        None,
        description=(
            "Worth of an idle reserved GPU-hour to the buyer, evaluation currency (other-work)"
        ),
    )
    # Issue 31: idle time is worth what the buyer will really do with it, never the contract's own
    # rate without limit (which made a term's length invisible to the ranking).
    further_runs: float | None = Field(
        None,
        ge=0,
        le=10_000,
        description="Further runs of the same kind the buyer will run in reserved time (more-runs); idle "
        "GPU-hours beyond them are worth nothing. Empty = none stated: idle time is worth nothing, "
        "flagged",
    )
    alternative_price_per_gpu_hour: MoneyAmount | None = Field(
        None,
        description="What the buyer would pay elsewhere for a GPU-hour of that further work (a market "
        "reference, evaluation currency): idle time is worth at most this. Empty = the contract's "
        "own rate",
    )
    alternative_price_decline_percent_per_year: float = Field(
        0,
        ge=0,
        lt=100,
        description="How fast that market price falls over the term, percent a year (0 = flat)",
    )
    deadline_confidence: float = Field(
        0.8,
        gt=0,
        le=1,
        description="The chance of finishing by the deadline the buyer requires (issue 31): a bid that finishes "
        "by it in fewer of the Monte Carlo draws fails a gate; one above it that may still finish "
        "late is flagged",
    )
    delay_cost_per_day: MoneyAmount | None = Field(
        None,
        description="What each day past the deadline costs the buyer (evaluation currency); it enters the "
        "net cost of the plan in every draw that finishes late. Empty = none counted",
    )
    # Issue 31: payment terms priced as the cost of cash against the buyer's own terms
    # (costmodel/payment_terms.py holds the defaults and their sources).
    cost_of_capital_percent_per_year: float | None = cost_of_capital_field()
    baseline_payment_days: int | None = baseline_payment_days_field()
    commitment_ceiling: MoneyAmount | None = Field(
        None,
        description="Largest total commitment the buyer may sign (evaluation currency); a bid above it "
        "fails a gate. Empty = no ceiling",
    )

    @model_validator(mode="after")
    def _consistent(self) -> ComputePlan:
        if self.idle_use == "other-work" and self.idle_value_per_gpu_hour is None:
            raise ValueError(
                "idle_use 'other-work' needs idle_value_per_gpu_hour (what an idle GPU-hour is "
                "worth)"
            )
        if self.idle_use != "other-work" and self.idle_value_per_gpu_hour is not None:
            raise ValueError(
                f"idle_value_per_gpu_hour applies to idle_use 'other-work', not {self.idle_use!r}: "
                "leave it empty"
            )
        if self.idle_use != "more-runs" and self.further_runs is not None:
            raise ValueError(
                f"further_runs applies to idle_use 'more-runs', not {self.idle_use!r}: leave it "
                "empty"
            )
        if self.delay_cost_per_day is not None and self.deadline is None:
            raise ValueError(
                "delay_cost_per_day needs a deadline to count days late from: give deadline or "
                "leave it empty"
            )
        if self.start_date and self.deadline and self.deadline <= self.start_date:
            raise ValueError("deadline must be after start_date")
        return self

    def words(self) -> str:
        text = IDLE_WORDS[self.idle_use]
        if self.idle_use == "other-work":
            text = (
                f"idle reserved time does other work worth {self.idle_value_per_gpu_hour} per "
                "GPU-hour"
            )
        if self.idle_use == "more-runs":
            runs = self.further_runs or 0
            text = (
                f"idle reserved time runs up to {runs:g} more job(s) of the same kind"
                if runs
                else "more runs of the same kind, but none stated: idle reserved time is worth nothing"
            )
        return text
