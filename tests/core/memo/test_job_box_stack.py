"""The job box's Baseline MFU line says whose figure it is and the stack behind it (issue 36): it
said "buyer's stack" even when the workload states no software stack, while the bands had been
widened for exactly that reason."""

from __future__ import annotations

import copy
import datetime as dt
import json

from tests.conftest import EXAMPLES
from tests.core.memo.test_memo_page_one import APPROVERS, _page_one
from tests.core.memo.test_render import needs_poppler

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.content import job_rows
from clusterbid.core.memo.making import make_memo
from clusterbid.core.scoring import score_evaluation

DEMO = json.loads((EXAMPLES / "demo-evaluation.json").read_text(encoding="utf-8"))


def _baseline_line(data: dict) -> str:
    card = score_evaluation(Evaluation.model_validate(data))
    return dict(job_rows(card))["Baseline MFU"]


def test_an_unstated_stack_is_said_with_the_wider_band_and_a_stated_one_is_named():
    assert "software_stack" not in DEMO["workload"]  # the demo states none
    line = _baseline_line(DEMO)
    assert line == "42.0% (buyer's; stack not stated: band widened)"
    named = copy.deepcopy(DEMO)
    named["workload"]["software_stack"] = "megatron-core-2024"
    line = _baseline_line(named)
    assert line == "42.0% (buyer's, on Megatron-Core, 2024 and later)"


@needs_poppler
def test_page_one_prints_the_line():
    pdf = make_memo(
        Evaluation.model_validate(DEMO),
        approvers=APPROVERS,
        samples=2_000,
        decision_date=dt.date(2026, 12, 1),
    )
    assert "(buyer's; stack not stated: band widened)" in _page_one(pdf)
