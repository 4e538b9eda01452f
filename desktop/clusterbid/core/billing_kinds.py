"""The billing kinds, declared once (issue 33 item 3): every view, check and formula reads this.

A kind is its name in the JSON and the bid sheet, its code in the vectorised contract, its words
as an officer reads them, and the traits the cost model, the validator and the page switch on
(never the name): whether it bills GPUs for a span whatever they do, which minimum it commits to,
whether it has a contract term, whether the buyer may leave it early. A new kind made of these
traits is one entry below (and `clusterbid schema`); one that bills in a new way also needs its
formula in `costmodel/contract.py`. Methodology section 9 says how each bills.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Minimum = Literal["spend", "gpu-hours"]


@dataclass(frozen=True, slots=True)
class BillingKindSpec:
    name: str  # as the JSON, the bid sheet and the CLI spell it
    code: int  # the contract's vectorised code (costmodel/contract.py); never reused
    words: str  # the officer's words: the wizard's list, the schema's description, findings
    page_name: str  # as the contract line on the page names it ("a reserved term")
    # Its row in methodology section 9 (written into resources/methodology.md by
    # `clusterbid schema`): the total commitment, and the GPU-hours it buys.
    commitment_formula: str
    buys: str
    bills_for_a_span: bool = False  # GPUs x a span of time, used or not (held from handover)
    minimum: Minimum | None = None  # a minimum owed over the term (committed deals)
    has_term: bool = False  # needs term_months of at least 1; escalates at its anniversaries
    needs_block_days: bool = False  # the span is block_days, not the term
    may_exit_early: bool = False  # an exit clause lets the buyer leave after the job

    @property
    def commits(self) -> bool:
        """Bills more than the hours used (all but on demand): idle time has a value to the plan."""
        return self.bills_for_a_span or self.minimum is not None

    @property
    def short_words(self) -> str:
        """The words before the bracket: "reserved term"."""
        return self.words.split(" (")[0]


# Order: the wizard's list, the schema's enum and the bid sheet's choices follow it.
BILLING_KIND_SPECS: tuple[BillingKindSpec, ...] = (
    BillingKindSpec(
        "on-demand",
        0,
        "on demand (billed for the GPU-hours used)",
        "on demand",
        "`n x billed hours x p`, billed hours = `H` rounded up to the billing increment, at least "
        "the minimum",
        "`n x billed hours`",
    ),
    BillingKindSpec(
        "reserved",
        1,
        "reserved term (GPUs x term x price, take-or-pay)",
        "a reserved term",
        "`billed GPUs x term hours x p`; a job that outlasts the term keeps its GPUs at the same "
        "rate (flagged: not quoted)",
        "`billed GPUs x term hours`",
        bills_for_a_span=True,
        has_term=True,
        may_exit_early=True,
    ),
    BillingKindSpec(
        "block",
        2,
        "block booking (GPUs for a fixed window)",
        "a block booking",
        "`billed GPUs x block days x 24 x p`; a job longer than the block fails a gate",
        "the same",
        bills_for_a_span=True,
        needs_block_days=True,
    ),
    BillingKindSpec(
        "committed-spend",
        3,
        "committed spend (a minimum spend over the term)",
        "committed spend",
        "`max(committed spend, n x billed hours x p)`",
        "that amount at `p`",
        minimum="spend",
        has_term=True,
    ),
    BillingKindSpec(
        "committed-gpu-hours",
        4,
        "committed GPU-hours (a minimum of GPU-hours over the term)",
        "committed GPU-hours",
        "`max(committed GPU-hours, n x billed hours) x p`",
        "that many",
        minimum="gpu-hours",
        has_term=True,
    ),
)


def spec_of(name: str) -> BillingKindSpec:
    """The kind named `name`; a KeyError names the kinds there are (the models refuse others)."""
    for spec in BILLING_KIND_SPECS:
        if spec.name == name:
            return spec
    raise KeyError(f"billing kind {name!r}: one of {', '.join(billing_kind_names())}")


def billing_kind_names() -> tuple[str, ...]:
    return tuple(spec.name for spec in BILLING_KIND_SPECS)


def names_where(**traits: object) -> tuple[str, ...]:
    """The kinds whose traits (and properties) equal the ones given, e.g. `has_term=True`."""
    return tuple(
        spec.name
        for spec in BILLING_KIND_SPECS
        if all(getattr(spec, trait) == value for trait, value in traits.items())
    )


def codes_where(**traits: object) -> tuple[int, ...]:
    """As `names_where`, the contract's codes: what the vectorised formulas compare against."""
    return tuple(spec_of(name).code for name in names_where(**traits))
