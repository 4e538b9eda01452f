"""An acceptance plan as data: one test per claim the evaluation relied on, each with the figure
scored, where that figure came from, the pass threshold derived from it, and the remedy owed.

The JSON form (`clusterbid-acceptance-plan/1`) is attached to the contract as an annex and kept
in the document, so the files returned after handover are judged against the thresholds that
were signed, not against figures recomputed later."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from clusterbid.core.base import FrozenModel
from clusterbid.core.evidence_request.model import CommandRun

FORMAT: Literal["clusterbid-acceptance-plan/1"] = "clusterbid-acceptance-plan/1"
# "ACC-" and the test's short name: a returned file named "ACC-busbw-2nodes-ring_x.log" is matched
# by its name alone, as request ids are (no spaces, no slash: it must survive every file system).
TEST_ID = r"^ACC-[a-z0-9-]{2,40}$"
NOT_STATED = "not stated in the bid: negotiate it before signature"


class AcceptanceTest(FrozenModel):
    test_id: str = Field(pattern=TEST_ID)
    claim: str = Field(
        min_length=1, max_length=200, description="the claim the evaluation relied on"
    )
    title: str = Field(min_length=1, max_length=300)
    runs: list[CommandRun] = Field(
        default_factory=list, description="benchmark commands, as in requests"
    )
    steps: list[str] = Field(
        default_factory=list, description="what to do, for tests without a command"
    )
    # The figure the evaluation scored, its unit and source in words (measured / stated / default).
    scored: float | None = None
    unit: str = ""
    scored_source: str = Field(min_length=1, max_length=500)
    comparison: Literal["at least", "at most"] = "at least"
    threshold: float | None = Field(
        None, description="None: judged by the officer, not by a figure"
    )
    threshold_basis: str = Field(
        min_length=1, max_length=500, description="where the threshold comes from"
    )
    soak_hours: float | None = Field(None, ge=0)
    remedy: str = Field(min_length=1, max_length=500)
    remedy_stated: bool = False
    reads: list[str] = Field(
        default_factory=list, description="evidence formats the app reads back"
    )

    def passes(self, measured: float) -> bool:
        if self.threshold is None:
            raise ValueError(f"{self.test_id} has no numeric threshold")
        return (
            measured >= self.threshold
            if self.comparison == "at least"
            else measured <= self.threshold
        )


class AcceptancePlan(FrozenModel):
    format: Literal["clusterbid-acceptance-plan/1"] = FORMAT
    evaluation: str
    provider: str
    bid_id: str
    issued_on: dt.date
    tests: list[AcceptanceTest]
    notes: list[str] = Field(default_factory=list)

    def test(self, test_id: str) -> AcceptanceTest | None:
        return next((t for t in self.tests if t.test_id == test_id), None)
