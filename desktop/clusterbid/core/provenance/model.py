"""Where one figure came from: the provider, a measurement, the buyer, a documented default, or nobody."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from clusterbid.core.base import FrozenModel

SourceKind = Literal["provider", "measured", "assumption", "default", "not_stated"]

# Words the memo, the app and the score JSON use; a default is never called the provider's.
KIND_LABELS: dict[str, str] = {
    "provider": "stated by the provider",
    "measured": "measured",
    "assumption": "buyer's assumption",
    "default": "ClusterBid default",
    "not_stated": "not stated (default used)",
}

# Kinds whose figure nobody checked against the provider's own words or a measurement.
UNVERIFIED_KINDS = ("assumption", "default", "not_stated")


class Source(FrozenModel):
    """Provenance of one input, keyed in a document by its dotted path, e.g. "reliability.burn_in_hours"."""

    kind: SourceKind
    reference: str = Field(
        "", max_length=300, description="Document/page/clause, or evidence item id"
    )
    who: str = Field("", max_length=200, description="Who set an assumption")
    why: str = Field("", max_length=500, description="Why an assumption or default was used")
    grade: str = Field("", max_length=40, description="Evidence grade of a measurement")
    # Issue 31: a buyer unsure of a commercial term gives the range it may fall in; the Monte Carlo
    # draws the term across it, most likely at the figure (uncertainty/term_ranges.py).
    low: float | None = Field(
        None,
        ge=0,
        le=1e12,
        description="Assumption only: the least the figure may be, "
        "in its own units; the Monte Carlo draws commercial terms from low to high",
    )
    high: float | None = Field(
        None, ge=0, le=1e12, description="Assumption only: the most the figure may be"
    )

    @model_validator(mode="after")
    def _assumption_has_owner(self) -> Source:
        if self.kind == "assumption" and not self.who.strip():
            raise ValueError("an assumption names who set it (field 'who')")
        if (self.low is None) != (self.high is None):
            raise ValueError("a range gives both 'low' and 'high', or neither")
        if self.low is not None and self.kind != "assumption":
            raise ValueError(
                "a range ('low', 'high') is the buyer's assumption; a source of kind "
                f"{self.kind!r} "
                "states one figure: remove the range or make the source an assumption"
            )
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(
                f"the range's 'low' ({self.low:g}) is above its 'high' ({self.high:g}): swap them"
            )
        return self

    @property
    def label(self) -> str:
        return KIND_LABELS[self.kind]

    @property
    def verified(self) -> bool:
        return self.kind not in UNVERIFIED_KINDS
