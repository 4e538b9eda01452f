"""The policy's must-haves as gates (issue 34, item 2): a required certification, the place the
data is held and dedicated tenancy are not points of a score but conditions of award. A bid that
lacks one, or does not say, is excluded with words naming what is missing and what to do."""

from __future__ import annotations

import dataclasses
from typing import Protocol, TypeVar

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.evaluation import MustHaves

CERTIFICATION_GATE = "lacks_required_certification"
RESIDENCY_GATE = "data_residency_not_met"
TENANCY_GATE = "tenancy_not_met"


class _Gated(Protocol):
    @property
    def bid(self) -> Bid: ...
    @property
    def gates(self) -> tuple[Finding, ...]: ...


E = TypeVar("E", bound=_Gated)


def must_have_findings(bid: Bid, must: MustHaves) -> list[Finding]:
    """The gates `bid` fails under `must` (empty: it meets every must-have)."""
    found = []
    held = set(bid.facility.certifications)
    missing = [c for c in must.certifications if c not in held]
    if missing:
        found.append(
            Finding(
                CERTIFICATION_GATE,
                (
                    f"lacks {', '.join(missing)}, which the policy requires of every bid (a "
                    "must-have, not a score): "
                    "ask the provider for the certificate, or remove it from the policy's "
                    "must-haves"
                ),
            )
        )
    residency = _residency_finding(bid, must)
    if residency is not None:
        found.append(residency)
    if must.tenancy == "dedicated" and bid.facility.tenancy != "dedicated":
        offered = (
            "offers shared hosts or fabric"
            if bid.facility.tenancy == "shared"
            else "does not say whether hosts and fabric are shared"
        )
        found.append(
            Finding(
                TENANCY_GATE,
                (
                    f"{offered}; the policy requires dedicated tenancy: ask the provider to "
                    "confirm no other "
                    "customer shares them"
                ),
            )
        )
    return found


def _residency_finding(bid: Bid, must: MustHaves) -> Finding | None:
    """Where the bid holds the data, against the places the policy allows (none listed: any)."""
    allowed = [place.casefold() for place in must.data_residency]
    if not allowed or (bid.facility.data_residency or "").casefold() in allowed:
        return None
    where = (
        f"holds the data in {bid.facility.data_residency}"
        if bid.facility.data_residency
        else "does not say where the data is held"
    )
    return Finding(
        RESIDENCY_GATE,
        (
            f"{where}; the policy requires the data to stay in "
            f"{' or '.join(must.data_residency)}: "
            "ask the provider to state the data's location in writing"
        ),
    )


def gated_by_must_haves(estimate: E, must: MustHaves) -> E:
    """`estimate` (training or serving: any with `bid` and `gates`) with the must-haves it fails
    added to its gates; the same object when it meets them all."""
    found = must_have_findings(estimate.bid, must)
    if not found:
        return estimate
    return dataclasses.replace(estimate, gates=(*estimate.gates, *found))  # type: ignore[type-var]
