"""Issue 37: a bid that bursts over the buyer's traffic profile reads as a reserved base plus
on-demand GPU-hours in the memo's rows, the score table and score --json."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.serving_memo import decision_rows, service_rows
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table
from clusterbid.core.serving_scoring import score_serving_evaluation


def _card():
    data = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text(encoding="utf-8"))
    data["workload"]["peak_hours_per_day"] = (
        6  # 120 req/s for 6 h, (24 x 50 - 6 x 120) / 18 = 26.7 the rest
    )
    for bid in data["bids"]:
        bid["terms"]["burst_price_per_gpu_hour"] = "4.00"
    return score_serving_evaluation(Evaluation.model_validate(data))


def test_a_bursting_fleet_is_shown_as_a_base_plus_burst():
    card = _card()
    first = card.ranked[0].estimate
    assert first.bursts and first.reserved_gpus < first.gpus_billed and first.burst_gpu_hours > 0
    rows = dict(decision_rows(card, None)[0])
    assert (
        f"{first.reserved_gpus:,} GPUs reserved all month plus {first.burst_gpu_hours:,.0f} "
        "GPU-hours" in rows["Monthly cost"]
    )
    assert "on-demand burst" in rows["Approval requested"]
    service = dict(service_rows(card))
    assert (
        "6 hours a day at the peak of 120 requests/s, the rest at 26.7 (stated by the buyer)"
        in service["Traffic"]
    )
    assert service["Billing basis"].startswith("a reserved base billed all month")
    assert f"{first.reserved_gpus:,} reserved all month" in format_serving_table(card)
    shown = next(b for b in serving_scorecard_to_json(card)["bids"] if b["bid_id"] == first.bid.id)[
        "figures"
    ]
    assert (shown["reserved_gpus"], shown["burst_gpu_hours_per_month"]) == (
        first.reserved_gpus,
        round(first.burst_gpu_hours, 3),
    )
