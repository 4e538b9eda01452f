"""What it takes to collect an SLA credit, as the bid's SLA text states it (issue 39, item 4).

A headline credit ("10% when uptime falls below 99.9%") is not money the buyer receives: in
published SLA texts the customer must file a claim with its own evidence inside a window, the
definition of downtime leaves out a GPU that is degraded but reachable, and credits are capped.
Each of these is bid data; a field left out takes the cautious default below, drawn from those
texts and named in methodology section 9 (never shown as the provider's statement):
- Google Compute Engine SLA: "Downtime" is loss of external connectivity or persistent disk
  access; the customer notifies Google within 30 days of becoming eligible, with its own logs;
- the range across public cloud GPU SLAs: claims within 10-60 days, credits capped at 10-50% of
  the month's charges, none paid without a claim.
"""

from __future__ import annotations

from pydantic import Field

from clusterbid.core.base import FrozenModel

# Defaults for a field the SLA text does not state (the cautious end of the published range).
DEFAULT_COVERED_PERCENT = (
    50.0  # judgement: faults that take a node off the network count, degraded GPUs do not
)
DEFAULT_CLAIM_WINDOW_DAYS = 10  # shortest claim window in the published texts
DEFAULT_CAP_PERCENT = 10.0  # lowest cap in the published texts
# A claim needs the buyer's own evidence of the downtime, gathered and filed inside the window.
# With a window of FULL_WINDOW_DAYS or more the buyer files CLAIMED_WITH_FULL_WINDOW of its breaches
# (a judgement: monitoring misses some, and some are not worth the paperwork); a shorter window
# loses claims in proportion. An automatic credit needs no claim.
FULL_WINDOW_DAYS = 30
CLAIMED_WITH_FULL_WINDOW = 0.9


class SlaClaimTerms(FrozenModel):
    """How the bid's SLA pays out; every field empty = not stated."""

    covered_percent: float | None = Field(
        None,
        ge=0,
        le=100,
        description="Share of node failures the SLA's definition of downtime counts, percent "
        "(a degraded but reachable GPU is often not downtime); empty = not stated "
        f"({DEFAULT_COVERED_PERCENT:g}%)",
    )
    automatic: bool | None = Field(
        None,
        description="The provider credits breaches without a claim; empty = not stated (a claim is needed, "
        "as in every published cloud SLA)",
    )
    claim_window_days: int | None = Field(
        None,
        ge=0,
        le=365,
        description="Days the buyer has to file a claim with its evidence; empty = not stated "
        f"({DEFAULT_CLAIM_WINDOW_DAYS} days)",
    )
    cap_percent: float | None = Field(
        None,
        ge=0,
        le=100,
        description="Most the credits pay, percent of the month's charges; empty = not "
        f"stated ({DEFAULT_CAP_PERCENT:g}%)",
    )

    def covered_share(self) -> float:
        return (
            DEFAULT_COVERED_PERCENT if self.covered_percent is None else self.covered_percent
        ) / 100.0

    def claimed_share(self) -> float:
        """The share of the breaches the buyer is paid for after claims and evidence."""
        if self.automatic:
            return 1.0
        window = (
            DEFAULT_CLAIM_WINDOW_DAYS if self.claim_window_days is None else self.claim_window_days
        )
        return CLAIMED_WITH_FULL_WINDOW * min(window, FULL_WINDOW_DAYS) / FULL_WINDOW_DAYS

    def capped_credit_share(self, credit_percent: float) -> float:
        cap = DEFAULT_CAP_PERCENT if self.cap_percent is None else self.cap_percent
        return min(credit_percent, cap) / 100.0

    def not_stated(self) -> list[str]:
        """The fields left out, in words, for the memo's and the app's source column."""
        words = {
            "covered_percent": "what counts as downtime",
            "automatic": "whether credits are automatic",
            "claim_window_days": "the claim window",
            "cap_percent": "the cap",
        }
        return [text for name, text in words.items() if getattr(self, name) is None]
